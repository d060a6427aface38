/**
 * Chunk vectors for the hybrid engine (issue #10 "Semantic search"; docs/ai.md): the configured
 * provider's embedding model (`embedMany` of the AI SDK) embeds each chunk once per model
 * (SearchEmbedding, float32, unit length); queries are ranked by cosine similarity, brute force
 * over the index's vectors held in memory (docs/performance.md "Semantic search" measures it).
 */
import { embed, embedMany, type EmbeddingModel } from "ai";
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { Sql } from "@/server/services/issues/query";

/** ModelEngine.embedding: the label (`openai:<model>`) and the model. */
export interface EmbeddingEngine {
  engine: string;
  model: EmbeddingModel;
}

/**
 * The embedding provider failed (unreachable, refused the key, rate-limited, answered nonsense):
 * the message names the engine and the provider's words, never the key. The index refresh
 * records it and keeps the lexical index (index-repo.ts); a search falls back to lexical.
 */
export class EmbeddingProviderError extends Error {
  constructor(engine: string, cause: unknown) {
    super(`embedding with ${engine} failed: ${providerMessage(cause)}`);
    this.name = "EmbeddingProviderError";
  }
}

/** The provider's own words of an AI SDK error (RetryError: the last attempt's). */
function providerMessage(e: unknown): string {
  const err = e as { lastError?: unknown; message?: unknown; cause?: unknown } | null;
  const last = err?.lastError ?? err;
  const msg = (last as { message?: unknown } | null)?.message;
  const cause = (last as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const text = typeof msg === "string" && msg ? msg : String(last);
  const code = cause && typeof cause.code === "string" ? ` (${cause.code})` : "";
  return (text + code).replace(/\s+/g, " ").slice(0, 400);
}

/** Runs a provider call, its failures as EmbeddingProviderError. */
async function provider<T>(engine: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw new EmbeddingProviderError(engine, e);
  }
}

/** Chunks per embedMany call. */
const EMBED_BATCH = 64;
/** Most chunks one refresh embeds (the next refresh continues). */
export const MAX_EMBED_PER_RUN = 20_000;
/** Characters of a chunk sent to the model. */
const EMBED_CHARS = 6_000;

/** `v` scaled to unit length, as float32. */
export function unit(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * s;
  return out;
}

/** The stored form of a vector: little-endian float32 bytes. */
export function toBytes(v: Float32Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) as ArrayBuffer);
}

/** A stored vector back as float32. */
export function fromBytes(b: Uint8Array): Float32Array {
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Float32Array(copy.buffer);
}

/** The text a chunk is embedded as: its name and path-free content. */
function embedText(c: { name: string | null; content: string }): string {
  return (c.name ? `${c.name}\n` : "") + c.content.slice(0, EMBED_CHARS);
}

/**
 * Embeds the chunks of index `indexId` that have no vector for `e.engine` (at most
 * MAX_EMBED_PER_RUN), then marks the index as covered by that model when none are left (and
 * clears `embeddingError`). → chunks embedded. Provider errors throw EmbeddingProviderError
 * (the vectors of earlier batches stay stored); database errors propagate as they are.
 */
export async function embedIndexChunks(db: Db, indexId: string, e: EmbeddingEngine): Promise<number> {
  let done = 0;
  for (;;) {
    const sql = new Sql(getConfig().provider);
    const text = `SELECT c."id", c."name", c."content" FROM "SearchChunk" c
      WHERE c."blobOid" IN (SELECT f."blobOid" FROM "SearchFile" f WHERE f."indexId" = ${sql.p(indexId)})
        AND NOT EXISTS (SELECT 1 FROM "SearchEmbedding" e WHERE e."chunkId" = c."id" AND e."model" = ${sql.p(e.engine)})
      ORDER BY c."id" LIMIT ${EMBED_BATCH}`;
    const rows = await db.$queryRawUnsafe<Array<{ id: number | bigint; name: string | null; content: string }>>(text, ...sql.params);
    if (!rows.length) break;
    if (done >= MAX_EMBED_PER_RUN) return done;
    const { embeddings } = await provider(e.engine, () => embedMany({ model: e.model, values: rows.map(embedText), maxRetries: 1 }));
    if (embeddings.length !== rows.length) throw new EmbeddingProviderError(e.engine, new Error(`${embeddings.length} vectors for ${rows.length} texts`));
    const data = rows.map((r, i) => ({ chunkId: Number(r.id), model: e.engine, vector: toBytes(unit(embeddings[i]!)) }));
    await db.$transaction(async (tx) => {
      const have = new Set((await tx.searchEmbedding.findMany({ where: { model: e.engine, chunkId: { in: data.map((d) => d.chunkId) } }, select: { chunkId: true } })).map((x) => x.chunkId));
      const fresh = data.filter((d) => !have.has(d.chunkId));
      if (fresh.length) await tx.searchEmbedding.createMany({ data: fresh });
    });
    done += rows.length;
  }
  await db.searchIndex.update({ where: { id: indexId }, data: { embeddingModel: e.engine, embeddingError: null, embeddingFailedAt: null } });
  invalidateVectors(indexId);
  return done;
}

