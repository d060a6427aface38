/**
 * Answers git gives once and for all: what is read at a full commit id never changes (the id is
 * the hash of the commit, its tree and its parents), so a directory's entries at (commit, path)
 * and the number of commits a commit reaches can be kept and reused without ever going stale.
 * A push moves a branch to a new commit id and so asks a new key; a force-push as well. Nothing
 * to invalidate, so two svc processes each keeping their own copy always agree
 * (docs/performance.md "Hardening II, item 18").
 *
 * One LRU per process (on globalThis: Next loads server modules in several bundles), bounded in
 * bytes (IMMUTABLE_CACHE_BYTES, UTF-16 estimates of the kept values); concurrent misses of one key
 * share one git run; failures are not kept. Keys carry the repository's git directory as well, so
 * nothing read in one repository is answered in another.
 */
import { LRUCache } from "lru-cache";

/** Most bytes (estimate) the cache keeps, all kinds together: 16 MiB. */
export const IMMUTABLE_CACHE_BYTES = 16 * 1024 * 1024;

interface Shared {
  cache: LRUCache<string, { value: unknown }>;
  inFlight: Map<string, Promise<unknown>>;
}

const shared = globalThis as { __svcImmutableReads?: Shared };

function state(): Shared {
  return (shared.__svcImmutableReads ??= {
    // a value larger than the whole cache is not kept
    cache: new LRUCache({ maxSize: IMMUTABLE_CACHE_BYTES }),
    inFlight: new Map(),
  });
}

/** The cache key of `parts` under `kind` (NUL-separated: no part can contain a NUL). */
function keyOf(kind: string, gitDir: string, parts: readonly string[]): string {
  return [kind, gitDir, ...parts].join("\0");
}

/**
 * The kept answer for (`kind`, `gitDir`, `parts`), or `compute()`'s, kept with its estimated
 * `size(value)` in bytes. `parts` must name immutable things only (full object ids, paths inside
 * them). Errors: `compute`'s, not kept (the next call runs it again).
 */
export async function immutableRead<T>(
  kind: string,
  gitDir: string,
  parts: readonly string[],
  size: (value: T) => number,
  compute: () => Promise<T>,
): Promise<T> {
  const s = state();
  const key = keyOf(kind, gitDir, parts);
  const hit = s.cache.get(key);
  if (hit) return hit.value as T;
  const running = s.inFlight.get(key);
  if (running) return running as Promise<T>;
  const p = (async () => {
    try {
      const value = await compute();
      s.cache.set(key, { value }, { size: Math.max(1, size(value) + key.length * 2) });
      return value;
    } finally {
      s.inFlight.delete(key);
    }
  })();
  s.inFlight.set(key, p);
  return p;
}

/** Bytes (estimate) and entries the cache keeps now (tests and metrics). */
export function immutableCacheStats(): { bytes: number; entries: number } {
  const c = state().cache;
  return { bytes: c.calculatedSize, entries: c.size };
}

/** Forgets everything (tests). */
export function clearImmutableCache(): void {
  state().cache.clear();
}
