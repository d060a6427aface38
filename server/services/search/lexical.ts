/**
 * The lexical engine of semantic search (docs/ai.md "Engines: which serves which case"): the database's
 * own full-text search over identifier-split words, names weighted —
 *   SQLite: FTS5 `bm25(SearchChunkFts, 20, 5, 1)` (name, doc comments, body), porter stemming;
 *   PostgreSQL: bm25 computed in SQL — Σ idf(word) · saturated `20 · ts_rank({0.05, 0.2, 0.25, 1},
 *   tsv, word, 0)`, length-normalised — over the generated tsvector (name A, doc B, body D),
 *   english stemming, GIN index.
 * Speed (docs/performance.md "Semantic search speed"): only the rarer query words pick candidates (RANK_BUDGET), the
 * engine ranks its best 2 × candidates before any join (INNER_FACTOR), the blend scans only words
 * that start like a query word.
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
 * Query vocabulary (vocabulary.ts): the code words of the query's words ("highest" → max) join
 * the match as alternatives; the engine ranks each at ALTERNATIVE_RANK_WEIGHT of a query word
 * (FTS5: a second bm25 over the alternatives, scaled and added; PostgreSQL: their idf scaled), and
 * the coverage counts a query word (once) as covered by a chunk holding one of its alternatives.
 */
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { readRows } from "@/server/db/read";
import { Sql } from "@/server/services/issues/query";
import { roughStem, splitIdentifier } from "./tokens";
import { chunkTotal, pgLexemeFreqs } from "./lexical-stats";
import { ALTERNATIVE_COVERAGE, ALTERNATIVE_RANK_WEIGHT, expandWords, type Expansion } from "./vocabulary";

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
 * sources, 35 questions; docs/performance.md "Semantic search quality"): engine rank, coverage of
 * the query's words, their coverage by the chunk's name (blocks: half their coverage), a path boost
 * of the engine rank, and a prior for blocks of lines (functions, classes and methods answer
 * questions more often).
 */
const WEIGHTS = { rel: 0.4, coverage: 0.3, name: 1.2, path: 0.3, block: 0.8 };

/** SQL conditions on the file path for `fileTypes` (extensions, with or without the dot). */
function fileTypeSql(sql: Sql, fileTypes: string[] | undefined): string {
  if (!fileTypes?.length) return "";
  const likes = fileTypes.map((t) => `f."path" LIKE ${sql.p(`%.${t.replace(/^\./, "").replace(/[%_\\]/g, "")}`)}`);
  return ` AND (${likes.join(" OR ")})`;
}

/**
 * The full-text statement for `words`: the engine's `inner` best matches over the whole table
 * (every index's chunks; null: all matches), then those of index `indexId`, best `limit` first.
 * Ranking only a bounded set and joining only those rows is what keeps a query over 100k chunks
 * fast (docs/performance.md "Semantic search speed"); the caller widens `inner` when it was too few.
 */
