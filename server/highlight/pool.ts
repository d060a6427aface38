/**
 * The highlighting worker pool (docs/security.md "Hardening II, item 1"): shiki runs on worker
 * threads (piscina, ./worker.mjs), never on the event loop that answers requests, so a hostile
 * file or diff costs its CPU there and every other request goes on. Bounded three ways:
 *
 * - CPU per request: each request has a `HighlightBudget` (HIGHLIGHT_BUDGET_MS of tokenizing for
 *   all its code); the worker stops there and the rest is plain, said so in the answer;
 * - concurrency: at most MAX_IN_FLIGHT tasks running or queued; past that `runHighlightTask`
 *   answers "busy" at once (the caller shows plain text) instead of queueing without end;
 * - wall time: a task not done in HARD_TIMEOUT_MS (a single pathological regex match the
 *   tokenizer's time limit cannot interrupt) is aborted, which ends its worker thread; piscina
 *   starts a new one.
 *
 * The worker is a plain .mjs file found under the app root (server/config.ts `appRoot`), so the
 * same path works in production (Next bundles server code, piscina stays external: next.config.mjs
 * serverExternalPackages), vitest and tsx. One pool per process (kept on globalThis: Next loads
 * this module once per bundle).
 */
import os from "node:os";
import path from "node:path";
import { Piscina } from "piscina";
import { getConfig } from "@/server/config";

/** Tokenizing time one request may spend, over all its code (ms of the worker's clock). */
export const HIGHLIGHT_BUDGET_MS = 250;
/**
 * The code view's budget (ms): one file per page view, cached once complete, so it may take a
 * little longer (~2,000 lines of TypeScript on a quiet 2-core machine) and still answer in < 1 s.
 */
export const FILE_BUDGET_MS = 500;
/** Worker threads: one less than the cores (at least 1, at most 4), so the event loop keeps a core. */
export const HIGHLIGHT_THREADS = Math.max(1, Math.min(4, os.availableParallelism() - 1));
/** Tasks running or waiting at most; more are answered "busy" (plain text) at once. */
export const MAX_IN_FLIGHT = HIGHLIGHT_THREADS * 4;
/** A task still running after this long (ms, from being queued) is aborted and its thread ended. */
export const HARD_TIMEOUT_MS = 5_000;

/** Why highlighting stopped early: the budget ran out, the pool was full, the task timed out or failed. */
export type StopReason = "budget" | "busy" | "timeout" | "error";

interface PoolState {
  pool: Piscina;
  inFlight: number;
}

const shared = globalThis as { __svcHighlightPool?: PoolState };

function poolState(): PoolState {
  if (!shared.__svcHighlightPool) {
    const filename = path.join(/* turbopackIgnore: true */ getConfig().appRoot, "server/highlight/worker.mjs");
    shared.__svcHighlightPool = {
      pool: new Piscina({
        filename,
        minThreads: 1,
        maxThreads: HIGHLIGHT_THREADS,
        maxQueue: MAX_IN_FLIGHT,
        idleTimeout: 60_000,
        // shiki's grammars and a 256 KiB file fit easily; a runaway task ends its thread, not the server
        resourceLimits: { maxOldGenerationSizeMb: 512 },
      }),
      inFlight: 0,
    };
  }
  return shared.__svcHighlightPool;
}

/**
 * Runs `task` on the pool (the task shapes are ./worker.mjs's). Never throws: `{ok: false,
 * reason}` when the pool is full ("busy", answered at once), the task took over HARD_TIMEOUT_MS
 * ("timeout") or failed ("error").
 */
export async function runHighlightTask<T>(task: object): Promise<{ ok: true; value: T } | { ok: false; reason: StopReason }> {
  const state = poolState();
  if (state.inFlight >= MAX_IN_FLIGHT) return { ok: false, reason: "busy" };
  state.inFlight++;
  try {
    return { ok: true, value: (await state.pool.run(task, { signal: AbortSignal.timeout(HARD_TIMEOUT_MS) })) as T };
  } catch (e) {
    const aborted = e instanceof Error && (e.name === "AbortError" || e.name === "TimeoutError");
    if (!aborted) console.error("svc: highlighting task failed", e);
    return { ok: false, reason: aborted ? "timeout" : "error" };
  } finally {
    state.inFlight--;
  }
}

/**
 * Starts the pool's first thread, loads shiki there and compiles the common grammars (worker.mjs
 * WARM_LANGS), so the first page views do not wait for them. Trusted input, so no HARD_TIMEOUT_MS
 * (several seconds on a loaded machine) and not counted in MAX_IN_FLIGHT. Never throws.
 */
export async function warmHighlighter(): Promise<void> {
  try {
    await poolState().pool.run({ kind: "warm" });
  } catch (e) {
    console.error("svc: warming the highlighting pool failed", e);
  }
}

/** Tasks running or waiting now (for tests and the bench). */
export function highlightTasksInFlight(): number {
  return shared.__svcHighlightPool?.inFlight ?? 0;
}

/**
 * The tokenizing time one request may still spend (HIGHLIGHT_BUDGET_MS at first), shared by
 * its highlighting tasks (a README's code blocks, a page's diff): `spend` runs them one after
 * the other, each with what the earlier ones left.
 */
export class HighlightBudget {
  private left: number;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(ms: number = HIGHLIGHT_BUDGET_MS) {
    this.left = ms;
  }

  /** Milliseconds left. */
  get remainingMs(): number {
    return Math.max(0, this.left);
  }

  /**
   * Runs `fn(ms)` once the earlier `spend`s are done, with the ms left (0 when spent: `fn` should
   * then not start a task), and takes the `usedMs` it reports off the budget.
   */
  spend<T>(fn: (ms: number) => Promise<{ result: T; usedMs: number }>): Promise<T> {
    const run = this.chain.then(async () => {
      const { result, usedMs } = await fn(this.remainingMs);
      this.left -= usedMs;
      return result;
    });
    this.chain = run.catch(() => undefined);
    return run;
  }
}
