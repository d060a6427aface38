/**
 * Bounds the git processes smart HTTP and raw-file downloads run (docs/git-http.md "Limits"): a
 * global cap and a per-client cap on slots, a FIFO queue in which excess requests wait briefly,
 * and the bookkeeping of the processes themselves (how many run, how many svc stopped).
 *
 * A slot is taken before git is spawned and released when that git process exits (or when the
 * request ends without spawning one). Limits come from http-limits.ts, read on every call.
 */
import type { ChildProcess } from "node:child_process";
import { gitHttpLimits } from "./http-limits";

/** One granted slot; `release` is idempotent. */
export interface GitSlot {
  readonly key: string;
  release(): void;
}

interface Waiter {
  key: string;
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

/**
 * Takes a slot for client `key` (`user:<id>` or `ip:<address>`). Resolves at once when the
 * global cap (`maxProcesses`) and the client's cap (`maxPerClient`) allow it; otherwise the
 * request waits in a FIFO queue for up to `queueWaitMs`. Resolves null when the queue is full
 * (`maxQueued`, `maxQueuedPerClient`), the wait timed out, or `signal` aborted (the client left):
 * the caller answers 503 with `Retry-After`. Never rejects.
 */
export function acquireGitSlot(key: string, signal?: AbortSignal): Promise<GitSlot | null> {
  if (signal?.aborted) return Promise.resolve(null);
  if (canRun(key) && !queue.some((w) => w.key === key)) return Promise.resolve(take(key));
  const l = gitHttpLimits();
  if (queue.length >= l.maxQueued || queue.filter((w) => w.key === key).length >= l.maxQueuedPerClient) {
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    const waiter: Waiter = {
      key,
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
    const timer = setTimeout(leave, l.queueWaitMs);
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
