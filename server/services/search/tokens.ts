/**
 * Words for code search (docs/ai.md "Index"). Identifiers are split into
 * their words — `parseQueryString`, `parse_query_string`, `HTTPServer`, `lib/router/index.js` —
 * so a person's words find code; the whole identifier is kept too, so typing it also matches.
 * Stemming is the search engine's (FTS5 porter, PostgreSQL english); this module only splits,
 * lowercases and drops stop words from queries. Pure.
 */

/**
 * Words of an identifier: camelCase, PascalCase, ACRONYMCase, snake_case, kebab-case, digits.
 * Linear in the identifier's length: every pattern matches a fixed number of characters at each
 * position (`([A-Z]+)([A-Z][a-z])` was quadratic on a long run of capitals: 40,000 took 1.9 s;
 * docs/security.md "Hardening II, item 1").
 */
export function splitIdentifier(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z])(?=[A-Z][a-z])/g, "$1 ")
    .split(/[^A-Za-z0-9]+|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/**
 * Search words of a piece of text or code: every identifier's words, plus the identifier itself
 * (lowercased, `_`/`$` dropped) when it has several. One-letter words are dropped. Space-joined.
 */
export function indexText(text: string, maxWords = 20_000): string {
  const out: string[] = [];
  for (const m of text.matchAll(IDENTIFIER)) {
    const parts = splitIdentifier(m[0]);
    for (const p of parts) if (p.length > 1) out.push(p);
    if (parts.length > 1) out.push(parts.join(""));
    if (out.length >= maxWords) break;
  }
  return out.join(" ");
}

/** English words a query drops (they match everything), plus words that say "code" without naming anything. */
const STOP = new Set(
  (
    "a about above after again all also am an and any are as at be been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers him his how i if in into is it its itself just me more most my no nor not of off on once only or other our out over own same she should so some such than that the their them then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your " +
    "whether given every using use used such one another " +
    "code function functions method methods class classes file files implementation implement implements implemented logic thing things way ways"
  ).split(" "),
);

/** Whether queries drop `word` (lowercase) as a stop word (vocabulary.ts never offers one as an alternative). */
export function isStopWord(word: string): boolean {
  return STOP.has(word);
}

/**
 * The words of a search query: identifier-split, lowercased, stop words dropped (unless nothing
 * else is left), distinct, at most 32.
 */
export function queryWords(query: string): string[] {
  const all: string[] = [];
  for (const m of query.matchAll(/[A-Za-z0-9_$]+/g)) {
    const parts = splitIdentifier(m[0]);
    all.push(...parts);
    if (parts.length > 1) all.push(parts.join(""));
  }
  const words = all.filter((w) => w.length > 1 || /\d/.test(w));
  const kept = words.filter((w) => !STOP.has(w));
  return [...new Set(kept.length ? kept : words)].slice(0, 32);
}

/**
 * A crude stem for comparing words in JavaScript (coverage, path matches): the word without
 * common English endings. The search engines stem properly; this only decides "same word?".
 */
export function roughStem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 4) return w;
  const bare = w.replace(/(ations?|ions?|ings?|ers?|ed|ies|es|s|ly|ments?|ness)$/, "").replace(/e$/, "");
  return (bare.length >= 3 ? bare : w).slice(0, 5);
}
