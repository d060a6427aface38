import { postHighlight } from "@/server/http/highlight";

export const dynamic = "force-dynamic";
export const POST = (req: Request) => postHighlight(req);
