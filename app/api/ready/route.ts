import { getReady } from "@/server/http/health";

// readiness (server/http/health.ts): database, migrations, job worker; anonymous, never cached
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const GET = () => getReady();
