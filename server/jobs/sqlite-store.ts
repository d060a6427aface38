/**
 * SQLite job store: one table, `_svc_jobs`, in svc's own database file, read and written through
 * svc's one Prisma connection (server/db). Why not a library: docs/architecture.md
 * "Background jobs". Sharing the connection means the queue takes part in svc's in-process write
 * queue (serialized-sqlite.ts) and its transactions start with BEGIN IMMEDIATE, so it cannot
 * cause "database is locked" in svc's requests or fail with it itself; a second process on the
 * same file waits up to the busy timeout, as every other writer does.
 *
 * A job row: state `created` (never started) → `active` (claimed; `lockedUntil` = claim time +
 * timeoutMs) → `completed`, or → `retry` (runAt = failure + retryDelayMs) → `active` … → `failed`
 * once `attempts` exceeds retries + 1. An `active` row whose lease expired (its process died) is
 * due again and its claim counts as an attempt.
 *
 * Claiming is one statement, `UPDATE … WHERE id = ? AND <still due> RETURNING`: SQLite runs it
 * as a write transaction from its first step, so of two processes racing for one job exactly one
 * gets the row back (the other sees it no longer due and gets none).
 */
import { randomUUID } from "node:crypto";
import { getDb, type Db } from "@/server/db";
import { retryDelayMs } from "./backoff";
import type { JobDefinition, JobInfo, JobStore, QueueDepth, WorkerSettings } from "./store";
import { errorText, STOP_GRACE_MS } from "./store";

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
  WHERE "state" = 'created' AND "singletonKey" IS NOT NULL;`;

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
  private stopping = false;
  private loops: Promise<void>[] = [];
  private readonly sleepers = new Map<string, { wake?: () => void }[]>();
  private lastPrune = 0;

  /** svc's Prisma client (getDb), once the table exists (CREATE … IF NOT EXISTS, in one BEGIN IMMEDIATE). */
  private async db(): Promise<Db> {
    this.table ??= (async () => {
      const db = await getDb();
      await db.$transaction(async (tx) => {
        for (const statement of TABLE.split(";")
          .map((s) => s.trim())
          .filter(Boolean))
          await tx.$executeRawUnsafe(statement);
      });
    })();
    const table = this.table;
    table.catch(() => {
      if (this.table === table) this.table = undefined;
    });
    await table;
    return getDb();
  }

  async enqueue(_def: unknown, name: string, payload: unknown, opts: { singletonKey?: string; runAt?: Date }): Promise<string | null> {
    const db = await this.db();
    const id = randomUUID();
    const now = Date.now();
    const inserted = await db.$executeRawUnsafe(
      `INSERT INTO "_svc_jobs" ("id", "name", "payload", "state", "singletonKey", "runAt", "createdAt")
       VALUES (?, ?, ?, 'created', ?, ?, ?) ON CONFLICT DO NOTHING`,
      id,
      name,
      JSON.stringify(payload ?? null),
      opts.singletonKey ?? null,
      opts.runAt ? opts.runAt.getTime() : now,
      now,
    );
    if (inserted === 0) return null;
    for (const s of this.sleepers.get(name) ?? []) s.wake?.();
    return id;
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
    return {
      id,
      name,
      state: row.state as JobInfo["state"],
      attempts: num(row.attempts),
      lastError: row.lastError,
      runAt: new Date(num(row.runAt)),
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
      for (const signal of sleepers) this.loops.push(this.loop(def, settings.pollIntervalMs, signal));
    }
  }

  /** Claims and runs jobs of `def.name` one at a time until stopped; sleeps when none is due. */
  private async loop(def: JobDefinition, pollIntervalMs: number, signal: { wake?: () => void }): Promise<void> {
    while (!this.stopping) {
      let ran = false;
      try {
        ran = await this.runOne(def);
        await this.prune();
      } catch (err) {
        console.error(`svc: jobs: ${def.name}: cannot claim or record a job:`, err);
      }
      if (!ran && !this.stopping) await sleep(pollIntervalMs, signal);
    }
  }

  /** Claims one due job of `def.name` and runs it; false when none was due. */
  private async runOne(def: JobDefinition): Promise<boolean> {
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
    const claimed = await db.$queryRawUnsafe<{ payload: string; attempts: unknown }[]>(
      `UPDATE "_svc_jobs" SET "state" = 'active', "attempts" = "attempts" + 1, "lockedUntil" = ?
       WHERE "id" = ? AND ${DUE} RETURNING "payload", "attempts"`,
      now + def.timeoutMs,
      due[0].id,
      now,
      now,
    );
    const job = claimed[0];
    if (!job) return true; // another worker took it: look again at once
    const id = due[0].id;
    const attempts = num(job.attempts);
    const finish = (sql: string, ...values: unknown[]) =>
      db.$executeRawUnsafe(
        `UPDATE "_svc_jobs" SET ${sql} WHERE "id" = ? AND "state" = 'active' AND "attempts" = ?`,
        ...values,
        id,
        attempts,
      );
    if (attempts > def.retries + 1) {
      // its lease expired on the last allowed attempt (the process running it died)
      await finish(`"state" = 'failed', "lastError" = ?, "completedAt" = ?`, "timed out or its process stopped", Date.now());
      return true;
    }
    try {
      await def.handler(JSON.parse(job.payload));
    } catch (err) {
      const failedAt = Date.now();
      if (attempts > def.retries) {
        await finish(`"state" = 'failed', "lastError" = ?, "completedAt" = ?`, errorText(err), failedAt);
        console.error(`svc: jobs: ${def.name} ${id} failed after ${attempts} attempts:`, err);
      } else {
        await finish(
          `"state" = 'retry', "lastError" = ?, "runAt" = ?, "lockedUntil" = NULL`,
          errorText(err),
          failedAt + retryDelayMs(def.backoffMs, attempts),
        );
      }
      return true;
    }
    await finish(`"state" = 'completed', "completedAt" = ?, "lockedUntil" = NULL`, Date.now());
    return true;
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
  }

  async stopWorker(): Promise<void> {
    this.stopping = true;
    for (const sleepers of this.sleepers.values()) for (const s of sleepers) s.wake?.();
    this.sleepers.clear();
    const loops = this.loops;
    this.loops = [];
    // each loop ends after its running job is recorded; one still running after the grace time
    // stays `active` and is retried once its lease (timeoutMs) expires
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled(loops), new Promise((r) => (timer = setTimeout(r, STOP_GRACE_MS)))]);
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    await this.stopWorker();
    this.table = undefined;
  }
}
