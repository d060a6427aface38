/**
 * GET /api/health (liveness) and GET /api/ready (readiness) of this svc process (README "Health
 * checks"), anonymous, never cached. The body follows the IETF draft "Health Check Response
 * Format for HTTP APIs" (draft-inadarei-api-health-check) as Gitea's `/api/healthz` does:
 *
 *   {"status": "pass" | "fail", "description": "svc",
 *    "checks": {"database:ping": [{"status": "pass", "time": "2025-…Z"}], …}}
 *
 * with the draft's media type `application/health+json`.
 *
 * - `/api/health` answers 200 `{"status":"pass"}` while the process serves HTTP: a load balancer or
 *   orchestrator restarts the process when it stops answering. It checks nothing else, so a
 *   database outage does not restart every svc process at once.
 * - `/api/ready` answers 200 when this process can do its work, else 503 (Gitea answers 424; 503 is
 *   what load balancers and Kubernetes treat as "take out of rotation"). Checks:
 *   `database:ping` (a query answers within 5 s), `database:migrations` (every migration of this
 *   svc version is recorded in `_svc_migrations`), `jobs:worker` (this process's job worker runs,
 *   or is off by SVC_JOB_CONCURRENCY=0; `starting`, `failed` — retrying with backoff — and
 *   `stopped` fail). A failed check says which state it is in (`observedValue`) and nothing more:
 *   no error text, host names or versions, since anyone may ask.
 */
import path from "node:path";
import { getConfig } from "@/server/config";
import { getDb } from "@/server/db";
import { readMigrations } from "@/server/db/migrate";
import { jobWorkerState } from "@/server/jobs";

type Status = "pass" | "fail";

interface CheckResult {
  status: Status;
  time: string;
  /** The state found, e.g. "unreachable", "2 pending"; for jobs:worker always its state ("running", "off", "failed", …). */
  observedValue?: string;
}

/** How long the readiness query may take (ms) before the database counts as unreachable. */
const PING_TIMEOUT_MS = 5_000;

let expected: { dir: string; names: string[] } | undefined;

/** The migration names this svc version ships (read once per folder). */
function expectedMigrations(): string[] {
  const { appRoot, provider } = getConfig();
  const dir = path.join(appRoot, provider === "postgresql" ? "prisma/postgresql/migrations" : "prisma/migrations");
  if (expected?.dir !== dir) expected = { dir, names: readMigrations(dir).map((m) => m.name) };
  return expected.names;
}

function answer(status: Status, checks?: Record<string, CheckResult[]>): Response {
  return new Response(JSON.stringify({ status, description: "svc", ...(checks ? { checks } : {}) }), {
    status: status === "pass" ? 200 : 503,
    headers: { "content-type": "application/health+json", "cache-control": "no-store" },
  });
}

/** The database checks: reachable within PING_TIMEOUT_MS, and every shipped migration applied. */
async function databaseChecks(time: string): Promise<{ ping: CheckResult; migrations: CheckResult }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), PING_TIMEOUT_MS)));
  const query = (async () => {
    const db = await getDb();
    const rows = await db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM "_svc_migrations"`);
    return new Set(rows.map((r) => r.name));
  })();
  query.catch(() => {}); // a late failure after the timeout answered
  try {
    const applied = await Promise.race([query, timeout]);
    if (applied === "timeout")
      return { ping: { status: "fail", time, observedValue: "timeout" }, migrations: { status: "fail", time, observedValue: "unknown" } };
    const pending = expectedMigrations().filter((n) => !applied.has(n)).length;
    return {
      ping: { status: "pass", time },
      migrations: pending === 0 ? { status: "pass", time } : { status: "fail", time, observedValue: `${pending} pending` },
    };
  } catch {
    return { ping: { status: "fail", time, observedValue: "unreachable" }, migrations: { status: "fail", time, observedValue: "unknown" } };
  } finally {
    clearTimeout(timer);
  }
}

/** GET /api/health: 200 while the process serves. */
export function getHealth(): Response {
  return answer("pass");
}

/** GET /api/ready: 200 when the database answers, is migrated and the job worker runs (or is off); else 503. */
export async function getReady(): Promise<Response> {
  const time = new Date().toISOString();
  const { ping, migrations } = await databaseChecks(time);
  const worker = jobWorkerState().state;
  const jobs: CheckResult = { status: worker === "running" || worker === "off" ? "pass" : "fail", time, observedValue: worker };
  const checks = { "database:ping": [ping], "database:migrations": [migrations], "jobs:worker": [jobs] };
  const status = Object.values(checks).every(([c]) => c.status === "pass") ? "pass" : "fail";
  return answer(status, checks);
}
