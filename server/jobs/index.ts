/**
 * svc's durable background jobs (docs/architecture.md "Background jobs").
 * One interface over two stores, chosen by the database svc uses (getConfig().provider): pg-boss
 * in the `pgboss` schema on PostgreSQL, the `_svc_jobs` table on SQLite, both in svc's own
 * database (DATABASE_URL, else DATA_DIR/svc.db). Jobs survive restarts, retry with exponential
 * backoff (backoff.ts), and a job is claimed by one worker only, also across processes.
 *
 *   defineJob(REFRESH_MERGEABILITY, async ({ prId }) => refreshMergeability(prId), { retries: 3 });
 *   await enqueue(REFRESH_MERGEABILITY, { prId }, { singletonKey: prId });
 *   await inTransaction(db, async (tx) => { …; await enqueue(NOTIFY_FAN_OUT, { event }, { tx }); });  // written with the change
 *   await startJobWorker();   // the server does this (instrumentation.ts)
 *
 * Delivery is at least once: a handler that outlives its `timeoutMs`, or whose process dies (its
 * lease, `leaseMs`, is no longer renewed), runs again, so handlers must be idempotent (recompute
 * from current state, as mergeability does). Every run is recorded with the process that ran it
 * (`getJob(...).runs`).
 */
import { getConfig, postgresPoolSizesFromEnv } from "@/server/config";
import type { Db } from "@/server/db";
import { afterCommit } from "@/server/db/after-commit";
import type { Tx } from "@/server/db/transaction";
import type { PayloadOf } from "./names";
import type { JobDefinition, JobInfo, JobStore, QueueDepth } from "./store";
import { JOB_DEFAULTS } from "./store";

export type { JobInfo, JobRun, QueueDepth } from "./store";
export { jobProcessId } from "./store";
export type { JobName, JobPayloads, PayloadOf } from "./names";

export interface JobOptions {
  /** Further attempts after a failed run (0–100). Default 3. */
  retries?: number;
  /** Base retry delay in ms: the k-th retry waits between backoffMs·2^(k−1) and backoffMs·2^k (0–3 600 000). Default 5 000. On PostgreSQL it is rounded to whole seconds. */
  backoffMs?: number;
  /** A run still going after this many ms counts as hung: the job becomes due again, even while its process renews the lease (1 000–86 400 000). Default 900 000 (15 min). */
  timeoutMs?: number;
}

export interface EnqueueOptions {
  /** While a job of this name with this key is waiting for its first run, another enqueue with the key is dropped (returns null). A running or retrying job does not block a new one. */
  singletonKey?: string;
  /** Not before this time (default: now). */
  runAt?: Date;
  /**
   * The client of the change that makes the job necessary: a transaction client (`inTransaction`'s
   * `tx`) writes the job in that transaction (the transactional outbox: it exists iff the change
   * commits), the root client is the same as leaving it out. See `enqueue`.
   */
  tx?: Db | Tx;
}

export interface WorkerOptions {
  /** Jobs of one name this process runs at the same time (0–64). Default: SVC_JOB_CONCURRENCY, else 2; 0 = this process runs no jobs. */
  concurrency?: number;
  /** How often (ms) an idle worker polls for due jobs (PostgreSQL: at least 500). Default 2 000. Enqueues in the same process wake it at once. */
  pollIntervalMs?: number;
  /**
   * A running job's lease in ms (1 000–600 000), renewed every third of it while the handler runs:
   * when its process dies the job runs again about a lease later (PostgreSQL: up to 1.5 leases,
   * plus the retry backoff), not after `timeoutMs`. Default: SVC_JOB_LEASE_MS, else 30 000.
   */
  leaseMs?: number;
}

const DEFAULTS = JOB_DEFAULTS;

interface JobsState {
  defs: Map<string, JobDefinition>;
  store?: { url: string; store: Promise<JobStore> };
  working: boolean;
  /** What became of this process's worker (jobWorkerState); unset = never started. */
  worker?: { state: JobWorkerState; concurrency: number };
  /** The running superviseJobWorker call (a token: stopJobWorker clears it, which ends the retries). */
  supervision?: object;
  retryTimer?: NodeJS.Timeout;
  /** Failed starts since the process began (superviseJobWorker and startJobWorker). */
  startFailures: number;
}

/**
 * A process's job worker: `stopped` (never started, or stopJobWorker), `off` (started with
 * concurrency 0: another process runs the jobs), `starting`, `running`, `failed` (the last start
 * failed; in the server superviseJobWorker logs it and tries again with backoff).
 */
export type JobWorkerState = "stopped" | "off" | "starting" | "running" | "failed";
// one registry per process, also when Next loads this module in several bundles
const state = globalThis as unknown as { __svcJobs?: JobsState };
const jobs: JobsState = (state.__svcJobs ??= { defs: new Map(), working: false, startFailures: 0 });

function bounded(label: string, v: number | undefined, min: number, max: number, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < min || v > max) throw new RangeError(`${label} must be an integer from ${min} to ${max} (got ${v})`);
  return v;
}

