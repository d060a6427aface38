import { deleteToken } from "@/server/http/tokens";
import { lastRawSegment } from "@/server/http/path";

export const dynamic = "force-dynamic";
/** The id is read still encoded from the URL: Next's params are already decoded (docs/api.md "Errors", percent-escapes). */
export async function DELETE(req: Request) {
  return deleteToken(req, lastRawSegment(req));
}
