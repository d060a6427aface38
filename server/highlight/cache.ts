/**
 * A least-recently-used cache bounded by the total size of its values (a size the caller gives:
 * bytes, or an estimate of them), for the highlighting results (server/highlight/index.ts). A
 * Map keeps insertion order: a hit is moved to the end, and the oldest entries are dropped
 * until the total fits. A value larger than the whole cache is not kept.
 */
export class SizedLru<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private total = 0;

  /** `maxSize`: the most the sizes of the kept values add up to (same unit as `set`'s `size`). */
  constructor(private readonly maxSize: number) {}

  /** The value under `key` (now the most recently used), or undefined. */
  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  /** Keeps `value` under `key` with its `size`, dropping the least recently used entries over the bound. */
  set(key: string, value: V, size: number): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.total -= old.size;
    }
    if (size > this.maxSize) return;
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [k, e] of this.entries) {
      if (this.total <= this.maxSize) break;
      this.entries.delete(k);
      this.total -= e.size;
    }
  }

  /** Number of entries and the sum of their sizes. */
  get stats(): { entries: number; size: number } {
    return { entries: this.entries.size, size: this.total };
  }
}
