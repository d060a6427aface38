import { hostname } from "node:os";

/**
 * What server/jobs/index.ts needs from a database-specific job store: pg-boss on PostgreSQL
 * (./pg-store.ts), svc's own table on SQLite (./sqlite-store.ts). Not imported outside server/jobs.
 */

/** A registered job: its handler and the retry policy the worker applies (index.ts `defineJob`). */
export interface JobDefinition {
  name: string;
  handler: (payload: unknown) => Promise<void>;
  /** Further attempts after the first failure (0 = run once). */
  retries: number;
  /** Base retry delay in ms (backoff.ts). */
  backoffMs: number;
  /** A run still going after this many ms counts as hung and is retried, even while its process renews the lease. */
  timeoutMs: number;
}

/** Retry policy of a job name without a definition in this process, and the defaults of defineJob. */
export const JOB_DEFAULTS = { retries: 3, backoffMs: 5_000, timeoutMs: 15 * 60_000 } as const;

/** How long (ms) stopping waits for running jobs before leaving them to be retried. */
export const STOP_GRACE_MS = 30_000;

/** What a store knows of one job (index.ts `getJob`). */
export interface JobInfo {
  id: string;
  name: string;
  state: "created" | "retry" | "active" | "completed" | "failed" | "cancelled";
  /** Runs started so far. */
  attempts: number;
  /** Message of the last failure, or null. */
  lastError: string | null;
  /** When the job is (or was) due: the enqueue's runAt, or after a failure the retry time. */
  runAt: Date;
  /** Its runs so far, first attempt first (table `_svc_job_runs`; kept 14 days after they end). */
  runs: JobRun[];
}

/** One attempt at a job: which process ran it and how it ended. */
export interface JobRun {
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
  /** The process that ran it: `<hostname>:<pid>` (jobProcessId). */
  worker: string;
  startedAt: Date;
  /** null while it runs. */
  finishedAt: Date | null;
  /** `lost`: its process stopped renewing the lease (died, or stalled longer than the lease) and the job was given to another run. */
  outcome: "running" | "completed" | "failed" | "lost";
}

/**
 * This process as job runs record it: `<hostname>:<pid>` (os.hostname(), process.pid), the two
 * things an operator needs to find the process (container name or host, then the pid).
 */
export function jobProcessId(): string {
  return `${hostname()}:${process.pid}`;
}

/** How often (ms) a running job renews its lease: a third of the lease, so two renewals may fail before it lapses. */
export const renewEveryMs = (leaseMs: number) => Math.max(100, Math.floor(leaseMs / 3));

/** Unfinished jobs of one name in one state (index.ts `jobQueueDepth`). */
export interface QueueDepth {
  name: string;
  /** `created`: waiting for its first run (also when scheduled later); `retry`: waiting for a retry; `active`: running. */
  state: "created" | "retry" | "active";
  count: number;
}

export interface WorkerSettings {
  /** Jobs of one name this process runs at the same time. */
  concurrency: number;
  /** How often (ms) an idle worker looks for due jobs; enqueues in the same process wake it at once. */
  pollIntervalMs: number;
  /**
   * A running job's lease (ms): its process renews it every leaseMs/3; once it lapses (the process
   * died or stalled) the job is given to another run, within about a lease, not after timeoutMs.
   */
  leaseMs: number;
}

/**
 * A raw-SQL handle on an open transaction of svc's database (index.ts builds it from a Prisma
 * transaction client): the store writes the job with it, so the job commits or rolls back with
 * the transaction. Placeholders are the database's own (`?` on SQLite, `$1` on PostgreSQL).
 */
export interface TxSql {
  query<R>(sql: string, values: unknown[]): Promise<R[]>;
  execute(sql: string, values: unknown[]): Promise<number>;
}

export interface JobStore {
  /**
   * Stores a job; resolves to its id, or null when `singletonKey` matched a job not yet started.
   * Without `tx` the job is written at once and this process's idle workers of `name` are woken;
   * with `tx` it is written in that transaction and nobody is woken (the caller calls `wake`
   * after the commit).
   */
  enqueue(
    def: Omit<JobDefinition, "handler"> | undefined,
    name: string,
    payload: unknown,
    opts: { singletonKey?: string; runAt?: Date },
    tx?: TxSql,
  ): Promise<string | null>;
  /** Wakes this process's idle workers of `name` (no-op when none runs). */
  wake(name: string): void;
  getJob(name: string, id: string): Promise<JobInfo | null>;
  /** Unfinished jobs per name and state, all processes together; names and states without jobs are left out. One query. */
  queueDepth(): Promise<QueueDepth[]>;
  /** Starts polling for jobs of the given definitions and runs their handlers (a throw = a failed run). */
  startWorker(defs: JobDefinition[], settings: WorkerSettings): Promise<void>;
  /** Stops polling and resolves once no job of this process is running, or after STOP_GRACE_MS (those jobs are retried later). */
  stopWorker(): Promise<void>;
  /** stopWorker, then releases connections; the store is not used again. */
  close(): Promise<void>;
}

/** The message kept for a failed run: the error's message (or its text), at most 2 000 characters. */
export function errorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > 2000 ? text.slice(0, 2000) + "…" : text;
}
