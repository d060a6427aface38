import { getHealth } from "@/server/http/health";

// liveness (server/http/health.ts): anonymous, never cached
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const GET = () => getHealth();
