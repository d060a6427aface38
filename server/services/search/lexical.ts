/**
 * The lexical engine of semantic search (issue #10; docs/ai.md "Semantic search"): the database's
 * own full-text search over identifier-split words, names weighted —
 *   SQLite: FTS5 `bm25(SearchChunkFts, 8, 3, 1)` (name, doc comments, body), porter stemming;
 *   PostgreSQL: `ts_rank(tsv, query, 1)` over the generated tsvector (name A, doc B, body D),
 *   english stemming, GIN index.
 * Any query word may match (OR); the engine's rank orders the candidates. Then one small step in
 * JavaScript gives the spec's 0–1 `score`:
 *   score = 0.5 · rank / best rank among the candidates + 0.5 · coverage,
 * coverage = share of the query's words found in the chunk's name, comments, body or path (path
 * words count half). So a chunk holding every word of the query and ranked first scores 1; the
 * default minSimilarity 0.4 drops chunks that match few of the words and rank far below the best.
 */
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { readRows } from "@/server/db/read";
import { Sql } from "@/server/services/issues/query";
import { roughStem, splitIdentifier } from "./tokens";

export interface ChunkHit {
  chunkId: number;
  path: string;
  startLine: number;
  endLine: number;
  chunkType: string;
  name: string | null;
  language: string;
  content: string;
  /** The engine's own rank (higher is better). */
  rank: number;
  /** 0–1, see the module comment. */
  score: number;
}

interface Row {
  id: number | bigint;
  path: string;
  startLine: number | bigint;
  endLine: number | bigint;
  chunkType: string;
  name: string | null;
  language: string;
  content: string;
  words: string;
  rank: number;
}

/** SQL conditions on the file path for `fileTypes` (extensions, with or without the dot). */
function fileTypeSql(sql: Sql, fileTypes: string[] | undefined): string {
  if (!fileTypes?.length) return "";
  const likes = fileTypes.map((t) => `f."path" LIKE ${sql.p(`%.${t.replace(/^\./, "").replace(/[%_\\]/g, "")}`)}`);
  return ` AND (${likes.join(" OR ")})`;
}

/**
 * The `limit` best chunks of index `indexId` for `words` (tokens.ts queryWords), with scores.
 * `fileTypes` filters in SQL; path globs are the caller's (ask for more candidates then).
 */
export async function lexicalSearch(db: Db, indexId: string, words: string[], limit: number, fileTypes?: string[]): Promise<ChunkHit[]> {
  const clean = words.map((w) => w.toLowerCase().replace(/[^a-z0-9]/g, "")).filter(Boolean);
  if (!clean.length) return [];
  const sql = new Sql(getConfig().provider);
  let text: string;
  if (sql.dialect === "postgresql") {
    const q = sql.p(clean.join(" | "));
    text = `SELECT c."id", f."path", c."startLine", c."endLine", c."chunkType", c."name", c."language", c."content",
        c."nameText" || ' ' || c."docText" AS "words", ts_rank(c."tsv", q, 1) AS "rank"
      FROM "SearchChunk" c JOIN "SearchFile" f ON f."blobOid" = c."blobOid", to_tsquery('english'::regconfig, ${q}) q
      WHERE f."indexId" = ${sql.p(indexId)} AND c."tsv" @@ q${fileTypeSql(sql, fileTypes)}
      ORDER BY "rank" DESC, c."id" LIMIT ${sql.int(limit)}`;
  } else {
    const match = sql.p(clean.map((w) => `"${w}"`).join(" OR "));
    text = `SELECT c."id", f."path", c."startLine", c."endLine", c."chunkType", c."name", c."language", c."content",
        c."nameText" || ' ' || c."docText" AS "words", -bm25("SearchChunkFts", 8.0, 3.0, 1.0) AS "rank"
      FROM "SearchChunkFts" JOIN "SearchChunk" c ON c."id" = "SearchChunkFts".rowid JOIN "SearchFile" f ON f."blobOid" = c."blobOid"
      WHERE "SearchChunkFts" MATCH ${match} AND f."indexId" = ${sql.p(indexId)}${fileTypeSql(sql, fileTypes)}
      ORDER BY "rank" DESC, c."id" LIMIT ${sql.int(limit)}`;
  }
  const rows = await readRows<Row>(db, text, sql.params);
  return scoreHits(rows, clean);
}

/** The 0–1 scores of the module comment, best first. */
function scoreHits(rows: Row[], words: string[]): ChunkHit[] {
  if (!rows.length) return [];
  const stems = words.map(roughStem);
  const best = Math.max(...rows.map((r) => Number(r.rank))) || 1;
  const hits = rows.map((r): ChunkHit => {
    const own = new Set(`${r.words} ${r.content}`.toLowerCase().match(/[a-z0-9]+/g)?.flatMap((w) => [w, ...splitIdentifier(w)]).map(roughStem) ?? []);
    for (const w of (r.content.match(/[A-Za-z0-9]+/g) ?? []).flatMap(splitIdentifier)) own.add(roughStem(w));
    const pathWords = new Set(splitIdentifier(r.path).map(roughStem));
    let covered = 0;
    stems.forEach((s) => {
      if (own.has(s)) covered += 1;
      else if (pathWords.has(s)) covered += 0.5;
    });
    const pathBoost = stems.filter((s) => pathWords.has(s)).length / stems.length;
    const rank = Number(r.rank) * (1 + 0.2 * pathBoost);
    const coverage = covered / stems.length;
    return {
      chunkId: Number(r.id), path: r.path, startLine: Number(r.startLine), endLine: Number(r.endLine), chunkType: r.chunkType,
      name: r.name, language: r.language, content: r.content, rank,
      score: Math.min(1, 0.5 * Math.min(1, Math.max(0, rank / best)) + 0.5 * coverage),
    };
  });
  return hits.sort((a, b) => b.score - a.score || b.rank - a.rank || a.chunkId - b.chunkId);
}
