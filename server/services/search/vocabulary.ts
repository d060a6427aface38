/**
 * Code vocabulary for the lexical engine (docs/ai.md "Scores and options", "Query vocabulary"):
 * people ask with the words they use ("the highest version", "do two ranges
 * overlap", "remove a key"), code is named with the words programmers use (`maxSatisfying`,
 * `intersects`, `del`). A lexical engine cannot connect the two by itself; this table does, for
 * general programming vocabulary only — words and abbreviations any code base uses, never the
 * names of one library.
 *
 * The rule (lexical.ts): each query word the table knows brings its code words along as OR
 * alternatives of that word. They widen what the engine matches but never outweigh the person's
 * own words: the engine ranks an alternative at ALTERNATIVE_RANK_WEIGHT of a query word (the
 * engine's rank is a sum over words, so a chunk holding a word and its alternatives must not gain
 * much from the alternatives), and the blend's coverage counts each query word once — covered
 * (ALTERNATIVE_COVERAGE) when the chunk holds the word or any of its alternatives. A query
 * without table words searches exactly as before. Weights chosen on the zod and semver question
 * sets (docs/performance.md "Semantic search quality"). Pure.
 */

/**
 * People's words → code's words. Each row: the words a person may type (inflections listed, no
 * stemming here) and the words code uses for the same idea. A person's word may be in several rows.
 * No code word is a query stop word (tokens.ts: "to", "from", "has" match nearly everything, and
 * PostgreSQL's english configuration does not index them, so the two engines would differ).
 */
export const CODE_VOCABULARY: ReadonlyArray<readonly [people: string, code: string]> = [
  // extremes and comparisons
  ["highest largest greatest biggest maximum maximal maximise maximize", "max"],
  ["lowest smallest least minimum minimal minimise minimize fewest", "min"],
  ["greater", "gt gte"],
  ["less", "lt lte"],
  ["equal equals equality same identical", "eq equal equals"],
  ["compare compares comparing comparison comparator", "cmp compare"],
  ["ascending", "asc"],
  ["descending reverse reversed", "desc reverse rev"],
  // sets and collections
  ["overlap overlaps overlapping intersection", "intersect intersects"],
  ["contain contains contained containing", "includes subset"],
  ["combine combined concatenate", "concat merge join"],
  ["count counts counting", "length size num count"],
  ["duplicate duplicates copy copies", "clone copy dup"],
  // changing things
  ["remove removes removing erase erases delete deletes deleting", "delete del remove rm"],
  ["convert converts converting conversion", "parse"],
  ["difference differences differ change changes changed", "diff delta"],
  ["increment increments increase increases bump", "inc incr"],
  ["decrement decrements decrease decreases", "dec decr"],
  // common abbreviations
  ["string strings", "str"],
  ["number numbers", "num"],
  ["value values", "val"],
  ["message messages", "msg"],
  ["character characters", "char chars"],
  ["previous", "prev"],
  ["current", "cur curr"],
  ["temporary", "tmp temp"],
  ["directory directories folder folders", "dir"],
  ["configuration configure settings", "config cfg conf"],
  ["attribute attributes", "attr attrs"],
  ["reference references", "ref refs"],
  ["destination", "dest dst"],
  ["request", "req"],
  ["response", "res resp"],
  ["initialize initialise initialization initialisation", "init"],
  ["parameter parameters", "param params"],
  ["argument arguments", "arg args"],
  ["error errors", "err"],
  ["object objects", "obj"],
  ["description", "desc"],
  ["environment", "env"],
  ["variable variables", "var vars"],
  ["callback callbacks", "cb fn"],
  ["expression", "expr"],
  ["calculate compute", "calc"],
  ["generate", "gen"],
  ["random", "rand"],
  ["length", "len"],
  ["information", "info"],
  ["utility utilities helper helpers", "util utils"],
  ["execute executes", "exec"],
  ["asynchronous asynchronously", "async"],
  ["synchronous synchronously", "sync"],
  ["context", "ctx"],
  ["element elements", "el elem"],
  ["index position", "idx pos"],
];

/** The engine's rank of an alternative relative to a query word's (FTS5 bm25, PostgreSQL's bm25 in SQL). */
export const ALTERNATIVE_RANK_WEIGHT = 0.25;
/** How much a chunk holding only an alternative covers its query word in the blend (1: as the word itself). */
export const ALTERNATIVE_COVERAGE = 1;

const CODE_WORDS: Map<string, string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const [people, code] of CODE_VOCABULARY) {
    for (const p of people.split(" ")) map.set(p, [...new Set([...(map.get(p) ?? []), ...code.split(" ")])]);
  }
  return map;
})();

/** The code words the table gives for the person's word `word` (lowercase), excluding the word itself. */
export function codeWordsFor(word: string): string[] {
  return (CODE_WORDS.get(word) ?? []).filter((w) => w !== word);
}

/** A code word standing in for a query word (see the module comment). */
export interface Expansion {
  word: string;
  /** The query word it stands for. */
  of: string;
}

/**
 * The alternatives of query words `words` (tokens.ts queryWords, lowercase): each table word's
 * code words that are not already query words, each once (for the first query word that brings it).
 */
export function expandWords(words: string[]): Expansion[] {
  const seen = new Set(words);
  const out: Expansion[] = [];
  for (const of of words) {
    for (const word of codeWordsFor(of)) {
      if (seen.has(word)) continue;
      seen.add(word);
      out.push({ word, of });
    }
  }
  return out;
}
