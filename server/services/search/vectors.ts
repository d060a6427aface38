/**
 * Vector side of the hybrid search engine (docs/ai.md "Vectors (server/services/search/vectors.ts)"):
 * the `limit` chunks of an index nearest to a query vector, by exact inner product over the
 * index's stored vectors (unit length, so cosine similarity).
 *
 * The scan is usearch's `exactSearch` (Unum's vector search library, SIMD kernels — AVX2 /
 * AVX-512 / NEON — picked at run time), one thread per query. Exact rather than an HNSW graph:
 * 100 000 × 256 float32 vectors take ~6 ms, × 1 536 ~25 ms on this machine, the speed of
 * reading the matrix from memory (docs/performance.md "Semantic search speed"), with no index to build,
 * store or keep in step with pushes, and no recall lost.
 *
 * The scan goes slab by slab (SLICE_BYTES each, ~1–2 ms) with the event loop free between slabs.
 *
 * Memory is bounded: each (index, model) matrix is loaded from SearchEmbedding in pages of
 * LOAD_PAGE vectors and kept while it fits SVC_SEARCH_VECTOR_MEMORY_MB (default 1024 MiB, all
 * indexes together; least recently used dropped first; while a push's new matrix is built from the
 * old one, both exist). An index whose vectors alone exceed that budget is not loaded:
 * nearestChunks answers null and the search stays lexical. After a push only the vectors of
 * changed files are read again.
 *
 * Several processes: each holds its own copy, keyed by the index's version (vectorVersion: its
 * commit and its `updatedAt`), which the search reads with the index row it needs anyway. Every
 * change of an index's chunks or vectors ends by updating its SearchIndex row (a refresh moving the
 * commit, a re-chunk clearing `embeddingModel`, embedIndexChunks setting it), so a copy loaded by
 * one process is not used by any process once another has changed the index; it is reloaded,
 * reusing the rows it has.
 */
import { createRequire } from "node:module";
import type UsearchModule from "usearch";
import type { Db } from "@/server/db";
import { readRows } from "@/server/db/read";
import { getConfig } from "@/server/config";
import { Sql } from "@/server/services/issues/query";

/**
 * usearch's CommonJS build. Its ES module build finds its native binary from a stack trace
 * (the `bindings` package), which fails once another module has installed source-map support
 * (tsx, Next's server); the CommonJS build looks beside its own `__dirname`.
 */
const usearch = createRequire(import.meta.url)("usearch") as typeof UsearchModule;

/** Vectors read per query while loading a matrix. */
const LOAD_PAGE = 500;
/** Bytes of vectors one exactSearch call scans before the event loop gets a turn (~1–2 ms). */
const SLICE_BYTES = 32 * 1_048_576;
const MIB = 1_048_576;

/**
 * SVC_SEARCH_VECTOR_MEMORY_MB (16–1 048 576 MiB), else 1024: the most memory (MiB) the loaded
 * vector matrices of all indexes hold in this process.
 */
export function vectorMemoryMbFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env.SVC_SEARCH_VECTOR_MEMORY_MB?.trim();
  const n = raw && /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  return n >= 16 && n <= 1_048_576 ? n : 1024;
}

interface VectorSet {
  /** The index's version (vectorVersion) these rows were loaded for. */
  version: string;
  /** Chunk id of each row, ascending. */
  ids: Int32Array;
  dims: number;
  /** The rows (dims float32 each, row-major) in slabs of slabRows(dims) rows, each its own buffer. */
  slabs: Float32Array[];
  bytes: number;
}

/** Rows per slab: SLICE_BYTES of them. */
export function slabRows(dims: number): number {
  return Math.max(1, Math.floor(SLICE_BYTES / (Math.max(1, dims) * 4)));
}

/** Empty slabs for `rows` rows of `dims`. */
function newSlabs(rows: number, dims: number): Float32Array[] {
  const per = slabRows(dims);
  const out: Float32Array[] = [];
  for (let start = 0; start < rows; start += per) out.push(new Float32Array(Math.min(per, rows - start) * dims));
  return out;
}

/** Loaded matrices by `${indexId}|${model}`, least recently used first. */
const cache = new Map<string, VectorSet>();
/** Loads in flight by `${indexId}|${model}|${version}`. */
const loading = new Map<string, Promise<VectorSet | null>>();
let budgetBytes = vectorMemoryMbFromEnv() * MIB;

