/**
 * What a svc server process does before it opens its port (instrumentation.ts `register()`, which
 * Next awaits in `app.prepare()`; scripts/server.mjs listens only after that):
 *
 * 1. SQLite without REDIS_URL: takes the database's server lock, refusing to start next to another
 *    svc server on the same file (server/db/server-lock.ts);
 * 2. opens the database and applies pending migrations (server/db/migrate.ts: PostgreSQL under an
 *    advisory lock, SQLite in one BEGIN IMMEDIATE transaction — one process at a time), so the
 *    first request, and a CLI run as soon as the port answers, find a migrated database;
 * 3. starts the background job worker, retried with backoff when the database refuses
 *    (server/jobs/server-start.ts); the port opens after its first attempt, and `GET /api/ready`
 *    says whether it runs.
 *
 * 4. when SVC_SSH_PORT is set, starts the SSH server for git (server/ssh/server.ts; host keys in
 *    DATA_DIR/ssh), stopped when the shutdown signal fires (server/shutdown.ts: no new connections, running git
 *    commands get SVC_SHUTDOWN_GRACE_MS to finish; docs/ssh.md).
 *
 * A failure in 1 or 2 rejects: the server exits with the message instead of serving a database it
 * cannot use (docs/architecture.md "How svc starts, finds its data and tests itself").
 */
import { getConfig } from "@/server/config";
import { getDb } from "@/server/db";
import { acquireSqliteServerLock, sqliteServerLockNeeded } from "@/server/db/server-lock";
import { startServerJobs } from "@/server/jobs/server-start";
import type { SuperviseOptions } from "@/server/jobs";
import { shutdownSignal } from "@/server/shutdown";

/**
 * Lock (SQLite without Redis), migrate, start the jobs. `jobRetry` overrides the worker's start
 * backoff (tests).
 * @throws ServerLockError when another svc server serves the same SQLite file; database errors
 *   when the database cannot be opened or migrated
 */
export async function startServerProcess(jobRetry: Omit<SuperviseOptions, "onRunning"> = {}): Promise<void> {
  const { provider, databaseUrl } = getConfig();
  const lock = sqliteServerLockNeeded(provider) ? acquireSqliteServerLock(databaseUrl.slice("file:".length)) : undefined;
  try {
    await getDb();
  } catch (err) {
    lock?.release();
    throw new Error(`cannot open or migrate the database: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  await startServerJobs(jobRetry);
  await startSshFromEnv();
}

/**
 * Starts the SSH server when SVC_SSH_PORT is set (1–65535; SVC_SSH_BIND the address, default all;
 * SVC_SSH_PROXY_PROTOCOL=1 behind a TCP load balancer that sends the PROXY protocol header) and
 * stops it on shutdown. Errors: a bad SVC_SSH_PORT or SVC_SSH_PROXY_PROTOCOL, or the listen error
 * (the server exits).
 */
async function startSshFromEnv(env: Record<string, string | undefined> = process.env): Promise<void> {
  const raw = env.SVC_SSH_PORT?.trim();
  if (!raw) return;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`SVC_SSH_PORT must be a port number 1-65535 (got ${raw})`);
  const proxy = env.SVC_SSH_PROXY_PROTOCOL?.trim() || "0";
  if (proxy !== "0" && proxy !== "1") throw new Error(`SVC_SSH_PROXY_PROTOCOL must be 1 or 0 (got ${proxy})`);
  const { startSshServer } = await import("@/server/ssh/server");
  const path = await import("node:path");
  const ssh = await startSshServer({
    port,
    host: env.SVC_SSH_BIND?.trim() || undefined,
    hostKeyDir: path.join(getConfig().dataDir, "ssh"),
    proxyProtocol: proxy === "1",
  });
  console.log(`svc: SSH server for git listening on port ${ssh.port}${proxy === "1" ? " (PROXY protocol)" : ""}`);
  // running git commands get the graceful stop's time to finish (SVC_SHUTDOWN_GRACE_MS, as HTTP requests)
  const grace = Number(env.SVC_SHUTDOWN_GRACE_MS ?? 30_000);
  const graceMs = Number.isInteger(grace) && grace >= 0 && grace <= 3_600_000 ? grace : 30_000;
  shutdownSignal().addEventListener("abort", () => void ssh.close(graceMs), { once: true });
}
