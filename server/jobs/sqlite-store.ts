/**
 * SQLite job store: one table, `_svc_jobs`, in svc's own database file, read and written through
 * svc's one Prisma connection (server/db). Why not a library: docs/architecture.md
 * "Background jobs". Sharing the connection means the queue takes part in svc's in-process write
 * queue (serialized-sqlite.ts) and its transactions start with BEGIN IMMEDIATE, so it cannot
 * cause "database is locked" in svc's requests or fail with it itself; a second process on the
 * same file waits up to the busy timeout, as every other writer does.
 *
 * A job row: state `created` (never started) → `active` (claimed; `lockedUntil` = the lease's end)
 * → `completed`, or → `retry` (runAt = failure + retryDelayMs) → `active` … → `failed` once
 * `attempts` exceeds retries + 1. The lease is `leaseMs` (WorkerSettings) from the claim, renewed
 * every leaseMs/3 by the running process but never past claim + timeoutMs. An `active` row whose
 * lease lapsed (its process died or stalled, or the run hung past timeoutMs) is due again and its
 * claim counts as an attempt. Each claim adds a row to `_svc_job_runs` naming the process
 * (jobProcessId), ended as completed, failed, or lost (a later claim found its lease lapsed).
 *
 * Claiming is one statement, `UPDATE … WHERE id = ? AND <still due> RETURNING`: SQLite runs it
 * as a write transaction from its first step, so of two processes racing for one job exactly one
 * gets the row back (the other sees it no longer due and gets none).
 */
import { randomUUID } from "node:crypto";
import { getDb, type Db } from "@/server/db";
import { retryDelayMs } from "./backoff";
import type { JobDefinition, JobInfo, JobRun, JobStore, QueueDepth, TxSql, WorkerSettings } from "./store";
import { errorText, jobProcessId, renewEveryMs, STOP_GRACE_MS } from "./store";

const TABLE = `
CREATE TABLE IF NOT EXISTS "_svc_jobs" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "name" TEXT NOT NULL,
  "payload" TEXT NOT NULL,
  "state" TEXT NOT NULL,
  "singletonKey" TEXT,
  "runAt" INTEGER NOT NULL,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "lockedUntil" INTEGER,
  "lastError" TEXT,
  "createdAt" INTEGER NOT NULL,
  "completedAt" INTEGER
);
CREATE INDEX IF NOT EXISTS "_svc_jobs_due" ON "_svc_jobs" ("name", "state", "runAt");
CREATE UNIQUE INDEX IF NOT EXISTS "_svc_jobs_singleton" ON "_svc_jobs" ("name", "singletonKey")
  WHERE "state" = 'created' AND "singletonKey" IS NOT NULL;
CREATE TABLE IF NOT EXISTS "_svc_job_runs" (
  "jobId" TEXT NOT NULL,
  "attempt" INTEGER NOT NULL,
  "name" TEXT NOT NULL,
  "worker" TEXT NOT NULL,
  "startedAt" INTEGER NOT NULL,
  "finishedAt" INTEGER,
  "outcome" TEXT NOT NULL,
  PRIMARY KEY ("jobId", "attempt")
);
CREATE INDEX IF NOT EXISTS "_svc_job_runs_finished" ON "_svc_job_runs" ("finishedAt");`;
const TABLE_STATEMENTS = TABLE.split(";")
  .map((s) => s.trim())
  .filter(Boolean);

/** Finished rows are kept this long (ms) for inspection, then deleted by the worker. */
const KEEP_COMPLETED_MS = 24 * 60 * 60 * 1000;
const KEEP_FAILED_MS = 14 * 24 * 60 * 60 * 1000;

const DUE = `(("state" IN ('created', 'retry') AND "runAt" <= ?) OR ("state" = 'active' AND "lockedUntil" < ?))`;

const num = (v: unknown) => Number(v);
const sleep = (ms: number, signal: { wake?: () => void }) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.wake = () => {
      clearTimeout(t);
      resolve();
    };
  });

