/**
 * Commit messages read the way the local engine needs them (docs/ai.md "Pull request descriptions"):
 * Conventional Commits 1.0 headers (`type(scope)!: subject`), `BREAKING CHANGE:` footers, and
 * a change category for every commit — from its conventional type, else from the paths it
 * touched, else from the verb its subject starts with. Pure: strings in, values out.
 * Rules and examples: docs/ai.md "Pull request descriptions".
 */

/** The spec's change categories (`changes[].category`). */
export type ChangeCategory = "feature" | "fix" | "refactor" | "docs" | "test" | "chore";
export const CATEGORIES: readonly ChangeCategory[] = ["feature", "fix", "refactor", "docs", "test", "chore"];

/** Conventional types svc recognises (lower case), with the category each one means. */
const TYPE_CATEGORY: Record<string, ChangeCategory> = {
  feat: "feature",
  feature: "feature",
  fix: "fix",
  bugfix: "fix",
  hotfix: "fix",
  refactor: "refactor",
  perf: "refactor",
  style: "refactor",
  docs: "docs",
  doc: "docs",
  test: "test",
  tests: "test",
  chore: "chore",
  build: "chore",
  ci: "chore",
  revert: "chore",
  deps: "chore",
  release: "chore",
};

/** The canonical conventional type of a category (for titles the engine writes). */
export const CATEGORY_TYPE: Record<ChangeCategory, string> = {
  feature: "feat",
  fix: "fix",
  refactor: "refactor",
  docs: "docs",
  test: "test",
  chore: "chore",
};

/** Most significant first: the type a multi-commit title takes (docs/ai.md). */
const SIGNIFICANCE = [
  "feat",
  "feature",
  "fix",
  "bugfix",
  "hotfix",
  "perf",
  "refactor",
  "revert",
  "docs",
  "doc",
  "test",
  "tests",
  "build",
  "ci",
  "deps",
  "chore",
  "style",
  "release",
];

export interface ParsedCommit {
  /** The conventional type in lower case (`feat`), or null for a plain message. */
  type: string | null;
  scope: string | null;
  /** `!` before the colon, or a BREAKING CHANGE footer. */
  breaking: boolean;
  /** The subject without the conventional header (the whole first line for a plain message). */
  subject: string;
  /** Everything after the first line, trimmed. */
  body: string;
  /** What the commit says breaks: the footers' text, else the subject of a `!` commit. */
  breakingNotes: string[];
  /** A merge commit's default message ("Merge branch …", "Merge pull request …"). */
  isMerge: boolean;
  /** `fixup!` / `squash!` / `amend!` commits (folded into the commit they name). */
  isFixup: boolean;
}

const HEADER_RE = /^([A-Za-z]+)(?:\(([^()\r\n]{1,60})\))?(!)?:\s+(\S.*)$/;
const FOOTER_RE = /^BREAKING[ -]CHANGE:\s*(.*)$/;
/** A footer token line (`Token: value`, `Token #value`): ends a multi-line BREAKING CHANGE note. */
const TOKEN_RE = /^(?:[A-Za-z][\w-]*|BREAKING CHANGE)(?::\s|\s#)/;

/** Parses one commit message (subject line, blank line, body, footers). */
export function parseCommitMessage(message: string): ParsedCommit {
  const text = message.replace(/\r\n/g, "\n").trim();
  const nl = text.indexOf("\n");
  const first = (nl < 0 ? text : text.slice(0, nl)).trim();
  const body = nl < 0 ? "" : text.slice(nl + 1).trim();
  const m = HEADER_RE.exec(first);
  const type = m && TYPE_CATEGORY[m[1]!.toLowerCase()] ? m[1]!.toLowerCase() : null;
  const notes: string[] = [];
  const lines = body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const f = FOOTER_RE.exec(lines[i]!.trim());
    if (!f) continue;
    const parts = [f[1]!.trim()];
    while (i + 1 < lines.length && lines[i + 1]!.trim() && !TOKEN_RE.test(lines[i + 1]!.trim())) parts.push(lines[++i]!.trim());
    const note = parts.filter(Boolean).join(" ");
    if (note) notes.push(note);
  }
  const subject = type ? m![4]!.trim() : first;
  const bang = Boolean(type && m![3]);
  if (bang && notes.length === 0) notes.push(subject);
  return {
    type,
    scope: type && m![2] ? m![2]!.trim() : null,
    breaking: bang || notes.length > 0,
    subject,
    body,
    breakingNotes: notes,
    isMerge: /^Merge (branch|pull request|remote-tracking branch|tag|commit) /.test(first),
    isFixup: /^(fixup|squash|amend)! /.test(first),
  };
}

const DOC_RE =
  /(^|\/)(docs?|documentation)\/|\.(md|mdx|markdown|rst|adoc|txt)$|(^|\/)(README|CHANGELOG|CONTRIBUTING|LICENSE|AUTHORS)[^/]*$/i;
const TEST_RE =
  /(^|\/)(__tests__|__mocks__|tests?|specs?|e2e|fixtures?|testdata)\/|[._-](test|spec)\.[a-z0-9]+$|_test\.(go|py|rb|rs)$|(^|\/)test_[^/]+\.py$/i;
const CHORE_RE =
  /(^|\/)(package(-lock)?\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.(mod|sum)|Gemfile(\.lock)?|poetry\.lock|requirements[^/]*\.txt|Dockerfile|docker-compose[^/]*|Makefile|\.gitignore|\.gitattributes|\.editorconfig|\.npmrc|\.nvmrc|tsconfig[^/]*\.json|\.eslintrc[^/]*|eslint\.config\.[a-z]+|\.prettierrc[^/]*|renovate\.json)$|(^|\/)\.(github|gitlab|circleci)\//i;

