import { getMetrics } from "@/server/http/metrics";

// Node runtime (process and event-loop metrics); never cached
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const GET = (req: Request) => getMetrics(req);