/** The query's vector (unit length). Errors: EmbeddingProviderError. */
export async function embedQuery(e: EmbeddingEngine, query: string): Promise<Float32Array> {
  const { embedding } = await provider(e.engine, () => embed({ model: e.model, value: query, maxRetries: 1 }));
  return unit(embedding);
}

interface VectorSet {
  key: string;
  ids: Int32Array;
  dims: number;
  /** ids.length × dims, row-major. */
  matrix: Float32Array;
}

const cache = new Map<string, VectorSet>();
/** Indexes whose vectors are kept in memory (least recently used dropped first). */
const CACHED_INDEXES = 4;

function invalidateVectors(indexId: string): void {
  for (const k of cache.keys()) if (k.startsWith(`${indexId}|`)) cache.delete(k);
}

/** The index's vectors for `model` as one matrix, loaded once per (index, commit, model). */
async function vectorsOf(db: Db, indexId: string, commitSha: string, model: string): Promise<VectorSet> {
  const key = `${indexId}|${commitSha}|${model}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  invalidateVectors(indexId);
  const sql = new Sql(getConfig().provider);
  const rows = await db.$queryRawUnsafe<Array<{ chunkId: number | bigint; vector: Uint8Array }>>(
    `SELECT e."chunkId", e."vector" FROM "SearchEmbedding" e JOIN "SearchChunk" c ON c."id" = e."chunkId"
     WHERE e."model" = ${sql.p(model)} AND c."blobOid" IN (SELECT f."blobOid" FROM "SearchFile" f WHERE f."indexId" = ${sql.p(indexId)})`,
    ...sql.params,
  );
  const dims = rows.length ? rows[0]!.vector.byteLength / 4 : 0;
  const ids = new Int32Array(rows.length);
  const matrix = new Float32Array(rows.length * dims);
  rows.forEach((r, i) => {
    ids[i] = Number(r.chunkId);
    if (r.vector.byteLength === dims * 4) matrix.set(fromBytes(r.vector), i * dims);
  });
  const set = { key, ids, dims, matrix };
  cache.set(key, set);
  while (cache.size > CACHED_INDEXES) cache.delete(cache.keys().next().value!);
  return set;
}

/**
 * The `limit` chunks of index `indexId` most similar to `query` (cosine; vectors are unit
 * length, so a dot product), best first. Empty when the index has no vectors for `model`.
 */
export async function nearestChunks(db: Db, indexId: string, commitSha: string, model: string, query: Float32Array, limit: number): Promise<Array<{ chunkId: number; similarity: number }>> {
  const set = await vectorsOf(db, indexId, commitSha, model);
  if (set.dims !== query.length) return [];
  return topByDot(set.ids, set.matrix, set.dims, query, limit);
}

/**
 * Brute-force top `limit` rows of `matrix` by dot product with `q` (exported for the benchmark).
 * The dot product runs four lanes at once (independent sums let the JIT overlap the multiply-adds;
 * ~1.6× the one-accumulator loop); rows under the current floor are skipped without allocating.
 */
export function topByDot(ids: Int32Array, matrix: Float32Array, dims: number, q: Float32Array, limit: number): Array<{ chunkId: number; similarity: number }> {
  const n = ids.length;
  const top: Array<{ chunkId: number; similarity: number }> = [];
  let floor = -Infinity;
  const tail = dims - (dims % 4);
  for (let r = 0, o = 0; r < n; r++, o += dims) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let d = 0; d < tail; d += 4) {
      s0 += matrix[o + d]! * q[d]!;
      s1 += matrix[o + d + 1]! * q[d + 1]!;
      s2 += matrix[o + d + 2]! * q[d + 2]!;
      s3 += matrix[o + d + 3]! * q[d + 3]!;
    }
    for (let d = tail; d < dims; d++) s0 += matrix[o + d]! * q[d]!;
    const s = s0 + s1 + s2 + s3;
    if (top.length < limit || s > floor) {
      top.push({ chunkId: ids[r]!, similarity: s });
      if (top.length > limit * 2) {
        top.sort((a, b) => b.similarity - a.similarity);
        top.length = limit;
        floor = top[limit - 1]!.similarity;
      }
    }
  }
  top.sort((a, b) => b.similarity - a.similarity);
  return top.slice(0, limit);
}