async function openStore(provider: "sqlite" | "postgresql", url: string): Promise<JobStore> {
  if (provider === "sqlite") return new (await import("./sqlite-store")).SqliteStore();
  const pgStore = new (await import("./pg-store")).PgBossStore(url, postgresPoolSizesFromEnv().jobs);
  await pgStore.started;
  return pgStore;
}

/** This process's store for the configured database, opened on first use (not kept when opening fails). */
async function store(): Promise<JobStore> {
  const config = getConfig();
  if (jobs.store?.url === config.databaseUrl) return jobs.store.store;
  if (jobs.store) await stopJobWorker();
  const opened = openStore(config.provider, config.databaseUrl);
  jobs.store = { url: config.databaseUrl, store: opened };
  opened.catch(() => {
    if (jobs.store?.store === opened) jobs.store = undefined;
  });
  return opened;
}

/**
 * Registers the handler for job `name` in this process (a second call replaces the first). The
 * handler gets the payload as enqueued (JSON round trip); it fails the run by throwing.
 * Register before `startJobWorker`; workers run only names registered when they start.
 * @throws RangeError for options outside their bounds (see JobOptions)
 */
export function defineJob<N extends string>(name: N, handler: (payload: PayloadOf<N>) => Promise<void>, opts: JobOptions = {}): void {
  if (!/^[\w.-]{1,100}$/.test(name)) throw new RangeError(`job name must be 1–100 letters, digits, '_', '.', '-' (got "${name}")`);
  jobs.defs.set(name, {
    name,
    handler: handler as (payload: unknown) => Promise<void>,
    retries: bounded("retries", opts.retries, 0, 100, DEFAULTS.retries),
    backoffMs: bounded("backoffMs", opts.backoffMs, 0, 3_600_000, DEFAULTS.backoffMs),
    timeoutMs: bounded("timeoutMs", opts.timeoutMs, 1_000, 86_400_000, DEFAULTS.timeoutMs),
  });
}

/**
 * Stores a job to run `name` with `payload` (JSON-serializable) in svc's database; any svc process
 * with a worker for `name` runs it. Works without a running worker (the job waits for one).
 * Resolves to the job id, or null when `singletonKey` matched a job still waiting for its first run.
 *
 * Where the job is written (docs/architecture.md "Background jobs", "Jobs written with the change"):
 * - `opts.tx` a transaction client: in that transaction, so the job exists iff the change commits
 *   (a process killed after the commit loses nothing; a rollback leaves no job). This process's
 *   worker is woken once it commits (afterCommit); a lost wake-up waits one poll interval. While
 *   the transaction is open, another enqueue with the same `singletonKey` on PostgreSQL waits for
 *   it (then returns null, or inserts when it rolled back).
 * - no `opts.tx`, or the root client: at once, on its own; this process's worker is woken at once.
 *   Then call it after the transaction that made the job necessary has committed, never inside a
 *   `db.$transaction` callback without passing its client: on SQLite it would wait for the
 *   connection lock that transaction holds (serialized-sqlite.ts) until the transaction times out.
 * `tx` must be a transaction of svc's database (getDb), which holds the queue.
 * @throws database errors (the job was not stored; with `tx`, the transaction is then aborted on
 *   PostgreSQL — let the error roll it back)
 */
export async function enqueue<N extends string>(name: N, payload: PayloadOf<N>, opts: EnqueueOptions = {}): Promise<string | null> {
  const { tx, ...options } = opts;
  const def = jobs.defs.get(name);
  const policy = def && { name, retries: def.retries, backoffMs: def.backoffMs, timeoutMs: def.timeoutMs };
  const s = await store();
  if (!tx || isRootClient(tx)) return s.enqueue(policy, name, payload, options);
  const id = await s.enqueue(policy, name, payload, options, {
    query: <R>(sql: string, values: unknown[]) => tx.$queryRawUnsafe<R[]>(sql, ...values),
    execute: (sql: string, values: unknown[]) => tx.$executeRawUnsafe(sql, ...values),
  });
  if (id) afterCommit(tx, () => s.wake(name));
  return id;
}

/** The root client has `$transaction`; a transaction client (Prisma.TransactionClient) has not. */
function isRootClient(client: Db | Tx): client is Db {
  return typeof (client as Partial<Db>).$transaction === "function";
}

/** What the store knows of job `id` of `name` (state, attempts, last error), or null. */
export async function getJob(name: string, id: string): Promise<JobInfo | null> {
  return (await store()).getJob(name, id);
}

/** SVC_JOB_LEASE_MS (1 000–600 000), else 30 000: a dead process's job runs again within about a minute. */
export function jobLeaseMsFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env.SVC_JOB_LEASE_MS?.trim();
  const n = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  return n >= 1_000 && n <= 600_000 ? n : 30_000;
}

/** SVC_JOB_CONCURRENCY (0–64), else 2. */
export function jobConcurrencyFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env.SVC_JOB_CONCURRENCY?.trim();
  const n = raw && /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
  return n >= 0 && n <= 64 ? n : 2;
}