/** Sets the memory budget (MiB) for this process; tests. Drops what no longer fits. */
export function setVectorMemoryBudget(mb: number): void {
  budgetBytes = mb * MIB;
  evictFor(0);
}

/** Bytes the cached matrices hold now (tests, diagnostics). */
export function cachedVectorBytes(): number {
  let n = 0;
  for (const s of cache.values()) n += s.bytes;
  return n;
}

/**
 * The version of an index's vectors, as read from its SearchIndex row: its commit and the time
 * (ms) of its row's last update (Prisma's @updatedAt, set on every update and updateMany). Equal
 * versions mean equal chunk and vector sets (header). Opaque: compare, never parse.
 */
export function vectorVersion(index: { commitSha: string | null; updatedAt: Date }): string {
  return `${index.commitSha ?? ""}@${index.updatedAt.getTime()}`;
}

/** Drops least recently used matrices until `bytes` more fit the budget. */
function evictFor(bytes: number): void {
  let used = cachedVectorBytes();
  for (const [k, s] of cache) {
    if (used + bytes <= budgetBytes) return;
    cache.delete(k);
    used -= s.bytes;
  }
}

/** Where the vectors of `model` for the chunks of index `indexId` are, as SQL after FROM. */
function vectorRows(sql: Sql, indexId: string, model: string): string {
  return `"SearchEmbedding" e WHERE e."model" = ${sql.p(model)} AND e."chunkId" IN (SELECT c."id" FROM "SearchChunk" c WHERE c."blobOid" IN (SELECT f."blobOid" FROM "SearchFile" f WHERE f."indexId" = ${sql.p(indexId)}))`;
}

/**
 * Loads the matrix of index `indexId` for `model` (null when it would not fit the budget): the
 * chunk ids first, then only the vectors `previous` (an earlier commit's matrix of the same
 * index) lacks — a stored vector never changes (chunk ids are never reused: AUTOINCREMENT /
 * serial), so after a push only the changed files' chunks are read. Rows of another length than
 * the first are left zero.
 */
async function load(db: Db, indexId: string, model: string, version: string, previous: VectorSet | undefined): Promise<VectorSet | null> {
  const dialect = getConfig().provider;
  const list = new Sql(dialect);
  const ids = Int32Array.from(
    await readRows<{ id: number | bigint }>(
      db,
      `SELECT e."chunkId" AS "id" FROM ${vectorRows(list, indexId, model)} ORDER BY e."chunkId"`,
      list.params,
    ),
    (r) => Number(r.id),
  );
  if (!ids.length) return { version, ids, dims: 0, slabs: [], bytes: 0 };
  const first = new Sql(dialect);
  const [one] = await readRows<{ bytes: number | bigint }>(
    db,
    `SELECT LENGTH(e."vector") AS "bytes" FROM "SearchEmbedding" e WHERE e."model" = ${first.p(model)} AND e."chunkId" = ${first.p(ids[0])}`,
    first.params,
  );
  const dims = Math.floor(Number(one?.bytes ?? 0) / 4);
  const bytes = ids.length * (dims + 1) * 4;
  if (bytes > budgetBytes) return null;
  evictFor(bytes);
  const slabs = newSlabs(ids.length, dims);
  const per = slabRows(dims);
  const rowOf = (set: { slabs: Float32Array[] }, row: number) =>
    set.slabs[Math.floor(row / per)]!.subarray((row % per) * dims, ((row % per) + 1) * dims);
  const missing: number[] = [];
  const had = previous && previous.dims === dims ? new Map(Array.from(previous.ids, (id, row) => [id, row] as const)) : undefined;
  ids.forEach((id, row) => {
    const old = had?.get(id);
    if (old === undefined) missing.push(row);
    else rowOf({ slabs }, row).set(rowOf(previous!, old));
  });
  for (let i = 0; i < missing.length; i += LOAD_PAGE) {
    const rows = missing.slice(i, i + LOAD_PAGE);
    const sql = new Sql(dialect);
    const text = `SELECT e."chunkId", e."vector" FROM "SearchEmbedding" e WHERE e."model" = ${sql.p(model)} AND e."chunkId" IN (${sql.list(rows.map((r) => ids[r]))})`;
    const found = new Map(
      (await readRows<{ chunkId: number | bigint; vector: Uint8Array }>(db, text, sql.params)).map((r) => [Number(r.chunkId), r.vector]),
    );
    for (const row of rows) {
      const v = found.get(ids[row]!);
      const slab = slabs[Math.floor(row / per)]!;
      if (v?.byteLength === dims * 4) new Uint8Array(slab.buffer).set(v, (row % per) * dims * 4);
    }
  }
  return { version, ids, dims, slabs, bytes };
}