export class SqliteStore implements JobStore {
  private table: Promise<void> | undefined;
  /** The table is known to exist (this.table resolved). */
  private tableReady = false;
  private stopping = false;
  private loops: Promise<void>[] = [];
  private readonly sleepers = new Map<string, { wake?: () => void }[]>();
  private lastPrune = 0;

  /** svc's Prisma client (getDb), once the table exists (CREATE … IF NOT EXISTS, in one BEGIN IMMEDIATE). */
  private async db(): Promise<Db> {
    this.table ??= (async () => {
      const db = await getDb();
      await db.$transaction(async (tx) => {
        for (const statement of TABLE_STATEMENTS) await tx.$executeRawUnsafe(statement);
      });
    })();
    const table = this.table;
    table.then(
      () => {
        if (this.table === table) this.tableReady = true;
      },
      () => {
        if (this.table === table) this.table = undefined;
      },
    );
    await table;
    return getDb();
  }

  /**
   * Inside `tx` (a transaction on svc's one connection, which holds its lock) nothing may wait for
   * that connection: the table is then created through `tx` if this store has not seen it yet.
   */
  async enqueue(
    _def: unknown,
    name: string,
    payload: unknown,
    opts: { singletonKey?: string; runAt?: Date },
    tx?: TxSql,
  ): Promise<string | null> {
    let execute: (sql: string, values: unknown[]) => Promise<number>;
    if (tx) {
      if (!this.tableReady) for (const statement of TABLE_STATEMENTS) await tx.execute(statement, []);
      execute = (sql, values) => tx.execute(sql, values);
    } else {
      const db = await this.db();
      execute = (sql, values) => db.$executeRawUnsafe(sql, ...values);
    }
    const id = randomUUID();
    const now = Date.now();
    const inserted = await execute(
      `INSERT INTO "_svc_jobs" ("id", "name", "payload", "state", "singletonKey", "runAt", "createdAt")
       VALUES (?, ?, ?, 'created', ?, ?, ?) ON CONFLICT DO NOTHING`,
      [id, name, JSON.stringify(payload ?? null), opts.singletonKey ?? null, opts.runAt ? opts.runAt.getTime() : now, now],
    );
    if (inserted === 0) return null;
    if (!tx) this.wake(name);
    return id;
  }

  wake(name: string): void {
    for (const s of this.sleepers.get(name) ?? []) s.wake?.();
  }

  async getJob(name: string, id: string): Promise<JobInfo | null> {
    const db = await this.db();
    const rows = await db.$queryRawUnsafe<{ state: string; attempts: unknown; lastError: string | null; runAt: unknown }[]>(
      `SELECT "state", "attempts", "lastError", "runAt" FROM "_svc_jobs" WHERE "id" = ? AND "name" = ?`,
      id,
      name,
    );
    const row = rows[0];
    if (!row) return null;
    const runs = await db.$queryRawUnsafe<{ attempt: unknown; worker: string; startedAt: unknown; finishedAt: unknown; outcome: string }[]>(
      `SELECT "attempt", "worker", "startedAt", "finishedAt", "outcome" FROM "_svc_job_runs" WHERE "jobId" = ? ORDER BY "attempt"`,
      id,
    );
    return {
      id,
      name,
      state: row.state as JobInfo["state"],
      attempts: num(row.attempts),
      lastError: row.lastError,
      runAt: new Date(num(row.runAt)),
      runs: runs.map((r) => ({
        attempt: num(r.attempt),
        worker: r.worker,
        startedAt: new Date(num(r.startedAt)),
        finishedAt: r.finishedAt === null ? null : new Date(num(r.finishedAt)),
        outcome: r.outcome as JobRun["outcome"],
      })),
    };
  }

