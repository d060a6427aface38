/**
 * Bounds the git processes smart HTTP and raw-file downloads run (docs/git-http.md "Limits"): a
 * global cap and a per-client cap on slots, a FIFO queue in which excess requests wait briefly
 * (pushes longer: git does not retry a 503), and the bookkeeping of the processes themselves (how
 * many run, how many svc stopped).
 *
 * A slot is taken before git is spawned and released when that git process exits (or when the
 * request ends without spawning one). Limits come from http-limits.ts, read on every call.
 *
 * Across processes (docs/git-http.md "Several svc processes"): the caps above are this process's,
 * the machine's own guard. With REDIS_URL a granted slot also needs a shared slot of the `git`
 * pool (../shared-slots.ts), counted in Redis for all processes together under
 * `maxProcessesShared` and the same per-client `maxPerClient`; a request holding its local slot
 * polls for one until its wait ends. Redis failing or not answering counts per process only.
 */
import type { ChildProcess } from "node:child_process";
import { sharedSlots, type SharedSlot } from "../shared-slots";
import { gitHttpLimits } from "./http-limits";

/** One granted slot; `release` is idempotent. */
export interface GitSlot {
  readonly key: string;
  release(): void;
}

interface Waiter {
  key: string;
  push: boolean;
  grant: (slot: GitSlot | null) => void;
}

let held = 0;
const perClient = new Map<string, number>();
const queue: Waiter[] = [];
let liveProcesses = 0;
let stoppedProcesses = 0;

function canRun(key: string): boolean {
  const l = gitHttpLimits();
  return held < l.maxProcesses && (perClient.get(key) ?? 0) < l.maxPerClient;
}

function take(key: string): GitSlot {
  held += 1;
  perClient.set(key, (perClient.get(key) ?? 0) + 1);
  let released = false;
  return {
    key,
    release() {
      if (released) return;
      released = true;
      held -= 1;
      const n = (perClient.get(key) ?? 1) - 1;
      if (n > 0) perClient.set(key, n);
      else perClient.delete(key);
      pump();
    },
  };
}

/** Grants free slots to waiters in arrival order, skipping those whose client is at its cap. */
function pump(): void {
  for (let i = 0; i < queue.length && held < gitHttpLimits().maxProcesses;) {
    const w = queue[i];
    if (canRun(w.key)) {
      queue.splice(i, 1);
      w.grant(take(w.key));
    } else {
      i += 1;
    }
  }
}

/** The gate's client key: the user (`user:<id>`) when signed in, else the address (`ip:<address>`). */
export function gitClientKey(userId: string | null | undefined, address: string): string {
  return userId ? `user:${userId}` : `ip:${address}`;
}

/** Options of acquireGitSlot. */
export interface AcquireOptions {
  /** A push (git-receive-pack, its advertisement included): waits pushQueueWaitMs in a per-client queue of maxQueuedPushesPerClient. */
  push?: boolean;
}

/**
 * Takes a slot for client `key` (`user:<id>` or `ip:<address>`). Resolves at once when the
 * global cap (`maxProcesses`) and the client's cap (`maxPerClient`) allow it — and, with
 * REDIS_URL, the same caps counted over all processes (`maxProcessesShared`, `maxPerClient`);
 * otherwise the request waits, in this process's FIFO queue and then for a shared slot, for up to
 * `queueWaitMs` (`pushQueueWaitMs` for a push). Resolves null when the queue is full
 * (`maxQueued`, `maxQueuedPerClient` or for pushes `maxQueuedPushesPerClient`), the wait timed
 * out, or `signal` aborted (the client left): the caller answers 503 with `Retry-After`. Never
 * rejects; Redis failing counts per process only.
 */
