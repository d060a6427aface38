import { pullEvents } from "@/server/http/pull-events";

export const dynamic = "force-dynamic";
export const GET = async (req: Request, { params }: { params: Promise<{ id: string }> }) => pullEvents(req, (await params).id);
