/**
 * PostgreSQL job store: pg-boss 10 (MIT; Node ≥ 20; deps: pg, cron-parser, serialize-error) in its
 * own schema `pgboss` of svc's database (DATABASE_URL), on its own small pool (SVC_JOB_POOL_MAX,
 * default 4). pg-boss creates and migrates that schema itself on start, under an advisory lock
 * (transaction-scoped: pg_advisory_xact_lock), so several svc processes may start at once, also
 * through PgBouncer in transaction mode (it runs unnamed statements and never LISTENs). Fetching
 * takes jobs with `SELECT … FOR UPDATE SKIP LOCKED` and marks them active in the same statement,
 * so two processes never fetch the same job (pgboss.io, "Introduction").
 *
 * Queue creation is not locked by pg-boss: `create_queue` inserts the queue row, then adds a
 * foreign key from the new partition to `pgboss.queue`, so two processes creating queues at once
 * deadlock (40P01; measured: 8 of 8 simultaneous starts on a new database). svc creates and
 * updates queues under its own advisory lock (QUEUE_LOCK), one process at a time — what pgmq
 * (pull request 393) and Dependency-Track (pull request 6249) did for the same race.
 *
 * Leases (pg-boss 10 has no heartbeat: its expiry is `started_on + expire_in`, i.e. timeoutMs):
 * each run is a row of `_svc_job_runs` (this store creates it next to svc's tables, under the same
 * lock) naming its process, whose `leaseUntil` the process pushes leaseMs ahead every leaseMs/3.
 * Every worker process looks every leaseMs/2 for runs whose lease lapsed: it ends them as `lost`
 * (one UPDATE … RETURNING, so one process wins each) and fails their jobs through pg-boss, which
 * retries them after their backoff. A dead process's job thus runs again within about
 * 1.5 × leaseMs + backoff instead of after timeoutMs (which still bounds a run that hangs).
 *
 * Mapping of svc's interface (docs/architecture.md "Background jobs"):
 * - one pg-boss queue per job name, policy `short`: at most one *created* (not yet started) job
 *   per singleton key. A job enqueued without a key gets a random one, so unkeyed jobs never
 *   collide (under `short`, a missing key counts as the key '').
 * - retries → retryLimit, backoffMs → retryDelay in whole seconds (rounded, ≥ 1 when backoffMs > 0)
 *   with retryBackoff, timeoutMs → expireInSeconds; set on the queue when the worker starts and
 *   when this process enqueues a name it has a definition for.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import PgBoss from "pg-boss";
import type { JobDefinition, JobInfo, JobRun, JobStore, QueueDepth, TxSql, WorkerSettings } from "./store";
import { errorText, JOB_DEFAULTS, jobProcessId, renewEveryMs, STOP_GRACE_MS } from "./store";
import { settledWithin } from "@/lib/settled-within";

type Policy = Omit<JobDefinition, "handler">;

/** 0x5356_4332 = "SVC2": one process at a time creates or updates pg-boss queues and the run table (migrate.ts uses "SVC1"). */
const QUEUE_LOCK = 1398162226;

/** Finished runs are kept this long (days), as failed jobs are on SQLite. */
const KEEP_RUNS_DAYS = 14;

const RUN_TABLE = [
  `CREATE TABLE IF NOT EXISTS "_svc_job_runs" (
    "jobId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "worker" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ NOT NULL,
    "leaseUntil" TIMESTAMPTZ NOT NULL,
    "finishedAt" TIMESTAMPTZ,
    "outcome" TEXT NOT NULL,
    PRIMARY KEY ("jobId", "attempt"))`,
  `CREATE INDEX IF NOT EXISTS "_svc_job_runs_open" ON "_svc_job_runs" ("leaseUntil") WHERE "finishedAt" IS NULL`,
  `CREATE INDEX IF NOT EXISTS "_svc_job_runs_finished" ON "_svc_job_runs" ("finishedAt")`,
];

function queueOptions(def: Policy): PgBoss.Queue {
  return {
    name: def.name,
    policy: "short",
    retryLimit: def.retries,
    retryDelay: def.backoffMs > 0 ? Math.max(1, Math.round(def.backoffMs / 1000)) : 0,
    retryBackoff: true,
    expireInSeconds: Math.max(1, Math.ceil(def.timeoutMs / 1000)),
  };
}

/** How long (ms) a stop waits for a start still in progress before stopping pg-boss as it is. */
const START_WAIT_MS = 10_000;
/** How long (ms) beyond the grace a stop waits for pg-boss to close its pool. */
const STOP_EXTRA_MS = 10_000;

/**
 * pg-boss's `db` interface (`executeSql(text, values) => {rows}`) over transaction `tx`. Values as
 * node-postgres would send them: undefined as null, objects other than Dates as JSON (the payload).
 */