export async function acquireGitSlot(key: string, signal?: AbortSignal, opts: AcquireOptions = {}): Promise<GitSlot | null> {
  const l = gitHttpLimits();
  const until = Date.now() + (opts.push ? l.pushQueueWaitMs : l.queueWaitMs);
  const local = await acquireLocal(key, !!opts.push, until, signal);
  const shared = local && sharedSlots("git");
  if (!local || !shared) return local;
  const remote = await acquireShared(key, until, signal);
  if (remote === "unavailable") return local;
  if (!remote) {
    local.release();
    return null;
  }
  return {
    key,
    release() {
      remote.release();
      local.release();
    },
  };
}

/** Longest pause (ms) between two tries for a shared slot. */
const SHARED_POLL_MAX_MS = 250;

/** A shared slot of the `git` pool, tried until `until` (ms since the epoch): the slot, null (full until then or the client left), or "unavailable". */
async function acquireShared(key: string, until: number, signal?: AbortSignal): Promise<SharedSlot | null | "unavailable"> {
  const shared = sharedSlots("git");
  if (!shared) return "unavailable";
  for (let pause = 25; ; pause = Math.min(SHARED_POLL_MAX_MS, pause * 2)) {
    const l = gitHttpLimits();
    const r = await shared.tryAcquire(key, { total: l.maxProcessesShared, perClient: l.maxPerClient });
    if (r !== "full") return r;
    const left = until - Date.now();
    if (left <= 0 || signal?.aborted) return null;
    // jittered, so processes polling together do not try in lockstep
    if (!(await pauseFor(Math.min(left, pause * (0.5 + Math.random())), signal))) return null;
  }
}

/** Resolves true after `ms`, false at once when `signal` aborts. */
function pauseFor(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      resolve(ok);
    };
    const abort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener("abort", abort, { once: true });
  });
}

/** A slot of this process (its caps and FIFO queue), waiting until `until` (ms since the epoch) at most. */
function acquireLocal(key: string, push: boolean, until: number, signal?: AbortSignal): Promise<GitSlot | null> {
  if (signal?.aborted) return Promise.resolve(null);
  if (canRun(key) && !queue.some((w) => w.key === key)) return Promise.resolve(take(key));
  const l = gitHttpLimits();
  const mine = queue.filter((w) => w.key === key && w.push === push).length;
  if (queue.length >= l.maxQueued || mine >= (push ? l.maxQueuedPushesPerClient : l.maxQueuedPerClient)) {
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    const waiter: Waiter = {
      key,
      push,
      grant: (slot) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", leave);
        resolve(slot);
      },
    };
    const leave = () => {
      const i = queue.indexOf(waiter);
      if (i >= 0) queue.splice(i, 1);
      waiter.grant(null);
    };
    const timer = setTimeout(leave, Math.max(0, until - Date.now()));
    signal?.addEventListener("abort", leave, { once: true });
    queue.push(waiter);
  });
}

/**
 * Counts `child` as a running git process until it exits; then releases `slot`. Call right
 * after spawning.
 */
export function trackGitProcess(child: ChildProcess, slot: GitSlot): void {
  liveProcesses += 1;
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    liveProcesses -= 1;
    slot.release();
  };
  child.once("close", end);
  child.once("error", () => {
    // A process that failed to start emits no "close" when it never had stdio.
    if (child.pid === undefined) end();
  });
}

/**
 * Stops a git process: SIGTERM first, so git stops its own children (pack-objects,
 * index-pack) — SIGKILL would orphan them — then SIGKILL after `killGraceMs` if it is still
 * there. Does nothing when it already exited or was already asked to stop.
 */
export function stopGit(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.killed) return;
  stoppedProcesses += 1;
  child.kill("SIGTERM");
  setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }, gitHttpLimits().killGraceMs).unref?.();
}

/** Live counters: running git processes, slots held, requests queued, processes svc stopped (total). */
export function gitHttpStats(): { processes: number; slots: number; queued: number; stopped: number } {
  return { processes: liveProcesses, slots: held, queued: queue.length, stopped: stoppedProcesses };
}
