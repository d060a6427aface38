/**
 * The hybrid engine's fusion, reciprocal rank fusion of vector similarity and lexical score
 * (docs/ai.md "Engines: which serves which case"): one ranking from the lexical
 * engine's and the vectors' (Cormack, Clarke & Büttcher 2009, k = 60).
 */
import type { Db } from "@/server/db";
import { readRows } from "@/server/db/read";
import { getConfig } from "@/server/config";
import { Sql } from "@/server/services/issues/query";
import type { ChunkHit } from "./lexical";

/** Reciprocal rank fusion constant (Cormack et al. 2009). */
const RRF_K = 60;

/** What the fusion keeps: path filter, extensions, the score floor (minSimilarity) and how many. */
export interface FusionCut {
  keep: (h: { path: string }) => boolean;
  /** Extensions (`ts` or `.ts`); empty or absent: all. */
  fileTypes?: string[];
  /** 0–1: results scoring lower are left out (ai.semanticSearch's minSimilarity). */
  minScore: number;
  limit: number;
}

/**
 * Vector and lexical rankings fused by reciprocal rank: Σ 1/(60 + rank). The score is the fused
 * value over its maximum (first in both lists = 1); a chunk only one ranking found scores ≤ 0.5.
 * So minSimilarity keeps chunks both engines agree on first; with the default 0.4 a chunk found
 * by one ranking stays while it is in that ranking's top ~15. `lexical`: lexicalSearch's hits
 * (already path-filtered); `near`: nearestChunks's, best first. → the best `cut.limit` hits
 * scoring at least `cut.minScore`, best first (ties by chunk id).
 *
 * Chunks only the vectors found are read in two steps, both by primary key: their paths (to
 * filter and rank; only those whose score can reach minScore), then the text and lines of the
 * ones that made the cut — not the text of all 200 candidates.
 */
export async function fuseRankings(
  db: Db,
  indexId: string,
  lexical: ChunkHit[],
  near: Array<{ chunkId: number }>,
  cut: FusionCut,
): Promise<ChunkHit[]> {
  const max = 2 / (RRF_K + 1);
  const value = new Map<number, number>(); // per chunk: its vector rank's share
  near.forEach((n, i) => value.set(n.chunkId, 1 / (RRF_K + i + 1)));
  const ranked: Array<{ hit?: ChunkHit; chunkId: number; path: string; value: number }> = lexical.map((h, i) => ({
    hit: h,
    chunkId: h.chunkId,
    path: h.path,
    value: 1 / (RRF_K + i + 1) + (value.get(h.chunkId) ?? 0),
  }));
  const inLexical = new Set(lexical.map((h) => h.chunkId));
  const vectorOnly = near.filter((n) => !inLexical.has(n.chunkId) && value.get(n.chunkId)! / max >= cut.minScore).map((n) => n.chunkId);
  for (const [chunkId, path] of await chunkPaths(db, indexId, vectorOnly)) ranked.push({ chunkId, path, value: value.get(chunkId)! });
  const wanted = (path: string) =>
    cut.keep({ path }) && (!cut.fileTypes?.length || cut.fileTypes.some((t) => path.endsWith(`.${t.replace(/^\./, "")}`)));
  const best = ranked
    .filter((r) => r.value / max >= cut.minScore && wanted(r.path))
    .sort((a, b) => b.value - a.value || a.chunkId - b.chunkId)
    .slice(0, cut.limit);
  const rows = await chunkRows(db, [...new Set(best.filter((r) => !r.hit).map((r) => r.chunkId))]);
  return best.flatMap((r) => {
    const h = r.hit ?? rows.get(r.chunkId);
    return h ? [{ ...h, path: r.path, score: r.value / max, rank: r.value }] : [];
  });
}

/** The paths in index `indexId` of the blobs holding chunks `ids`: [chunk id, path] pairs. */
async function chunkPaths(db: Db, indexId: string, ids: number[]): Promise<Array<[number, string]>> {
  if (!ids.length) return [];
  const sql = new Sql(getConfig().provider);
  const rows = await readRows<{ id: number | bigint; path: string }>(
    db,
    `SELECT c."id", f."path" FROM "SearchChunk" c JOIN "SearchFile" f ON f."blobOid" = c."blobOid" AND f."indexId" = ${sql.p(indexId)} WHERE c."id" IN (${sql.list(ids)})`,
    sql.params,
  );
  return rows.map((r) => [Number(r.id), r.path]);
}

/** Chunks `ids` (their lines, kind, name, language and text; `path` filled in by the caller). */
async function chunkRows(db: Db, ids: number[]): Promise<Map<number, ChunkHit>> {
  if (!ids.length) return new Map();
  const sql = new Sql(getConfig().provider);
  const rows = await readRows<{
    id: number | bigint;
    startLine: number | bigint;
    endLine: number | bigint;
    chunkType: string;
    name: string | null;
    language: string;
    content: string;
  }>(
    db,
    `SELECT c."id", c."startLine", c."endLine", c."chunkType", c."name", c."language", c."content" FROM "SearchChunk" c WHERE c."id" IN (${sql.list(ids)})`,
    sql.params,
  );
  return new Map(
    rows.map((c) => [
      Number(c.id),
      {
        chunkId: Number(c.id),
        path: "",
        startLine: Number(c.startLine),
        endLine: Number(c.endLine),
        chunkType: c.chunkType,
        name: c.name,
        language: c.language,
        content: c.content,
        rank: 0,
        score: 0,
      },
    ]),
  );
}
