/**
 * The lexical engine of semantic search (issue #10; docs/ai.md "Semantic search"): the database's
 * own full-text search over identifier-split words, names weighted —
 *   SQLite: FTS5 `bm25(SearchChunkFts, 8, 3, 1)` (name, doc comments, body), porter stemming;
 *   PostgreSQL: `ts_rank(tsv, query, 1)` over the generated tsvector (name A, doc B, body D),
 *   english stemming, GIN index.
 * Any query word may match (OR; words of 4+ letters also as prefixes: "slug" finds slugify);
 * the engine's rank picks the 200 best candidates. Then one step in JavaScript gives the spec's
 * 0–1 `score`, over those candidates:
 *   score = prior · (0.4 · rank / best rank + 0.3 · coverage + 1.2 · name coverage) / 1.9
 * coverage = the share of the query's words found in the chunk (name, comments, body; path words
 * half), each word weighted by its rarity among the candidates (idf); name coverage the same for
 * the chunk's name (a nameless block: half its coverage); the rank gets +30 % × the share of
 * query words in the path; prior 0.8 for blocks, else 1. So a function whose name holds the
 * query's words and that the engine ranks first blends near 1. The reported score is that blend
 * relative to the best candidate's, times (0.5 + 0.5 · the best one's coverage): the best hit
 * scores 0.5–1 by how much of the query it holds, the others in proportion. So the default
 * minSimilarity 0.4 keeps the chunks that blend at least ~40–80 % as well as the best one.
 * (Weights: WEIGHTS below.)
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
  nameText: string;
  docText: string;
  bodyText: string;
  rank: number;
}


/**
 * The blend of the 0–1 score (module comment), tuned on bench/search-quality.bench.ts (zod's
 * sources, 35 questions; docs/performance.md): engine rank, coverage of the query's words, their
 * coverage by the chunk's name (blocks: half their coverage), a path boost of the engine rank,
 * and a prior for blocks of lines (functions, classes and methods answer questions more often).
 */
const WEIGHTS = { rel: 0.4, coverage: 0.3, name: 1.2, path: 0.3, block: 0.8 };

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
    const q = sql.p(clean.map((w) => (w.length >= 4 ? `${w}:*` : w)).join(" | "));
    text = `SELECT c."id", f."path", c."startLine", c."endLine", c."chunkType", c."name", c."language", c."content",
        c."nameText", c."docText", c."bodyText", ts_rank(c."tsv", q, 1) AS "rank"
      FROM "SearchChunk" c JOIN "SearchFile" f ON f."blobOid" = c."blobOid", to_tsquery('english'::regconfig, ${q}) q
      WHERE f."indexId" = ${sql.p(indexId)} AND c."tsv" @@ q${fileTypeSql(sql, fileTypes)}
      ORDER BY "rank" DESC, c."id" LIMIT ${sql.int(limit)}`;
  } else {
    const match = sql.p(clean.map((w) => (w.length >= 4 ? `"${w}"*` : `"${w}"`)).join(" OR "));
    text = `SELECT c."id", f."path", c."startLine", c."endLine", c."chunkType", c."name", c."language", c."content",
        c."nameText", c."docText", c."bodyText", -bm25("SearchChunkFts", 20.0, 5.0, 1.0) AS "rank"
      FROM "SearchChunkFts" JOIN "SearchChunk" c ON c."id" = "SearchChunkFts".rowid JOIN "SearchFile" f ON f."blobOid" = c."blobOid"
      WHERE "SearchChunkFts" MATCH ${match} AND f."indexId" = ${sql.p(indexId)}${fileTypeSql(sql, fileTypes)}
      ORDER BY "rank" DESC, c."id" LIMIT ${sql.int(limit)}`;
  }
  const rows = await readRows<Row>(db, text, sql.params);
  return scoreHits(rows, clean);
}

const stemCache = new Map<string, string>();
/** roughStem, remembered (the same few thousand words come back in every query). */
function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = roughStem(word);
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/**
 * Which of `stems` occur among the space-separated search words `words`. A word's rough stem is
 * a prefix of the word, so only words starting with a stem's first two letters are stemmed.
 */
function stemsOf(words: string, stems: string[], heads: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const w of words.split(" ")) {
    if (w.length < 2 || !heads.has(w.slice(0, 2))) continue;
    const s = stem(w);
    if (stems.includes(s)) out.add(s);
  }
  return out;
}

/** The 0–1 scores of the module comment, best first. */
function scoreHits(rows: Row[], words: string[]): ChunkHit[] {
  if (!rows.length) return [];
  const stems = [...new Set(words.map(stem))];
  const best = Math.max(...rows.map((r) => Number(r.rank))) || 1;
  const { rel: wRel, coverage: wCov, name: wName, path: wPath, block: blockPrior } = WEIGHTS;
  // each word weighs by its rarity among the candidates (inverse document frequency), so the
  // rare word of a query ("plain" in "is a plain object") counts more than the common ones
  const heads = new Set(stems.map((s) => s.slice(0, 2)));
  const docs = rows.map((r) => ({ name: stemsOf(r.nameText, stems, heads), own: stemsOf(`${r.nameText} ${r.docText} ${r.bodyText}`, stems, heads), path: new Set(splitIdentifier(r.path).map(stem)) }));
  const weight = new Map(stems.map((s) => [s, Math.log(1 + rows.length / (1 + docs.filter((d) => d.own.has(s) || d.path.has(s)).length))]));
  const total = [...weight.values()].reduce((a, b) => a + b, 0) || 1;
  const hits = rows.map((r, i): ChunkHit & { coverage: number } => {
    const { name, own, path: pathWords } = docs[i]!;
    let covered = 0;
    let named = 0;
    let inPath = 0;
    for (const s of stems) {
      const w = weight.get(s)!;
      if (own.has(s)) covered += w;
      else if (pathWords.has(s)) covered += w / 2;
      // a chunk without a name (a block of lines) gets half its coverage here
      if (r.name ? name.has(s) : own.has(s)) named += r.name ? w : w / 2;
      if (pathWords.has(s)) inPath += w;
    }
    const rank = Number(r.rank) * (1 + wPath * (inPath / total));
    const rel = Math.min(1, Math.max(0, rank / best));
    const prior = r.chunkType === "block" ? blockPrior : 1;
    const score = (prior * (wRel * rel + wCov * (covered / total) + wName * (named / total))) / (wRel + wCov + wName);
    return {
      chunkId: Number(r.id), path: r.path, startLine: Number(r.startLine), endLine: Number(r.endLine), chunkType: r.chunkType,
      name: r.name, language: r.language, content: r.content, rank, score, coverage: covered / total,
    };
  });
  // the reported score: the blend relative to the best candidate's, times how much of the query
  // that best one covers (0.5–1), so the order is the blend's and a query nothing answers well
  // does not put a 1.0 on top
  const top = hits.reduce((a, b) => (b.score > a.score ? b : a), hits[0]!);
  const scale = top.score > 0 ? (0.5 + 0.5 * top.coverage) / top.score : 0;
  for (const h of hits) h.score = Math.min(1, h.score * scale);
  return hits.sort((a, b) => b.score - a.score || b.rank - a.rank || a.chunkId - b.chunkId).map(({ coverage: _, ...h }) => h);
}