function statement(sql: Sql, indexId: string, words: Picked[], limit: number, inner: number | null, fileTypes?: string[]): string {
  const cols = `c."id", f."path", c."startLine", c."endLine", c."chunkType", c."name", c."language", c."content", c."nameText", c."docText", c."bodyText"`;
  const term = (w: Picked) => (prefixed(w.word, w.alternative) ? `${w.word}:*` : w.word);
  if (sql.dialect === "postgresql") {
    const q = sql.p(words.map(term).join(" | "));
    // bm25 on PostgreSQL (FTS5's formula, k1 = 1.2; b = 0.9 — tuned on the zod set, FTS5 uses
    // 0.75; the lexeme count is shorter than FTS5's token count): per query word, idf × a saturated
    // term frequency, where the frequency is ts_rank over the weighted tsvector (name A 1,
    // comments B 0.25, body D 0.05 — FTS5's column weights 20 : 5 : 1) scaled by 20, and the
    // length is the chunk's lexeme count over the average of the matches
    const tfs = words
      .map(
        (w, i) => `${PG_TF_SCALE} * ts_rank('${PG_WEIGHTS}', c."tsv", to_tsquery('english'::regconfig, ${sql.p(term(w))}), 0) AS "t${i}"`,
      )
      .join(", ");
    const rank = words
      .map((w, i) => `${(w.idf * w.weight).toFixed(4)} * (m."t${i}" * 2.2) / (m."t${i}" + 1.2 * (0.1 + 0.9 * m."rl"))`)
      .join(" + ");
    return `WITH q AS (SELECT to_tsquery('english'::regconfig, ${q}) AS q),
      hits AS (SELECT m."id", ${rank} AS "rank" FROM (SELECT c."id", ${tfs}, length(c."tsv")::float8 / greatest(1, avg(length(c."tsv")) OVER ()) AS "rl" FROM "SearchChunk" c, q WHERE c."tsv" @@ q.q) m
        ORDER BY "rank" DESC, m."id"${inner === null ? "" : ` LIMIT ${sql.int(inner)}`})
      SELECT ${cols}, h."rank" FROM hits h JOIN "SearchChunk" c ON c."id" = h."id" JOIN "SearchFile" f ON f."blobOid" = c."blobOid"
      WHERE f."indexId" = ${sql.p(indexId)}${fileTypeSql(sql, fileTypes)}
      ORDER BY h."rank" DESC, c."id" LIMIT ${sql.int(limit)}`;
  }
  const matchOf = (ws: Picked[]) => sql.p(ws.map((w) => (prefixed(w.word, w.alternative) ? `"${w.word}"*` : `"${w.word}"`)).join(" OR "));
  const own = words.filter((w) => !w.alternative);
  const alt = words.filter((w) => w.alternative);
  const bm25 = `-bm25("SearchChunkFts", 20.0, 5.0, 1.0)`;
  const limitInner = inner === null ? "" : ` LIMIT ${sql.int(inner)}`;
  // alternatives (vocabulary.ts): bm25 is a sum over the query's words, so a second bm25 over the
  // alternatives, scaled, added per chunk ranks them at ALTERNATIVE_RANK_WEIGHT of a query word
  // (one group alone — no alternatives, or only alternatives matched — is one statement: bm25
  // cannot run under the GROUP BY of a flattened single select)
  const groups = [own, alt].filter((ws) => ws.length);
  const part = (ws: Picked[]) =>
    `SELECT rowid AS "id", ${ws[0]!.weight} * ${bm25} AS "${groups.length > 1 ? "r" : "rank"}" FROM "SearchChunkFts" WHERE "SearchChunkFts" MATCH ${matchOf(ws)}`;
  const hits =
    groups.length > 1
      ? `WITH m AS (${groups.map(part).join(" UNION ALL ")}),
      hits AS (SELECT "id", sum("r") AS "rank" FROM m GROUP BY "id" ORDER BY "rank" DESC${limitInner})`
      : `WITH hits AS (${part(groups[0]!)} ORDER BY "rank" DESC${limitInner})`;
  return `${hits}
    SELECT ${cols}, h."rank" FROM hits h JOIN "SearchChunk" c ON c."id" = h."id" JOIN "SearchFile" f ON f."blobOid" = c."blobOid"
    WHERE f."indexId" = ${sql.p(indexId)}${fileTypeSql(sql, fileTypes)}
    ORDER BY h."rank" DESC, c."id" LIMIT ${sql.int(limit)}`;
}

/**
 * Whether the engine matches `word` as a prefix too: a query word of 4+ letters ("slug" finds
 * slugify); an alternative (vocabulary.ts) never — it is a code word already ("desc" must not
 * find "description").
 */
function prefixed(word: string, alternative: boolean): boolean {
  return word.length >= 4 && !alternative;
}

/** A word that picks candidates: its idf over the whole table, whether it is an alternative (vocabulary.ts), and its rank weight (1, or ALTERNATIVE_RANK_WEIGHT). */
interface Picked {
  word: string;
  idf: number;
  alternative: boolean;
  weight: number;
}

/** ts_rank's weights {D, C, B, A} (body, -, comments, name): FTS5's bm25 column weights 1 : 5 : 20. */
const PG_WEIGHTS = "{0.05, 0.2, 0.25, 1.0}";
/** ts_rank (no normalisation) × this is the term frequency bm25 saturates: a name match ≈ 20, as in FTS5. */
const PG_TF_SCALE = 20;

/** The engine's matches ranked first: this many times the candidates asked for (other indexes' chunks share the table). */
const INNER_FACTOR = 2;
/**
 * Rows the engine ranks at most, roughly: query words pick candidates rarest first while their
 * matches add up to no more than this (the rarest word always picks). The other (common) words
 * still count in the blend's coverage; bm25 / ts_rank give them little weight anyway (a low idf),
 * but ranking their tens of thousands of matches is what made a query over 100k chunks slow —
 * every match is a row the engine reads (docs/performance.md "Semantic search speed").
 */
const RANK_BUDGET = 4_000;