function txDb(tx: TxSql): PgBoss.Db {
  return {
    executeSql: async (text: string, values: unknown[] = []) => ({
      rows: await tx.query(
        text,
        values.map((v) => (v === undefined ? null : v !== null && typeof v === "object" && !(v instanceof Date) ? JSON.stringify(v) : v)),
      ),
    }),
  };
}

export class PgBossStore implements JobStore {
  private readonly boss: PgBoss;
  /** Resolves once pg-boss has connected and created or migrated its schema, and the run table exists; rejects when it cannot. */
  readonly started: Promise<unknown>;
  private readonly queues = new Map<string, Promise<void>>();
  private readonly workerIds = new Map<string, string[]>();
  private reaper: NodeJS.Timeout | undefined;
  private readonly renewals = new Set<NodeJS.Timeout>();

  /** `max`: most connections of pg-boss's pool (SVC_JOB_POOL_MAX, config.ts postgresPoolSizesFromEnv). */
  constructor(
    private readonly connectionString: string,
    max = 4,
  ) {
    this.boss = new PgBoss({
      connectionString,
      application_name: "svc-jobs",
      max,
      schedule: false, // no cron jobs: skip the clock monitor
    });
    this.boss.on("error", (err) => console.error("svc: jobs (pg-boss):", err));
    this.started = this.boss.start().then(() =>
      this.underQueueLock(async (client) => {
        for (const statement of RUN_TABLE) await client.query(statement);
      }),
    );
    this.started.catch(() => {}); // awaited by index.ts store(), which reports the failure
  }

