/**
 * The large-diff gate (docs/performance.md "Hardening II, item 14"): at most `LARGE_DIFF_SLOTS`
 * diff parses per process keep more than `LARGE_DIFF_LINES` hunk lines (or `LARGE_DIFF_BYTES`)
 * at once. A parse asks for a slot only when it crosses that size (server/git/diff.ts
 * `runParser`), so small diffs (one file, the Files changed tab's 2,000-line first page) never
 * wait; a large one waits with git paused (nothing is read from its pipe, so git blocks and
 * node's memory stays at what was kept so far) until a slot frees, for at most
 * `LARGE_DIFF_WAIT_MS`, then gets TOO_MANY_REQUESTS (retry after 5 s). The slot is released when the parse ends
 * (the response is then serialized right away). State on globalThis: Next loads server modules
 * in several bundles, and one process has one budget.
 */
import { AppError } from "@/server/errors";

/** Kept hunk lines past which a parse is large and needs a slot. */
export const LARGE_DIFF_LINES = 5_000;
/** Kept hunk bytes (UTF-8 content) past which a parse is large and needs a slot. */
export const LARGE_DIFF_BYTES = 512 * 1024;
/** Large parses at once per process: 2, the cores of the reference machine (a parse is CPU-bound). */
export const LARGE_DIFF_SLOTS = 2;
/** Longest wait for a slot (ms) before TOO_MANY_REQUESTS. */
export const LARGE_DIFF_WAIT_MS = 15_000;

interface Gate {
  active: number;
  queue: (() => void)[];
  /** Tests change the limits (`setLargeDiffLimits`). */
  slots: number;
  waitMs: number;
}

const gate = ((globalThis as unknown as { __svcLargeDiffGate?: Gate }).__svcLargeDiffGate ??= {
  active: 0,
  queue: [],
  slots: LARGE_DIFF_SLOTS,
  waitMs: LARGE_DIFF_WAIT_MS,
});

/** Whether a parse that kept `lines` hunk lines and `bytes` bytes is large (needs a slot). */
export function isLargeDiff(kept: { lines: number; bytes: number }): boolean {
  return kept.lines > LARGE_DIFF_LINES || kept.bytes > LARGE_DIFF_BYTES;
}

/**
 * A slot for one large parse: resolves with its release function (idempotent) once a slot is
 * free, in arrival order. Errors: TOO_MANY_REQUESTS after waiting the gate's wait time.
 */
export function acquireLargeDiff(): Promise<() => void> {
  const granted = (): (() => void) => {
    gate.active++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      gate.active--;
      gate.queue.shift()?.();
    };
  };
  if (gate.active < gate.slots && gate.queue.length === 0) return Promise.resolve(granted());
  return new Promise((resolve, reject) => {
    const wake = () => {
      clearTimeout(timer);
      resolve(granted());
    };
    const timer = setTimeout(() => {
      const i = gate.queue.indexOf(wake);
      if (i >= 0) gate.queue.splice(i, 1);
      reject(new AppError("TOO_MANY_REQUESTS", "too many large diffs are being read right now: try again in a few seconds", 5));
    }, gate.waitMs);
    timer.unref?.();
    gate.queue.push(wake);
  });
}

/** Large parses running and waiting now (tests, metrics). */
export function largeDiffLoad(): { active: number; waiting: number } {
  return { active: gate.active, waiting: gate.queue.length };
}

/** Changes the gate's slots and wait (tests); absent fields get their defaults back. */
export function setLargeDiffLimits(limits: { slots?: number; waitMs?: number } = {}): void {
  gate.slots = limits.slots ?? LARGE_DIFF_SLOTS;
  gate.waitMs = limits.waitMs ?? LARGE_DIFF_WAIT_MS;
}