/**
 * The index's matrix for `model` at `version` (vectorVersion): cached, or loaded once however
 * many ask at the same time. A load reads what is committed when it runs, so it is at least as
 * new as `version` (read before it); a later version loads again.
 */
async function vectorsOf(db: Db, indexId: string, version: string, model: string): Promise<VectorSet | null> {
  const key = `${indexId}|${model}`;
  const hit = cache.get(key);
  cache.delete(key); // re-inserted last: most recently used
  if (hit) cache.set(key, hit);
  if (hit && hit.version === version) return hit;
  const loadKey = `${key}|${version}`;
  const pending = loading.get(loadKey);
  if (pending) return pending;
  const promise = (async () => {
    const set = await load(db, indexId, model, version, hit);
    if (set) {
      cache.delete(key); // the copy it replaces does not count against the budget
      evictFor(set.bytes);
      cache.set(key, set);
    } else if (cache.get(key) === hit) cache.delete(key);
    return set;
  })().finally(() => loading.delete(loadKey));
  loading.set(loadKey, promise);
  return promise;
}

/**
 * Loads index `indexId`'s vectors for `model` at its current version now, so the next search in
 * this process does not wait for them (the search.indexRepo job, right after embedding; a no-op
 * when they are loaded, over the budget, or the index is gone). Errors: the database's.
 */
export async function warmVectors(db: Db, indexId: string, model: string): Promise<void> {
  const index = await db.searchIndex.findUnique({ where: { id: indexId }, select: { commitSha: true, updatedAt: true } });
  if (index?.commitSha) await vectorsOf(db, indexId, vectorVersion(index), model);
}

/**
 * The `limit` chunks of index `indexId` whose vectors for `model` are most similar to `query`
 * (unit length), best first, `similarity` = inner product (−1…1). `version`: vectorVersion of
 * the index row the caller read. [] when the index has no vectors of the query's length; null
 * when its vectors exceed the memory budget (the caller ranks lexically). Errors: the database's.
 */
export async function nearestChunks(
  db: Db,
  indexId: string,
  version: string,
  model: string,
  query: Float32Array,
  limit: number,
): Promise<Array<{ chunkId: number; similarity: number }> | null> {
  const set = await vectorsOf(db, indexId, version, model);
  if (!set) return null;
  if (set.dims !== query.length || !set.ids.length) return [];
  return topByInnerProduct(set.ids, set.slabs, set.dims, query, limit);
}

/**
 * Exact top `limit` rows of `slabs` (consecutive rows, dims float32 each, row-major; row r has
 * chunk id ids[r]) by inner product with `q`, best first (ties by chunk id): usearch's SIMD
 * `exactSearch` on one thread (its "ip" distance is 1 − q·v), one slab per call with the event
 * loop free between them — other requests, and the lexical query's round trips to the database,
 * go on while a large index is scanned. The slabs' best `limit` each are merged. Each slab must be
 * its own buffer: usearch 2.26 reads a typed array from the start of its ArrayBuffer, ignoring
 * byteOffset (a `subarray` would scan the wrong rows).
 */
export async function topByInnerProduct(
  ids: Int32Array,
  slabs: Float32Array[],
  dims: number,
  q: Float32Array,
  limit: number,
): Promise<Array<{ chunkId: number; similarity: number }>> {
  const out: Array<{ chunkId: number; similarity: number }> = [];
  let start = 0;
  for (const slab of slabs) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    if (slab.byteOffset !== 0) throw new Error("a slab must start at its buffer's beginning");
    const rows = Math.floor(slab.length / dims);
    const count = Math.min(limit, rows);
    if (count > 0) {
      const found = usearch.exactSearch(slab, q, dims, count, usearch.MetricKind.IP, 1) as InstanceType<typeof UsearchModule.Matches>;
      for (let i = 0; i < found.keys.length; i++)
        out.push({ chunkId: ids[start + Number(found.keys[i])]!, similarity: 1 - found.distances[i]! });
    }
    start += rows;
  }
  return out.sort((a, b) => b.similarity - a.similarity || a.chunkId - b.chunkId).slice(0, limit);
}