  /**
   * Runs `fn` while holding QUEUE_LOCK, a transaction-scoped advisory lock in an open transaction
   * on a connection of its own (pg-boss runs the queue statements on its pool meanwhile; every svc
   * process takes the same lock first). Transaction-scoped, not a session lock, so it also holds
   * and is released behind PgBouncer in transaction mode (docs/data.md "PgBouncer"): the open
   * transaction pins one server connection until COMMIT. Waits for the lock up to 60 s
   * (lock_timeout), then fails.
   */
  private async underQueueLock<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: "svc-jobs" });
    client.on("error", () => {}); // a dropped connection fails the query in progress, which reports it
    await client.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL lock_timeout = '60s'");
      await client.query("SELECT pg_advisory_xact_lock($1)", [QUEUE_LOCK]);
      const result = await fn(client);
      await client.query("COMMIT");
      return result;
    } finally {
      await client.end().catch(() => {}); // ending the session ends an open transaction and its lock
    }
  }

  /**
   * Creates the queues of `policies` (no-op for those that exist: ON CONFLICT DO NOTHING) and, with
   * `apply`, (re)applies their retry policy — all under QUEUE_LOCK.
   */
  private async setUpQueues(policies: Policy[], apply: boolean): Promise<void> {
    await this.started;
    await this.underQueueLock(async () => {
      for (const def of policies) {
        const opts = queueOptions(def);
        await this.boss.createQueue(def.name, opts);
        if (apply) await this.boss.updateQueue(def.name, opts);
      }
    });
  }

  /**
   * Creates the queue once per process; with a definition, (re)applies its retry policy. Without
   * one (a process that only enqueues) a new queue gets JOB_DEFAULTS until a worker starts.
   */
  private ensureQueue(name: string, def: Policy | undefined): Promise<void> {
    let ready = this.queues.get(name);
    if (!ready) {
      ready = this.setUpQueues([def ?? { name, ...JOB_DEFAULTS }], def !== undefined);
      ready.catch(() => this.queues.delete(name));
      this.queues.set(name, ready);
    }
    return ready;
  }

  /**
   * With `tx`, pg-boss's insert runs through it (send's `db` option, pg-boss 10 manager.js
   * createJob), so the job commits with the transaction. The queue is created first, outside it,
   * on pg-boss's pool (a queue without jobs is harmless).
   */
  async enqueue(
    def: Policy | undefined,
    name: string,
    payload: unknown,
    opts: { singletonKey?: string; runAt?: Date },
    tx?: TxSql,
  ): Promise<string | null> {
    await this.ensureQueue(name, def);
    const id = await this.boss.send(name, payload as object, {
      singletonKey: opts.singletonKey ?? `unique:${randomUUID()}`,
      startAfter: opts.runAt,
      ...(tx ? { db: txDb(tx) } : {}),
    });
    if (id && !tx) this.wake(name);
    return id;
  }

  wake(name: string): void {
    for (const workerId of this.workerIds.get(name) ?? []) this.boss.notifyWorker(workerId);
  }

  async getJob(name: string, id: string): Promise<JobInfo | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null; // ids are uuids
    await this.started;
    const job = await this.boss.getJobById(name, id, { includeArchive: true });
    if (!job) return null;
    const output = job.output as { message?: unknown } | null | undefined;
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `SELECT "attempt", "worker", "startedAt", "finishedAt", "outcome" FROM "_svc_job_runs" WHERE "jobId" = $1 ORDER BY "attempt"`,
        [job.id],
      );
    return {
      id: job.id,
      name: job.name,
      state: job.state,
      // pg-boss counts retry_count up on each fetch after the first (plans.js fetchNextJob)
      attempts: job.startedOn ? job.retryCount + 1 : 0,
      // output holds the serialized error of the last failed run, the handler's result once completed
      lastError: job.state !== "completed" && typeof output?.message === "string" ? output.message : null,
      runAt: job.startAfter,
      runs: (rows as { attempt: number; worker: string; startedAt: Date; finishedAt: Date | null; outcome: JobRun["outcome"] }[]).map(
        (r) => ({ attempt: r.attempt, worker: r.worker, startedAt: r.startedAt, finishedAt: r.finishedAt, outcome: r.outcome }),
      ),
    };
  }

  async queueDepth(): Promise<QueueDepth[]> {
    await this.started;
    // pg-boss's job_state enum is ordered created < retry < active < completed < cancelled < failed.
    // Reads the job table's partitions, which hold finished jobs until pg-boss archives them (12 h by
    // default), as pg-boss's own countStates does.
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `SELECT name, state::text AS state, count(*)::int AS n FROM pgboss.job WHERE state < 'completed' GROUP BY name, state`,
        [],
      );
    return (rows as { name: string; state: QueueDepth["state"]; n: number }[]).map((r) => ({ name: r.name, state: r.state, count: r.n }));
  }

  async startWorker(defs: JobDefinition[], settings: WorkerSettings): Promise<void> {
    await this.started;
    for (const def of defs) this.queues.set(def.name, Promise.resolve());
    await this.setUpQueues(defs, true).catch((err) => {
      for (const def of defs) this.queues.delete(def.name);
      throw err;
    });
    for (const def of defs) {
      const ids: string[] = [];
      for (let i = 0; i < settings.concurrency; i++) {
        ids.push(
          await this.boss.work(
            def.name,
            { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: Math.max(0.5, settings.pollIntervalMs / 1000) },
            async ([job]) => this.run(def, job, settings.leaseMs),
          ),
        );
      }
      this.workerIds.set(def.name, ids);
    }
    this.startReaper(settings.leaseMs);
  }

  /** One run of `job`: its run row, the lease renewed while the handler runs, the outcome. */
  private async run(def: JobDefinition, job: PgBoss.JobWithMetadata<unknown>, leaseMs: number): Promise<void> {
    const db = this.boss.getDb();
    const attempt = job.retryCount + 1;
    await db
      .executeSql(
        `INSERT INTO "_svc_job_runs" ("jobId", "attempt", "name", "worker", "startedAt", "leaseUntil", "outcome")
         VALUES ($1, $2, $3, $4, now(), now() + $5 * interval '1 millisecond', 'running') ON CONFLICT DO NOTHING`,
        [job.id, attempt, def.name, jobProcessId(), leaseMs],
      )
      .catch((err) => console.error(`svc: jobs: ${def.name} ${job.id}: cannot record the run:`, err));
    const renewal = setInterval(() => {
      db.executeSql(
        `UPDATE "_svc_job_runs" SET "leaseUntil" = now() + $3 * interval '1 millisecond'
         WHERE "jobId" = $1 AND "attempt" = $2 AND "finishedAt" IS NULL RETURNING 1`,
        [job.id, attempt, leaseMs],
      ).then(
        (r) => {
          if (r.rows.length !== 0) return;
          this.stopRenewal(renewal);
          console.error(`svc: jobs: ${def.name} ${job.id}: lease lost (attempt ${attempt} was given to another run)`);
        },
        (err) => console.error(`svc: jobs: ${def.name} ${job.id}: cannot renew the lease:`, err),
      );
    }, renewEveryMs(leaseMs));
    renewal.unref();
    this.renewals.add(renewal);
    const finish = (outcome: "completed" | "failed") =>
      db
        .executeSql(
          `UPDATE "_svc_job_runs" SET "outcome" = $3, "finishedAt" = now() WHERE "jobId" = $1 AND "attempt" = $2 AND "finishedAt" IS NULL`,
          [job.id, attempt, outcome],
        )
        .catch((err) => console.error(`svc: jobs: ${def.name} ${job.id}: cannot record the run's end:`, err));
    try {
      await def.handler(job.data);
    } catch (err) {
      this.stopRenewal(renewal);
      await finish("failed");
      if (job.retryCount >= job.retryLimit) console.error(`svc: jobs: ${def.name} ${job.id} failed after ${attempt} attempts:`, err);
      throw new Error(errorText(err)); // pg-boss stores it as the job's output
    }
    this.stopRenewal(renewal);
    await finish("completed");
  }

  private stopRenewal(timer: NodeJS.Timeout): void {
    clearInterval(timer);
    this.renewals.delete(timer);
  }

  /** Every leaseMs/2: reap runs whose lease lapsed; about every 10 minutes also delete old run rows. */
  private startReaper(leaseMs: number): void {
    if (this.reaper) return;
    let ticks = 0;
    let busy = false;
    const everyMs = Math.max(100, Math.floor(leaseMs / 2));
    this.reaper = setInterval(() => {
      if (busy) return;
      busy = true;
      ticks++;
      this.reap(leaseMs, ticks % 4 === 0, ticks % Math.max(1, Math.round(600_000 / everyMs)) === 0)
        .catch((err) => console.error("svc: jobs: cannot look for runs whose lease lapsed:", err))
        .finally(() => (busy = false));
    }, everyMs);
    this.reaper.unref();
  }

  /**
   * Ends runs whose lease lapsed as `lost` and fails their jobs (pg-boss retries them after their
   * backoff, or fails them for good when out of retries). With `orphans`, also active jobs with no
   * run row for their attempt that started over two leases ago (their process died between
   * pg-boss's fetch and the row's insert). A job that moved on between the UPDATE and the fail
   * (its process recorded it in that instant) is left as it is: fail only touches unfinished jobs.
   */
  private async reap(leaseMs: number, orphans: boolean, prune: boolean): Promise<void> {
    const db = this.boss.getDb();
    type Lost = { jobId: string; name: string; worker: string };
    const { rows } = await db.executeSql(
      `WITH lost AS (
         UPDATE "_svc_job_runs" SET "outcome" = 'lost', "finishedAt" = now()
         WHERE "finishedAt" IS NULL AND "leaseUntil" < now()
         RETURNING "jobId", "name", "attempt", "worker")
       SELECT lost."jobId", lost."name", lost."worker" FROM lost
         JOIN pgboss.job j ON j.name = lost."name" AND j.id = lost."jobId"::uuid AND j.state = 'active' AND j.retry_count + 1 = lost."attempt"`,
      [],
    );
    const lost = [...(rows as Lost[])];
    if (orphans) {
      const found = await db.executeSql(
        `INSERT INTO "_svc_job_runs" ("jobId", "attempt", "name", "worker", "startedAt", "leaseUntil", "finishedAt", "outcome")
         SELECT j.id::text, j.retry_count + 1, j.name, 'unknown', j.started_on, j.started_on, now(), 'lost' FROM pgboss.job j
         WHERE j.state = 'active' AND j.started_on < now() - $1 * interval '1 millisecond'
         ON CONFLICT DO NOTHING RETURNING "jobId", "name", "worker"`,
        [2 * leaseMs],
      );
      lost.push(...(found.rows as Lost[]));
    }
    for (const run of lost)
      await this.boss.fail(run.name, run.jobId, { message: `lease lapsed: its process (${run.worker}) stopped renewing it` });
    if (prune) await db.executeSql(`DELETE FROM "_svc_job_runs" WHERE "finishedAt" < now() - interval '${KEEP_RUNS_DAYS} days'`, []);
  }

  /**
   * pg-boss's graceful stop: no new fetches; waits until every worker loop has ended (a fetch in
   * flight and its handler included) for up to `graceMs`, then marks jobs still running as failed
   * (they are retried after their backoff) and closes the pool. The store is not usable afterwards.
   * Bounded whatever the database does: a start still running after START_WAIT_MS is stopped as
   * it is, and a stop not done STOP_EXTRA_MS after `graceMs` (its pool waiting for a connection
   * that does not come back) is left behind with a log line naming the step; the process goes on.
   */
  async stopWorker(graceMs = STOP_GRACE_MS): Promise<void> {
    this.workerIds.clear();
    clearInterval(this.reaper);
    this.reaper = undefined;
    if (!(await settledWithin(this.started, START_WAIT_MS)))
      console.error(`svc: jobs: pg-boss was still starting ${START_WAIT_MS / 1000} s into the stop; stopping it as it is`);
    const stopped = this.boss.stop({ graceful: true, wait: true, close: true, timeout: graceMs });
    stopped.catch((e: unknown) => console.error("svc: jobs: stopping pg-boss failed", e));
    if (!(await settledWithin(stopped, graceMs + STOP_EXTRA_MS)))
      console.error(
        `svc: jobs: pg-boss did not stop within ${(graceMs + STOP_EXTRA_MS) / 1000} s (a pool connection still busy); going on`,
      );
    for (const timer of this.renewals) clearInterval(timer); // the pool is closed: runs still going lose their lease
    this.renewals.clear();
  }

  async close(): Promise<void> {
    await this.stopWorker();
  }
}
