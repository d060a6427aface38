/**
 * The table statistics the lexical engine (lexical.ts) picks its candidate words by: the number of
 * chunks of every index and PostgreSQL's own lexeme statistics of the full-text column, each kept
 * STATS_TTL_MS per process and per database client.
 */
import type { Db } from "@/server/db";
import { readRows } from "@/server/db/read";

/** How long the chunk count and PostgreSQL's lexeme statistics are reused (ms), each by the client (database) it was read through. */
const STATS_TTL_MS = 60_000;
let totalChunks: { n: number; at: number; provider: string; db: Db } | null = null;
let lexemeStats: { freq: Map<string, number>; at: number; db: Db } | null = null;

/**
 * Forgets the cached chunk count and lexeme statistics (benchmarks that replace the whole index
 * between runs; a server re-reads them after STATS_TTL_MS anyway).
 */
export function forgetLexicalStats(): void {
  totalChunks = null;
  lexemeStats = null;
}

/** All chunks of every index (the full-text table's size), re-counted at most every STATS_TTL_MS. */
export async function chunkTotal(db: Db, provider: string): Promise<number> {
  if (totalChunks && totalChunks.db === db && totalChunks.provider === provider && Date.now() - totalChunks.at < STATS_TTL_MS)
    return totalChunks.n;
  // PostgreSQL: the planner's row estimate (the same ANALYZE as the lexeme statistics), else a count
  const [est] =
    provider === "postgresql"
      ? await readRows<{ n: number }>(db, `SELECT reltuples::float8 AS "n" FROM pg_class WHERE oid = '"SearchChunk"'::regclass`, [])
      : [];
  const [row] =
    est && Number(est.n) >= 0 ? [est] : await readRows<{ n: number | bigint }>(db, `SELECT count(*) AS "n" FROM "SearchChunk"`, []);
  totalChunks = { n: Number(row?.n ?? 0), at: Date.now(), provider, db };
  return totalChunks.n;
}

/**
 * PostgreSQL's own statistics of the tsvector column (ANALYZE, autovacuum): its most common
 * lexemes (up to 10 × the statistics target, default 1 000) with the share of rows holding each;
 * a lexeme not listed is rarer than every listed one. Empty before the first ANALYZE.
 */
export async function pgLexemeFreqs(db: Db): Promise<Map<string, number>> {
  if (lexemeStats && lexemeStats.db === db && Date.now() - lexemeStats.at < STATS_TTL_MS) return lexemeStats.freq;
  const rows = await readRows<{ e: string[] | null; f: number[] | null }>(
    db,
    `SELECT most_common_elems::text::text[] AS "e", most_common_elem_freqs AS "f" FROM pg_stats
     WHERE schemaname = current_schema() AND tablename = 'SearchChunk' AND attname = 'tsv'`,
    [],
  );
  const freq = new Map<string, number>();
  const e = rows[0]?.e ?? [];
  const f = rows[0]?.f ?? [];
  e.forEach((lex, i) => freq.set(lex, Number(f[i] ?? 0)));
  lexemeStats = { freq, at: Date.now(), db };
  return freq;
}
