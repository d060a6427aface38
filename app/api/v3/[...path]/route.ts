/**
 * svc's GitHub-compatible REST API (commit statuses and check runs): server/http/rest-v3/handler.ts
 * routes the raw path itself (docs/api.md "REST: commit statuses and check runs").
 */
import { handleRestV3 } from "@/server/http/rest-v3/handler";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = (req: Request) => handleRestV3(req);
export { handler as GET, handler as POST, handler as PATCH, handler as PUT, handler as DELETE };