/**
 * The words of `words` that pick candidates (RANK_BUDGET): each word's matches are estimated,
 * then words are taken rarest first while the sum stays within the budget (at least one); the
 * alternatives of vocabulary.ts only after the query's own words, in the budget left.
 * SQLite: one statement counting each word's FTS5 matches up to the budget (a common word costs
 * at most that many index entries). PostgreSQL: the words' english stems (`ts_lexize`) against
 * the column's lexeme statistics (pgLexemeFreqs; a prefix word sums the lexemes it prefixes, an
 * upper bound; an unlisted lexeme counts as the rarest listed) times the table's row count; no
 * statistics yet (never analyzed): every word picks.
 */
async function candidateWords(db: Db, provider: "sqlite" | "postgresql", words: string[], alternatives: Set<string>): Promise<Picked[]> {
  const sql = new Sql(provider);
  const total = await chunkTotal(db, provider);
  let matches: number[] | null = null;
  if (provider === "postgresql") {
    const freq = total > RANK_BUDGET ? await pgLexemeFreqs(db) : new Map<string, number>();
    if (freq.size) {
      const floor = Math.min(...freq.values());
      const [row] = await readRows<Record<string, string | null>>(
        db,
        `SELECT ${words.map((w, i) => `array_to_string(ts_lexize('english_stem', ${sql.p(w)}), ' ') AS "w${i}"`).join(", ")}`,
        sql.params,
      );
      matches = words.map((w, i) => {
        let share = 0;
        for (const stemmed of (row?.[`w${i}`] ?? w).split(" ").filter(Boolean)) {
          let found = 0;
          if (prefixed(w, alternatives.has(w))) for (const [lex, f] of freq) found += lex.startsWith(stemmed) ? f : 0;
          else found = freq.get(stemmed) ?? 0;
          share += found || floor;
        }
        return share * total;
      });
    }
  }
  if (!matches) {
    // FTS5 (or PostgreSQL without statistics): count each word's matches, at most the budget + 1
    const counts = words.map((w, i) => {
      const inner =
        provider === "postgresql"
          ? `SELECT 1 FROM "SearchChunk" WHERE "tsv" @@ to_tsquery('english'::regconfig, ${sql.p(prefixed(w, alternatives.has(w)) ? `${w}:*` : w)}) LIMIT ${sql.int(RANK_BUDGET + 1)}`
          : `SELECT 1 FROM "SearchChunkFts" WHERE "SearchChunkFts" MATCH ${sql.p(prefixed(w, alternatives.has(w)) ? `"${w}"*` : `"${w}"`)} LIMIT ${sql.int(RANK_BUDGET + 1)}`;
      return `(SELECT count(*) FROM (${inner}) x${i}) AS "w${i}"`;
    });
    const [row] = await readRows<Record<string, number | bigint>>(db, `SELECT ${counts.join(", ")}`, sql.params);
    matches = words.map((_, i) => Number(row?.[`w${i}`] ?? 0));
  }
  const order = words
    .map((word, i) => ({
      word,
      n: matches[i]!,
      idf: Math.log(1 + (total - matches[i]! + 0.5) / (matches[i]! + 0.5)),
      alternative: alternatives.has(word),
      weight: alternatives.has(word) ? ALTERNATIVE_RANK_WEIGHT : 1,
    }))
    .sort((a, b) => a.n - b.n);
  if (total <= RANK_BUDGET) return order.filter((o) => o.n > 0).map(({ n: _, ...o }) => o);
  // the query's words rarest first within the budget (the rarest always), then alternatives in
  // what is left: an alternative never takes the budget from a word the person typed
  const picked: Picked[] = [];
  let sum = 0;
  for (const { n, ...o } of [...order.filter((o) => !o.alternative), ...order.filter((o) => o.alternative)]) {
    if (picked.length && sum + n > RANK_BUDGET) continue;
    picked.push(o);
    sum += n;
  }
  return picked;
}

/**
 * The `limit` best chunks of index `indexId` for `words` (tokens.ts queryWords), with scores.
 * `fileTypes` filters in SQL; path globs are the caller's (ask for more candidates then).
 * The engine ranks its INNER_FACTOR × limit best matches over all indexes first; when fewer than
 * `limit` of them belong to this index (other repositories, a `fileTypes` filter) and there were
 * more matches, the query runs again over every match — the same rows the unbounded query gives.
 */
