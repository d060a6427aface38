import { agentStream } from "@/server/http/agent-stream";

export const dynamic = "force-dynamic";
export const POST = (req: Request) => agentStream(req);