/** The category a path alone suggests: docs, test or chore (configuration, CI, lockfiles), else null (source). Tests win over docs (`tests/fixtures/a.md`). */
export function categoryOfPath(path: string): ChangeCategory | null {
  if (TEST_RE.test(path)) return "test";
  if (DOC_RE.test(path)) return "docs";
  if (CHORE_RE.test(path)) return "chore";
  return null;
}

/** The category all `paths` share (docs, test or chore), or null when they are empty or mixed / source. */
export function categoryOfPaths(paths: readonly string[]): ChangeCategory | null {
  if (paths.length === 0) return null;
  const first = categoryOfPath(paths[0]!);
  return first && paths.every((p) => categoryOfPath(p) === first) ? first : null;
}

const VERBS: [RegExp, ChangeCategory][] = [
  [/^(fix(e[sd])?|resolve[sd]?|correct(s|ed)?|repair(s|ed)?|bug|patch(es|ed)?|hotfix|prevent(s|ed)?|handle[sd]?)\b/i, "fix"],
  [/^(add(s|ed)?|implement(s|ed)?|introduce[sd]?|create[sd]?|support(s|ed)?|allow(s|ed)?|enable[sd]?|new)\b/i, "feature"],
  [
    /^(refactor(s|ed)?|rename[sd]?|move[sd]?|extract(s|ed)?|clean(s|ed)?|simplif(y|ies|ied)|restructure[sd]?|reorgani[sz]e[sd]?|tidy|split|inline[sd]?|optimi[sz]e[sd]?|speed)\b/i,
    "refactor",
  ],
  [/^(docs?|document(s|ed)?|readme)\b/i, "docs"],
  [/^(tests?|cover(s|ed)?)\b/i, "test"],
  [/^(bump(s|ed)?|upgrade[sd]?|update[sd]? dependenc|release|chore|ci|build|merge)\b/i, "chore"],
];

/** The category a plain subject's first verb suggests ("Fix …" → fix, "Add …" → feature), or null. */
export function categoryOfSubject(subject: string): ChangeCategory | null {
  for (const [re, c] of VERBS) if (re.test(subject.trim())) return c;
  return null;
}

/**
 * A commit's category: its conventional type when it has one; else the category all its paths
 * share (docs/, *.md → docs; *test* → test; lockfiles, CI → chore); else its subject's verb;
 * else fix when its body says it fixes an issue ("Fixes #3"); else "chore" (GitHub release
 * notes' "other changes").
 */
export function categorize(c: Pick<ParsedCommit, "type" | "subject"> & { body?: string }, paths: readonly string[] = []): ChangeCategory {
  if (c.type) return TYPE_CATEGORY[c.type]!;
  return (
    categoryOfPaths(paths) ?? categoryOfSubject(c.subject) ?? (/\b(fix(es|ed)?|resolve[sd]?)\s+#\d+/i.test(c.body ?? "") ? "fix" : "chore")
  );
}

/** The conventional type a commit stands for: its own, else its category's (`feat` for a feature). */
export function typeOf(c: Pick<ParsedCommit, "type" | "subject"> & { body?: string }, paths: readonly string[] = []): string {
  return c.type ?? CATEGORY_TYPE[categorize(c, paths)];
}

/** The most significant of `types` (feat > fix > perf > refactor > docs > test > build/ci/chore). */
export function dominantType(types: readonly string[]): string | null {
  let best: string | null = null;
  for (const t of types) {
    const rank = SIGNIFICANCE.indexOf(t);
    if (best === null || (rank >= 0 && (SIGNIFICANCE.indexOf(best) < 0 || rank < SIGNIFICANCE.indexOf(best)))) best = t;
  }
  return best;
}

/** The scope a title takes from the scopes of its commits: the only one, or one held by more than half; else null. */
export function dominantScope(scopes: readonly (string | null)[]): string | null {
  const named = scopes.filter((s): s is string => Boolean(s));
  if (named.length === 0) return null;
  const counts = new Map<string, number>();
  for (const s of named) counts.set(s, (counts.get(s) ?? 0) + 1);
  if (counts.size === 1) return named[0]!;
  const [top, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
  return n * 2 > scopes.length ? top : null;
}

/** `type(scope)!: subject`. */
export function conventionalHeader(type: string, scope: string | null, breaking: boolean, subject: string): string {
  return `${type}${scope ? `(${scope})` : ""}${breaking ? "!" : ""}: ${subject}`;
}

/** A subject as conventional headers write it: first letter lower-cased unless the word is an acronym ("API"), no final period. */
export function lowerSubject(subject: string): string {
  const s = subject.trim().replace(/\.$/, "");
  return /^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;
}

/** A subject as a plain title writes it: first letter upper-cased, no final period. */
export function upperSubject(subject: string): string {
  const s = subject.trim().replace(/\.$/, "");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Words of a branch name for a title ("feature/user-search" → "user search"): the last path
 * segment minus a type prefix and ticket ids; null unless at least two words remain
 * ("patch-1", "wip" say nothing).
 */
export function branchWords(branch: string): string | null {
  const last = branch.split("/").pop() ?? "";
  const words = last
    .replace(/^(feat|feature|fix|bugfix|hotfix|chore|docs?|refactor|test)[-_]/i, "")
    .split(/[-_.\s]+/)
    .filter((w) => w && !/^[A-Z]+-?\d+$/i.test(w) && !/^\d+$/.test(w));
  return words.length >= 2 ? words.join(" ").toLowerCase() : null;
}
