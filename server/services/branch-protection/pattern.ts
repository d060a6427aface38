/**
 * Branch protection patterns (docs/pulls.md "Branch protection"): which rule applies to a branch.
 * Pure functions, no I/O.
 *
 * A pattern is a glob over the branch name (without `refs/heads/`):
 *   - `*` matches any run of characters except `/` (`release/*` matches `release/1.0`, not `release/1/x`);
 *   - `**` matches any run of characters, `/` included (`release/**` matches `release/1/x`);
 *   - `?` matches one character except `/`;
 *   - every other character matches itself (case-sensitive, as git's branch names are).
 *
 * The most specific matching pattern wins, and only its rule applies (rules are not merged):
 *   1. an exact name (no wildcard) beats every glob (GitHub's rule);
 *   2. among globs, the longer literal prefix (characters before the first wildcard) wins:
 *      `release/v1*` beats `release/*` beats `*`;
 *   3. then more literal characters in total;
 *   4. then fewer wildcards;
 *   5. then the pattern's text in code-point order, so the choice never depends on row order.
 */

/** Longest pattern accepted (characters). */
export const MAX_PATTERN_LENGTH = 255;

const WILDCARD = /[*?]/;

/** True when `pattern` contains a wildcard (`*`, `**`, `?`). */
export function isGlob(pattern: string): boolean {
  return WILDCARD.test(pattern);
}

/**
 * Why `pattern` is not a usable pattern, or null when it is: empty, longer than
 * MAX_PATTERN_LENGTH, starting with `refs/` (patterns name branches, not refs), or containing
 * whitespace, control characters, `[`, `\`, `~`, `^` or `:` (git forbids them in branch names,
 * so such a pattern could match nothing, or a character class this syntax does not have).
 */
export function patternProblem(pattern: string): string | null {
  if (pattern.length === 0) return "pattern cannot be empty";
  if (pattern.length > MAX_PATTERN_LENGTH) return `pattern is longer than ${MAX_PATTERN_LENGTH} characters`;
  if (pattern.startsWith("refs/")) return "pattern names branches without refs/heads/ (e.g. main or release/*)";
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f[\\~^:]/.test(pattern)) return "pattern cannot contain spaces, control characters or [ \\ ~ ^ :";
  return null;
}

/** The pattern as an anchored regular expression (see the module comment for the syntax). */
export function patternRegExp(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*" && pattern[i + 1] === "*") {
      out += ".*";
      while (pattern[i + 1] === "*") i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\/-]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** True when branch `name` (without refs/heads/) matches `pattern`. */
export function matchesPattern(pattern: string, name: string): boolean {
  return isGlob(pattern) ? patternRegExp(pattern).test(name) : pattern === name;
}

/** The specificity key of a pattern: larger sorts first (module comment, rules 1–4). */
function specificity(pattern: string): [number, number, number, number] {
  const first = pattern.search(WILDCARD);
  const wildcards = (pattern.match(/\*+|\?/g) ?? []).length;
  const literals = pattern.replace(/[*?]/g, "").length;
  return [first === -1 ? 1 : 0, first === -1 ? pattern.length : first, literals, -wildcards];
}

/**
 * Orders two patterns by specificity: negative when `a` is more specific than `b` (so
 * `patterns.sort(compareSpecificity)` puts the winner first), 0 only for equal strings.
 */
export function compareSpecificity(a: string, b: string): number {
  const ka = specificity(a);
  const kb = specificity(b);
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i] - ka[i];
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The rule among `rules` that applies to branch `name`: the most specific matching pattern; null when none matches. */
export function ruleForBranch<R extends { pattern: string }>(rules: readonly R[], name: string): R | null {
  let best: R | null = null;
  for (const r of rules) {
    if (!matchesPattern(r.pattern, name)) continue;
    if (!best || compareSpecificity(r.pattern, best.pattern) < 0) best = r;
  }
  return best;
}