  async queueDepth(): Promise<QueueDepth[]> {
    const db = await this.db();
    // Finished rows stay for a day (KEEP_COMPLETED_MS), so a plain GROUP BY would scan them all
    // (32 ms for 200 000 rows). Instead the names are walked through the (name, state, runAt)
    // index, one seek each, and only unfinished entries are counted (0.2 ms for the same rows).
    const rows = await db.$queryRawUnsafe<{ name: string; state: QueueDepth["state"]; n: unknown }[]>(
      `WITH RECURSIVE "names"("name") AS (
         SELECT MIN("name") FROM "_svc_jobs"
         UNION ALL
         SELECT (SELECT MIN("name") FROM "_svc_jobs" WHERE "name" > "names"."name") FROM "names" WHERE "names"."name" IS NOT NULL)
       SELECT j."name", j."state", COUNT(*) AS "n" FROM "names" JOIN "_svc_jobs" j
         ON j."name" = "names"."name" AND j."state" IN ('created', 'retry', 'active')
       GROUP BY j."name", j."state"`,
    );
    return rows.map((r) => ({ name: r.name, state: r.state, count: num(r.n) }));
  }

  async startWorker(defs: JobDefinition[], settings: WorkerSettings): Promise<void> {
    await this.db();
    this.stopping = false;
    for (const def of defs) {
      const sleepers = Array.from({ length: settings.concurrency }, () => ({}) as { wake?: () => void });
      this.sleepers.set(def.name, sleepers);
      for (const signal of sleepers) this.loops.push(this.loop(def, settings, signal));
    }
  }

  /** Claims and runs jobs of `def.name` one at a time until stopped; sleeps when none is due. */
  private async loop(def: JobDefinition, settings: WorkerSettings, signal: { wake?: () => void }): Promise<void> {
    const { pollIntervalMs } = settings;
    while (!this.stopping) {
      let ran = false;
      try {
        ran = await this.runOne(def, settings.leaseMs);
        await this.prune();
      } catch (err) {
        console.error(`svc: jobs: ${def.name}: cannot claim or record a job:`, err);
      }
      if (!ran && !this.stopping) await sleep(pollIntervalMs, signal);
    }
  }