export async function lexicalSearch(db: Db, indexId: string, words: string[], limit: number, fileTypes?: string[]): Promise<ChunkHit[]> {
  const clean = [...new Set(words.map((w) => w.toLowerCase().replace(/[^a-z0-9]/g, "")).filter(Boolean))];
  if (!clean.length) return [];
  const provider = getConfig().provider;
  const expansions = expandWords(clean);
  const picking = await candidateWords(db, provider, [...clean, ...expansions.map((e) => e.word)], new Set(expansions.map((e) => e.word)));
  if (!picking.length) return [];
  const run = (inner: number | null) => {
    const sql = new Sql(provider);
    return readRows<Row>(db, statement(sql, indexId, picking, limit, inner, fileTypes), sql.params);
  };
  const inner = limit * INNER_FACTOR;
  let rows = await run(inner);
  if (rows.length < limit) rows = await run(null);
  return scoreHits(rows, clean, expansions);
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
 * Which of `stems` occur among the space-separated search words `text`. A word's rough stem is a
 * prefix of the word, so one regular expression (`starts`: words starting with a stem) finds the
 * few words worth stemming; the rest of a long chunk is never split or stemmed.
 */
function stemsOf(text: string, stems: Set<string>, starts: RegExp): Set<string> {
  const out = new Set<string>();
  starts.lastIndex = 0;
  for (const m of text.matchAll(starts)) {
    const s = stem(m[1]!);
    if (stems.has(s)) out.add(s);
  }
  return out;
}

/**
 * The 0–1 scores of the module comment, best first. `expansions` (vocabulary.ts): a query word
 * is also covered (ALTERNATIVE_COVERAGE) by a chunk holding one of its alternatives.
 */
function scoreHits(rows: Row[], words: string[], expansions: Expansion[] = []): ChunkHit[] {
  if (!rows.length) return [];
  const stems = [...new Set(words.map(stem))];
  // each query word's stem → the stems of its alternatives (not query stems themselves)
  const alts = new Map<string, string[]>(stems.map((s) => [s, []]));
  for (const e of expansions) {
    const a = stem(e.word);
    if (!alts.has(a)) alts.get(stem(e.of))?.push(a);
  }
  const best = Math.max(...rows.map((r) => Number(r.rank))) || 1;
  const { rel: wRel, coverage: wCov, name: wName, path: wPath, block: blockPrior } = WEIGHTS;
  // each word weighs by its rarity among the candidates (inverse document frequency), so the
  // rare word of a query ("plain" in "is a plain object") counts more than the common ones
  const stemSet = new Set([...stems, ...[...alts.values()].flat()]);
  const starts = new RegExp(`(?:^| )((?:${[...stemSet].sort((a, b) => b.length - a.length).join("|")})[a-z0-9]*)`, "g");
  const docs = rows.map((r) => {
    const name = stemsOf(r.nameText, stemSet, starts);
    const own = new Set([...name, ...stemsOf(r.docText, stemSet, starts), ...stemsOf(r.bodyText, stemSet, starts)]);
    return { name, own, path: new Set(splitIdentifier(r.path).map(stem)) };
  });
  const weight = new Map(stems.map((s) => [s, Math.log(1 + rows.length / (1 + docs.filter((d) => d.own.has(s) || d.path.has(s)).length))]));
  const total = [...weight.values()].reduce((a, b) => a + b, 0) || 1;
  // how much `set` holds query stem `s`: 1 itself, ALTERNATIVE_COVERAGE through an alternative, else 0
  const holds = (set: Set<string>, s: string) => (set.has(s) ? 1 : alts.get(s)!.some((a) => set.has(a)) ? ALTERNATIVE_COVERAGE : 0);
  const hits = rows.map((r, i): ChunkHit & { coverage: number } => {
    const { name, own, path: pathWords } = docs[i]!;
    let covered = 0;
    let named = 0;
    let inPath = 0;
    for (const s of stems) {
      const w = weight.get(s)!;
      const inOwn = holds(own, s);
      const inPathWords = holds(pathWords, s);
      covered += w * Math.max(inOwn, inPathWords / 2);
      // a chunk without a name (a block of lines) gets half its coverage here
      named += r.name ? w * holds(name, s) : (w / 2) * inOwn;
      inPath += w * inPathWords;
    }
    const rank = Number(r.rank) * (1 + wPath * (inPath / total));
    const rel = Math.min(1, Math.max(0, rank / best));
    const prior = r.chunkType === "block" ? blockPrior : 1;
    const score = (prior * (wRel * rel + wCov * (covered / total) + wName * (named / total))) / (wRel + wCov + wName);
    return {
      chunkId: Number(r.id),
      path: r.path,
      startLine: Number(r.startLine),
      endLine: Number(r.endLine),
      chunkType: r.chunkType,
      name: r.name,
      language: r.language,
      content: r.content,
      rank,
      score,
      coverage: covered / total,
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
