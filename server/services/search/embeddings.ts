/**
 * Chunk vectors for the hybrid engine (docs/ai.md "Vectors (server/services/search/vectors.ts)"):
 * the configured provider's embedding model (`embedMany` of the AI SDK) embeds each chunk once per
 * model (SearchEmbedding, float32, unit length); vectors.ts ranks them against a query's.
 */
import { embed, embedMany, type EmbeddingModel } from "ai";
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { Sql } from "@/server/services/issues/query";
import { retryOnUniqueViolation } from "@/server/db/unique-retry";
import { providerWords } from "@/server/ai/redact";

/** ModelEngine.embedding: the label (`openai:<model>`) and the model. */
export interface EmbeddingEngine {
  engine: string;
  model: EmbeddingModel;
}

/**
 * The embedding provider failed (unreachable, refused the key, rate-limited, answered nonsense).
 * `message` names the engine and the HTTP status only (what any reader of the repository sees);
 * `detail` adds the provider's own words with every key removed (server/ai/redact.ts), for
 * repository admins. The index refresh records both and keeps the lexical index (index-repo.ts);
 * a search falls back to lexical.
 */
export class EmbeddingProviderError extends Error {
  readonly detail: string;
  /**
   * `own`: svc's own finding about the answer (a vector of the wrong size), shown as it is;
   * otherwise `cause` is the provider's error.
   */
  constructor(engine: EmbeddingEngine, cause: unknown, own?: string) {
    const said = own ? null : providerWords(engine, cause);
    const generic = own ?? (said?.status ? `the provider answered ${said.status}` : "the provider could not be reached");
    super(`embedding with ${engine.engine} failed: ${generic}`);
    this.name = "EmbeddingProviderError";
    this.detail = said ? `embedding with ${engine.engine} failed${said.status ? ` ${said.status}` : ""}: ${said.words}` : this.message;
  }
}

/** Runs a provider call, its failures as EmbeddingProviderError. */
async function provider<T>(engine: EmbeddingEngine, call: () => Promise<T>): Promise<T> {
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
/**
 * Most dimensions a vector may have (the largest common models give 3 072 or 4 096): a provider
 * answering more is refused, so it cannot fill the database or the memory of a search.
 */
export const MAX_EMBEDDING_DIMS = 8_192;
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

/** The text a chunk is embedded as: its name and path-free content. */
function embedText(c: { name: string | null; content: string }): string {
  return (c.name ? `${c.name}\n` : "") + c.content.slice(0, EMBED_CHARS);
}

/**
 * Embeds the chunks of index `indexId` that have no vector for `e.engine` (at most
 * MAX_EMBED_PER_RUN), then marks the index as covered by that model when none are left (and
 * clears `embeddingError`). → chunks embedded. Provider errors throw EmbeddingProviderError
 * (the vectors of earlier batches stay stored; also for a vector of more than MAX_EMBEDDING_DIMS);
 * database errors propagate as they are.
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
    const { embeddings } = await provider(e, () => embedMany({ model: e.model, values: rows.map(embedText), maxRetries: 1 }));
    if (embeddings.length !== rows.length)
      throw new EmbeddingProviderError(e, null, `${embeddings.length} vectors for ${rows.length} texts`);
    const wide = embeddings.find((v) => v.length > MAX_EMBEDDING_DIMS || v.length === 0);
    if (wide) throw new EmbeddingProviderError(e, null, `a vector of ${wide.length} dimensions (1 to ${MAX_EMBEDDING_DIMS})`);
    const data = rows.map((r, i) => ({ chunkId: Number(r.id), model: e.engine, vector: toBytes(unit(embeddings[i]!)) }));
    await retryOnUniqueViolation(() =>
      db.$transaction(async (tx) => {
        const have = new Set(
          (
            await tx.searchEmbedding.findMany({
              where: { model: e.engine, chunkId: { in: data.map((d) => d.chunkId) } },
              select: { chunkId: true },
            })
          ).map((x) => x.chunkId),
        );
        const fresh = data.filter((d) => !have.has(d.chunkId));
        if (fresh.length) await tx.searchEmbedding.createMany({ data: fresh });
      }),
    );
    done += rows.length;
  }
  // the update also moves the index's version (vectors.ts vectorVersion): every process's loaded copy is out of date
  await db.searchIndex.update({
    where: { id: indexId },
    data: { embeddingModel: e.engine, embeddingError: null, embeddingErrorDetail: null, embeddingFailedAt: null },
  });
  return done;
}

/** The query's vector (unit length). Errors: EmbeddingProviderError. */
export async function embedQuery(e: EmbeddingEngine, query: string): Promise<Float32Array> {
  const { embedding } = await provider(e, () => embed({ model: e.model, value: query, maxRetries: 1 }));
  if (embedding.length > MAX_EMBEDDING_DIMS || embedding.length === 0)
    throw new EmbeddingProviderError(e, null, `a vector of ${embedding.length} dimensions (1 to ${MAX_EMBEDDING_DIMS})`);
  return unit(embedding);
}