  /** Claims one due job of `def.name` and runs it, renewing its lease meanwhile; false when none was due. */
  private async runOne(def: JobDefinition, leaseMs: number): Promise<boolean> {
    const db = await this.db();
    const now = Date.now();
    // a plain read first: an idle poll takes no write lock
    const due = await db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT "id" FROM "_svc_jobs" WHERE "name" = ? AND ${DUE} ORDER BY "runAt" LIMIT 1`,
      def.name,
      now,
      now,
    );
    if (!due[0]) return false;
    const id = due[0].id;
    const worker = jobProcessId();
    // the claim, the end of an earlier run whose lease lapsed, and this run's record: one transaction
    const job = await db.$transaction(async (tx) => {
      const claimed = await tx.$queryRawUnsafe<{ payload: string; attempts: unknown }[]>(
        `UPDATE "_svc_jobs" SET "state" = 'active', "attempts" = "attempts" + 1, "lockedUntil" = ?
         WHERE "id" = ? AND ${DUE} RETURNING "payload", "attempts"`,
        now + Math.min(leaseMs, def.timeoutMs),
        id,
        now,
        now,
      );
      if (!claimed[0]) return undefined;
      const attempts = num(claimed[0].attempts);
      await tx.$executeRawUnsafe(
        `UPDATE "_svc_job_runs" SET "outcome" = 'lost', "finishedAt" = ? WHERE "jobId" = ? AND "finishedAt" IS NULL`,
        now,
        id,
      );
      if (attempts <= def.retries + 1)
        await tx.$executeRawUnsafe(
          `INSERT INTO "_svc_job_runs" ("jobId", "attempt", "name", "worker", "startedAt", "outcome") VALUES (?, ?, ?, ?, ?, 'running')
           ON CONFLICT DO NOTHING`,
          id,
          attempts,
          def.name,
          worker,
          now,
        );
      return { payload: claimed[0].payload, attempts };
    });
    if (!job) return true; // another worker took it: look again at once
    const { attempts } = job;
    const finish = async (outcome: "completed" | "failed" | null, sql: string, ...values: unknown[]) => {
      const at = Date.now();
      await db.$executeRawUnsafe(
        `UPDATE "_svc_jobs" SET ${sql} WHERE "id" = ? AND "state" = 'active' AND "attempts" = ?`,
        ...values,
        id,
        attempts,
      );
      if (outcome)
        await db.$executeRawUnsafe(
          `UPDATE "_svc_job_runs" SET "outcome" = ?, "finishedAt" = ? WHERE "jobId" = ? AND "attempt" = ? AND "finishedAt" IS NULL`,
          outcome,
          at,
          id,
          attempts,
        );
    };
    if (attempts > def.retries + 1) {
      // its lease lapsed on the last allowed attempt (the process running it died, or it hung)
      await finish(null, `"state" = 'failed', "lastError" = ?, "completedAt" = ?`, "timed out or its process stopped", Date.now());
      return true;
    }
    const renewal = this.renewLease(def, id, attempts, now, leaseMs);
    try {
      await def.handler(JSON.parse(job.payload));
    } catch (err) {
      clearInterval(renewal);
      const failedAt = Date.now();
      if (attempts > def.retries) {
        await finish("failed", `"state" = 'failed', "lastError" = ?, "completedAt" = ?`, errorText(err), failedAt);
        console.error(`svc: jobs: ${def.name} ${id} failed after ${attempts} attempts:`, err);
      } else {
        await finish(
          "failed",
          `"state" = 'retry', "lastError" = ?, "runAt" = ?, "lockedUntil" = NULL`,
          errorText(err),
          failedAt + retryDelayMs(def.backoffMs, attempts),
        );
      }
      return true;
    }
    clearInterval(renewal);
    await finish("completed", `"state" = 'completed', "completedAt" = ?, "lockedUntil" = NULL`, Date.now());
    return true;
  }

  /**
   * Renews the lease of the run `attempts` of job `id` every leaseMs/3, up to claim + timeoutMs
   * (a hung run is then retried although its process lives). Stops by itself when the row is no
   * longer this run's (its lease lapsed during a stall and another claim took it); the caller
   * clears the returned timer when the run ends.
   */
  private renewLease(def: JobDefinition, id: string, attempts: number, claimedAt: number, leaseMs: number): NodeJS.Timeout {
    const timer = setInterval(() => {
      void (async () => {
        const db = await this.db();
        const until = Math.min(Date.now() + leaseMs, claimedAt + def.timeoutMs);
        const renewed = await db.$executeRawUnsafe(
          `UPDATE "_svc_jobs" SET "lockedUntil" = ? WHERE "id" = ? AND "state" = 'active' AND "attempts" = ?`,
          until,
          id,
          attempts,
        );
        if (renewed === 0) {
          clearInterval(timer);
          console.error(`svc: jobs: ${def.name} ${id}: lease lost (attempt ${attempts} was given to another run)`);
        }
      })().catch((err) => console.error(`svc: jobs: ${def.name} ${id}: cannot renew the lease:`, err));
    }, renewEveryMs(leaseMs));
    timer.unref();
    return timer;
  }

  /** Deletes finished rows past their keeping time, at most every 10 minutes. */
  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune < 10 * 60_000) return;
    this.lastPrune = now;
    const db = await this.db();
    await db.$executeRawUnsafe(
      `DELETE FROM "_svc_jobs" WHERE ("state" = 'completed' AND "completedAt" < ?) OR ("state" = 'failed' AND "completedAt" < ?)`,
      now - KEEP_COMPLETED_MS,
      now - KEEP_FAILED_MS,
    );
    await db.$executeRawUnsafe(`DELETE FROM "_svc_job_runs" WHERE "finishedAt" < ?`, now - KEEP_FAILED_MS);
  }

  async stopWorker(): Promise<void> {
    this.stopping = true;
    for (const sleepers of this.sleepers.values()) for (const s of sleepers) s.wake?.();
    this.sleepers.clear();
    const loops = this.loops;
    this.loops = [];
    // each loop ends after its running job is recorded; one still running after the grace time
    // stays `active` and is retried once its lease lapses (the process exits and stops renewing it)
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled(loops), new Promise((r) => (timer = setTimeout(r, STOP_GRACE_MS)))]);
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    await this.stopWorker();
    this.table = undefined;
    this.tableReady = false;
  }
}
