/**
 * The hybrid engine's vector scan (server/services/search/vectors.ts): usearch's exact search
 * returns the same chunks, order and similarities as a plain inner-product scan; the memory
 * budget's environment variable.
 */
import { describe, expect, it } from "vitest";
import { topByInnerProduct, vectorMemoryMbFromEnv } from "@/server/services/search/vectors";
import { unit } from "@/server/services/search/embeddings";

/** A seeded pseudo-random generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

/** `matrix` cut into slabs of `rows` rows, each copied into its own buffer (as vectors.ts keeps them). */
function slabsOf(matrix: Float32Array, dims: number, rows: number): Float32Array[] {
  const out: Float32Array[] = [];
  for (let start = 0; start * dims < matrix.length; start += rows)
    out.push(matrix.slice(start * dims, Math.min(matrix.length, (start + rows) * dims)));
  return out;
}

function naiveTop(ids: Int32Array, matrix: Float32Array, dims: number, q: Float32Array, limit: number) {
  const all = Array.from(ids, (chunkId, r) => {
    let s = 0;
    for (let d = 0; d < dims; d++) s += matrix[r * dims + d]! * q[d]!;
    return { chunkId, similarity: s };
  });
  return all.sort((a, b) => b.similarity - a.similarity).slice(0, limit);
}

describe("topByInnerProduct", () => {
  it.each([
    [37, 500, 20],
    [256, 2_000, 200],
    [3, 5, 10], // limit above the row count: every row
  ])("matches a plain scan: %i dims, %i rows, top %i", async (dims, rows, limit) => {
    const next = random(dims * rows);
    const ids = Int32Array.from({ length: rows }, (_, i) => 1_000 + i * 3);
    const matrix = new Float32Array(rows * dims);
    for (let r = 0; r < rows; r++) matrix.set(unit(Array.from({ length: dims }, next)), r * dims);
    const q = unit(Array.from({ length: dims }, next));
    const want = naiveTop(ids, matrix, dims, q, limit);
    // in one slab, and in slabs of 7 rows merged (the event loop gets a turn between them)
    for (const got of [
      await topByInnerProduct(ids, [matrix], dims, q, limit),
      await topByInnerProduct(ids, slabsOf(matrix, dims, 7), dims, q, limit),
    ]) {
      expect(got.map((g) => g.chunkId)).toEqual(want.map((w) => w.chunkId));
      got.forEach((g, i) => expect(g.similarity).toBeCloseTo(want[i]!.similarity, 4));
    }
  });

  it("finds a stored vector itself with similarity 1, and nothing in an empty set", async () => {
    const next = random(7);
    const matrix = new Float32Array(10 * 8);
    for (let r = 0; r < 10; r++) matrix.set(unit(Array.from({ length: 8 }, next)), r * 8);
    const [best] = await topByInnerProduct(
      Int32Array.from({ length: 10 }, (_, i) => i),
      slabsOf(matrix, 8, 4),
      8,
      matrix.slice(24, 32),
      1,
    );
    expect(best).toEqual({ chunkId: 3, similarity: expect.closeTo(1, 5) });
    expect(await topByInnerProduct(new Int32Array(0), [], 8, matrix.slice(0, 8), 5)).toEqual([]);
    // a view into a larger buffer is refused: usearch would read from the buffer's start
    await expect(topByInnerProduct(Int32Array.from([0]), [matrix.subarray(8, 16)], 8, matrix.slice(8, 16), 1)).rejects.toThrow(
      "buffer's beginning",
    );
  });
});

describe("vectorMemoryMbFromEnv", () => {
  it("SVC_SEARCH_VECTOR_MEMORY_MB: 16 to 1048576 MiB, else 1024", () => {
    expect(vectorMemoryMbFromEnv({})).toBe(1024);
    expect(vectorMemoryMbFromEnv({ SVC_SEARCH_VECTOR_MEMORY_MB: "4096" })).toBe(4096);
    expect(vectorMemoryMbFromEnv({ SVC_SEARCH_VECTOR_MEMORY_MB: " 16 " })).toBe(16);
    for (const bad of ["15", "0", "-5", "1.5", "lots", "99999999"])
      expect(vectorMemoryMbFromEnv({ SVC_SEARCH_VECTOR_MEMORY_MB: bad })).toBe(1024);
  });
});