/**
 * Starts running the jobs registered with defineJob in this process (no-op when already running
 * or when concurrency is 0). Jobs left by an earlier run of svc are picked up.
 * @throws RangeError for options outside their bounds; database errors
 */
export async function startJobWorker(opts: WorkerOptions = {}): Promise<void> {
  const concurrency = bounded("concurrency", opts.concurrency, 0, 64, jobConcurrencyFromEnv());
  const pollIntervalMs = bounded("pollIntervalMs", opts.pollIntervalMs, 50, 600_000, 2_000);
  const leaseMs = bounded("leaseMs", opts.leaseMs, 1_000, 600_000, jobLeaseMsFromEnv());
  if (jobs.working) return;
  if (concurrency === 0) {
    jobs.worker = { state: "off", concurrency };
    return;
  }
  jobs.working = true;
  jobs.worker = { state: "starting", concurrency };
  try {
    await (await store()).startWorker([...jobs.defs.values()], { concurrency, pollIntervalMs, leaseMs });
    if (jobs.working) jobs.worker = { state: "running", concurrency };
  } catch (err) {
    jobs.working = false;
    jobs.worker = { state: "failed", concurrency };
    jobs.startFailures++;
    throw err;
  }
}

export interface SuperviseOptions {
  /** Wait before the first retry in ms; each further retry waits twice as long, jittered ±50 %. Default 1 000. */
  firstRetryMs?: number;
  /** Longest wait between retries in ms. Default 60 000. */
  maxRetryMs?: number;
  /** Runs once the worker runs (the server queues its daily sweep here); a throw is logged. */
  onRunning?: () => Promise<void>;
}

/**
 * startJobWorker, retried until it runs: a start the database refuses (unreachable, a deadlock, a
 * missing permission) is logged and tried again after firstRetryMs, 2·firstRetryMs, … up to
 * maxRetryMs, until it runs or stopJobWorker is called. Meanwhile jobWorkerState() is `failed`
 * (and the process not ready: server/http/health.ts). Resolves after the first attempt: true
 * when the worker runs, false when a retry is scheduled (or concurrency is 0: false, state `off`).
 * @throws RangeError for options outside their bounds (never retried)
 */
export async function superviseJobWorker(opts: WorkerOptions = {}, supervise: SuperviseOptions = {}): Promise<boolean> {
  const firstRetryMs = supervise.firstRetryMs ?? 1_000;
  const maxRetryMs = supervise.maxRetryMs ?? 60_000;
  const token = {};
  jobs.supervision = token;
  clearTimeout(jobs.retryTimer);
  const attempt = async (retry: number): Promise<boolean> => {
    try {
      await startJobWorker(opts);
    } catch (err) {
      if (err instanceof RangeError) throw err;
      if (jobs.supervision !== token) return false;
      const waitMs = Math.round(Math.min(maxRetryMs, firstRetryMs * 2 ** Math.min(retry, 30)) * (0.5 + Math.random()));
      console.error(`svc: background jobs did not start (attempt ${retry + 1}; next try in ${(waitMs / 1000).toFixed(1)} s):`, err);
      jobs.retryTimer = setTimeout(() => {
        if (jobs.supervision === token) void attempt(retry + 1);
      }, waitMs);
      jobs.retryTimer.unref();
      return false;
    }
    if (jobs.supervision === token && jobWorkerState().state === "running")
      await supervise.onRunning?.().catch((err) => console.error("svc: background jobs: after the start:", err));
    return jobWorkerState().state === "running";
  };
  return attempt(0);
}

/**
 * Stops taking jobs, waits for the jobs this process is running to finish and be recorded (up to
 * 30 s; a job still running then is retried later: PostgreSQL marks it failed at once, SQLite when
 * its lease lapses) and releases the store's connections. A later enqueue or startJobWorker opens
 * them again. Also ends superviseJobWorker's retries. Safe to call when no worker runs.
 */
export async function stopJobWorker(): Promise<void> {
  jobs.supervision = undefined;
  clearTimeout(jobs.retryTimer);
  jobs.working = false;
  jobs.worker = { state: "stopped", concurrency: 0 };
  const current = jobs.store;
  jobs.store = undefined;
  await (await current?.store.catch(() => undefined))?.close();
}

/**
 * This process's job worker (JobWorkerState), the jobs of one name it runs at once, and how many
 * starts failed so far: the metrics endpoint's `svc_job_worker_state` and
 * `svc_job_worker_start_failures_total`, and the readiness check's `jobs:worker` (server/http/health.ts).
 */
export function jobWorkerState(): { state: JobWorkerState; concurrency: number; startFailures: number } {
  return { ...(jobs.worker ?? { state: "stopped", concurrency: 0 }), startFailures: jobs.startFailures };
}

/**
 * Unfinished jobs per name and state (created, retry, active) in svc's database, all processes
 * together: one query, for the metrics endpoint at scrape time. Opens the store when this process
 * has not yet. @throws database errors
 */
export async function jobQueueDepth(): Promise<QueueDepth[]> {
  return (await store()).queueDepth();
}

/** The same as stopJobWorker; the name for processes that only enqueue (server shutdown, CLI, tests). */
export const closeJobs = stopJobWorker;
