import { getTokens, postTokens } from "@/server/http/tokens";

export const dynamic = "force-dynamic";
export const GET = (req: Request) => getTokens(req);
export const POST = (req: Request) => postTokens(req);
