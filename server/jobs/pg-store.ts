/**
 * PostgreSQL job store: pg-boss 10 (MIT; Node ≥ 20; deps: pg, cron-parser, serialize-error) in its
 * own schema `pgboss` of svc's database (DATABASE_URL), on its own small pool (SVC_JOB_POOL_MAX,
 * default 4). pg-boss creates and migrates that schema itself on start, under an advisory lock
 * (transaction-scoped: pg_advisory_xact_lock), so several svc processes may start at once, also
 * through PgBouncer in transaction mode (it runs unnamed statements and never LISTENs). Fetching
 * takes jobs with `SELECT … FOR UPDATE SKIP LOCKED` and marks them active in the same statement,
 * so two processes never fetch the same job (pgboss.io, "Introduction").
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
import PgBoss from "pg-boss";
import type { JobDefinition, JobInfo, JobStore, QueueDepth, WorkerSettings } from "./store";
import { errorText, JOB_DEFAULTS, STOP_GRACE_MS } from "./store";

type Policy = Omit<JobDefinition, "handler">;

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

export class PgBossStore implements JobStore {
  private readonly boss: PgBoss;
  /** Resolves once pg-boss has connected and created or migrated its schema; rejects when it cannot. */
  readonly started: Promise<unknown>;
  private readonly queues = new Map<string, Promise<void>>();
  private readonly workerIds = new Map<string, string[]>();

  /** `max`: most connections of pg-boss's pool (SVC_JOB_POOL_MAX, config.ts postgresPoolSizesFromEnv). */
  constructor(connectionString: string, max = 4) {
    this.boss = new PgBoss({
      connectionString,
      application_name: "svc-jobs",
      max,
      schedule: false, // no cron jobs: skip the clock monitor
    });
    this.boss.on("error", (err) => console.error("svc: jobs (pg-boss):", err));
    this.started = this.boss.start();
    this.started.catch(() => {}); // awaited by index.ts store(), which reports the failure
  }

  /**
   * Creates the queue once per process; with a definition, (re)applies its retry policy. Without
   * one (a process that only enqueues) a new queue gets JOB_DEFAULTS until a worker starts.
   */
  private ensureQueue(name: string, def: Policy | undefined): Promise<void> {
    let ready = this.queues.get(name);
    if (!ready) {
      ready = (async () => {
        await this.started;
        const opts = queueOptions(def ?? { name, ...JOB_DEFAULTS });
        await this.boss.createQueue(name, opts); // no-op when it exists (ON CONFLICT DO NOTHING)
        if (def) await this.boss.updateQueue(name, opts);
      })();
      ready.catch(() => this.queues.delete(name));
      this.queues.set(name, ready);
    }
    return ready;
  }

  async enqueue(
    def: Policy | undefined,
    name: string,
    payload: unknown,
    opts: { singletonKey?: string; runAt?: Date },
  ): Promise<string | null> {
    await this.ensureQueue(name, def);
    const id = await this.boss.send(name, payload as object, {
      singletonKey: opts.singletonKey ?? `unique:${randomUUID()}`,
      startAfter: opts.runAt,
    });
    if (id) for (const workerId of this.workerIds.get(name) ?? []) this.boss.notifyWorker(workerId);
    return id;
  }

  async getJob(name: string, id: string): Promise<JobInfo | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null; // ids are uuids
    await this.started;
    const job = await this.boss.getJobById(name, id, { includeArchive: true });
    if (!job) return null;
    const output = job.output as { message?: unknown } | null | undefined;
    return {
      id: job.id,
      name: job.name,
      state: job.state,
      // pg-boss counts retry_count up on each fetch after the first (plans.js fetchNextJob)
      attempts: job.startedOn ? job.retryCount + 1 : 0,
      // output holds the serialized error of the last failed run, the handler's result once completed
      lastError: job.state !== "completed" && typeof output?.message === "string" ? output.message : null,
      runAt: job.startAfter,
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
    for (const def of defs) {
      this.queues.delete(def.name); // re-apply the definition's policy
      await this.ensureQueue(def.name, def);
      const ids: string[] = [];
      for (let i = 0; i < settings.concurrency; i++) {
        ids.push(
          await this.boss.work(
            def.name,
            { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: Math.max(0.5, settings.pollIntervalMs / 1000) },
            async ([job]) => {
              try {
                await def.handler(job.data);
              } catch (err) {
                if (job.retryCount >= job.retryLimit)
                  console.error(`svc: jobs: ${def.name} ${job.id} failed after ${job.retryCount + 1} attempts:`, err);
                throw new Error(errorText(err)); // pg-boss stores it as the job's output
              }
            },
          ),
        );
      }
      this.workerIds.set(def.name, ids);
    }
  }

  /**
   * pg-boss's graceful stop: no new fetches; waits until every worker loop has ended (a fetch in
   * flight and its handler included) for up to `graceMs`, then marks jobs still running as failed
   * (they are retried after their backoff) and closes the pool. The store is not usable afterwards.
   */
  async stopWorker(graceMs = STOP_GRACE_MS): Promise<void> {
    this.workerIds.clear();
    await this.started.catch(() => {});
    await this.boss.stop({ graceful: true, wait: true, close: true, timeout: graceMs });
  }

  async close(): Promise<void> {
    await this.stopWorker();
  }
}
