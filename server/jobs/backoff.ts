/**
 * Retry delay rule shared by both job stores, the one pg-boss applies on PostgreSQL
 * (pg-boss 10 `retryBackoff`, plans.js failJobs: `delay · 2^k / 2 · (1 + random)`): the k-th retry
 * (k = 1, 2, …) starts between `backoffMs · 2^(k−1)` and `backoffMs · 2^k` ms after the failure,
 * jittered so that jobs failing together do not retry together. The exponent stops growing at 16
 * (as in pg-boss) and the delay is capped at 24 h.
 */
export const MAX_RETRY_DELAY_MS = 24 * 60 * 60 * 1000;

/**
 * Milliseconds to wait before retry number `retry` (1-based) of a job with base delay `backoffMs`.
 * `random` is a number in [0, 1) (Math.random by default; tests pass a fixed one).
 */
export function retryDelayMs(backoffMs: number, retry: number, random: number = Math.random()): number {
  const k = Math.min(16, Math.max(1, Math.floor(retry)));
  const base = Math.max(0, backoffMs) * 2 ** (k - 1);
  return Math.min(MAX_RETRY_DELAY_MS, Math.round(base * (1 + Math.min(Math.max(random, 0), 1))));
}
