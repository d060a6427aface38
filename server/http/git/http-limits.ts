/**
 * The limits of git smart HTTP and raw-file downloads (docs/git-http.md "Limits"). One object read at
 * request time by smart-http.ts, request-body.ts and process-gate.ts; tests change it with
 * `setGitHttpLimits` and restore it with `resetGitHttpLimits`. Read from the environment: only
 * `SVC_GIT_MAX_PROCESSES_SHARED` (maxProcessesShared), once.
 */
import os from "node:os";

export interface GitHttpLimits {
  /** Git processes run at once for smart HTTP, all clients together (default 2 × CPUs + 2). */
  maxProcesses: number;
  /** Git processes run at once for one client: a user id, else an IP address (default CPUs + 1). */
  maxPerClient: number;
  /**
   * Git processes run at once by all svc processes sharing REDIS_URL together (counted in Redis:
   * process-gate.ts). Default maxProcesses: processes on one machine share its cores; set
   * SVC_GIT_MAX_PROCESSES_SHARED when they run on several machines. The per-client cap
   * (maxPerClient) holds across processes as well.
   */
  maxProcessesShared: number;
  /** How long a request waits in the FIFO queue for a slot before it is answered 503 (ms). */
  queueWaitMs: number;
  /** The same for a push (git-receive-pack, its ref advertisement included): git does not retry a 503 (ms). */
  pushQueueWaitMs: number;
  /** Requests waiting at once, all clients together; more are answered 503 at once. */
  maxQueued: number;
  /** Requests one client may have waiting at once; more are answered 503 at once. */
  maxQueuedPerClient: number;
  /** The same for pushes (a client's pushes wait in a queue of their own size; maxQueued still bounds all). */
  maxQueuedPushesPerClient: number;
  /** `Retry-After` of a 503 (seconds). */
  retryAfterS: number;
  /** Largest upload-pack request body after gunzip (bytes); larger is 413 (or git is stopped). */
  maxUploadPackBytes: number;
  /** Time waiting for the next request-body byte before the upload counts as stalled (ms): 408. */
  uploadIdleMs: number;
  /** A git process that moves no byte in either direction for this long is stopped (ms). */
  processIdleMs: number;
  /** Grace between SIGTERM and SIGKILL when svc stops git (ms). */
  killGraceMs: number;
  /** A raw-file download whose client reads nothing for this long is ended and its git stopped (ms). */
  downloadIdleMs: number;
  /** Request-body bytes still read and dropped after svc answered early (413, 408, git exited), so the client can read the answer; then the connection is closed. */
  drainBytes: number;
}

const cpus = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;

/** SVC_GIT_MAX_PROCESSES_SHARED when it is a whole number 1–100000, else `fallback`. */
export function sharedProcessCap(env: Record<string, string | undefined>, fallback: number): number {
  const raw = env.SVC_GIT_MAX_PROCESSES_SHARED?.trim();
  const n = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  return n >= 1 && n <= 100_000 ? n : fallback;
}

/** The defaults; see GitHttpLimits for the meaning of each. */
export const DEFAULT_GIT_HTTP_LIMITS: Readonly<GitHttpLimits> = Object.freeze({
  maxProcesses: 2 * cpus + 2,
  maxPerClient: cpus + 1,
  maxProcessesShared: sharedProcessCap(process.env, 2 * cpus + 2),
  queueWaitMs: 10_000,
  pushQueueWaitMs: 20_000,
  maxQueued: 8 * (2 * cpus + 2),
  maxQueuedPerClient: 2 * (cpus + 1),
  maxQueuedPushesPerClient: 8 * (cpus + 1),
  retryAfterS: 5,
  maxUploadPackBytes: 32 * 1024 * 1024,
  uploadIdleMs: 30_000,
  processIdleMs: 10 * 60_000,
  killGraceMs: 5_000,
  downloadIdleMs: 60_000,
  drainBytes: 8 * 1024 * 1024,
});

const current: GitHttpLimits = { ...DEFAULT_GIT_HTTP_LIMITS };

/** The limits in force (a live object: read it when needed, do not copy it at import time). */
export function gitHttpLimits(): Readonly<GitHttpLimits> {
  return current;
}

/** Overrides some limits (tests). Values must be positive numbers; throws a plain Error otherwise. */
export function setGitHttpLimits(partial: Partial<GitHttpLimits>): void {
  for (const [k, v] of Object.entries(partial)) {
    if (typeof v !== "number" || !(v > 0)) throw new Error(`git HTTP limit ${k} must be a positive number`);
  }
  Object.assign(current, partial);
}

/** Restores the defaults. */
export function resetGitHttpLimits(): void {
  Object.assign(current, DEFAULT_GIT_HTTP_LIMITS);
}
