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
 * A failure in 1 or 2 rejects: the server exits with the message instead of serving a database it
 * cannot use (docs/architecture.md "How svc starts, finds its data and tests itself").
 */
import { getConfig } from "@/server/config";
import { getDb } from "@/server/db";
import { acquireSqliteServerLock, sqliteServerLockNeeded } from "@/server/db/server-lock";
import { startServerJobs } from "@/server/jobs/server-start";
import type { SuperviseOptions } from "@/server/jobs";

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
}
