import { getUnsubscribe, postUnsubscribe } from "@/server/http/unsubscribe";

// the List-Unsubscribe link of notification emails (server/http/unsubscribe.ts); never cached
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ token: string }> };
export const GET = async (req: Request, { params }: Ctx) => getUnsubscribe(req, (await params).token);
export const POST = async (req: Request, { params }: Ctx) => postUnsubscribe(req, (await params).token);
