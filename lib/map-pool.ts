/**
 * A bounded pool: `mapPool(items, limit, fn)` runs `fn` over `items` with at most `limit` calls in
 * flight at once (e.g. git processes of a batch, server/git/merge-batch.ts), keeping the input
 * order in the result. Pure, no dependencies.
 */

/**
 * Maps `items` through `fn`, at most `limit` (≥ 1) calls at a time, in input order; results in
 * input order. Rejects with the first error, after the calls already started have settled (no
 * call starts after an error). Errors: RangeError for a `limit` below 1 or not an integer.
 */
export async function mapPool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`pool limit must be an integer ≥ 1 (got ${limit})`);
  const results = new Array<R>(items.length);
  let next = 0;
  let failed: { error: unknown } | null = null;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i], i);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed) throw (failed as { error: unknown }).error;
  return results;
}
