/**
 * The local engine's AI review (docs/ai.md "AI review"):
 * pure rules over a pull request's diff, no key and no network. Line rules look at ADDED lines
 * only (a removed `console.log` is a fix, not a finding); the other rules look at the files and
 * the totals. Never style nits. Thresholds are the constants below (documented in docs/ai.md).
 *
 *   debug       warning  console.log/debug/trace, debugger, print(), breakpoint(), pdb, dbg!,
 *                        var_dump/print_r, binding.pry/byebug, System.out.println, printStackTrace
 *   todo        info     TODO / FIXME / XXX / HACK added
 *   secret      error    svc_ tokens, private key blocks, AWS access key ids, Google API keys,
 *                        Slack tokens and webhooks, GitHub tokens (shapes only; never quoted back)
 *   conflict    error    merge conflict markers (`<<<<<<<`, `>>>>>>>` at the start of a line)
 *   binary      warning  a binary file of LARGE_BINARY_BYTES or more added or changed
 *   tests       info     code changed (MIN_UNTESTED_CODE_LINES+ added lines) and no test file touched
 *   size        warning  more than LARGE_PR_FILES files or LARGE_PR_LINES changed lines (lock files not counted)
 */

export type Severity = "info" | "warning" | "error";
export type ReviewRule = "debug" | "todo" | "secret" | "conflict" | "binary" | "tests" | "size" | "model";

/**
 * One finding. `line` is a line of the new file that the pull request adds (inline comments go
 * there); file-level findings (binary) have `line` null, pull-request-level ones (tests, size)
 * `path` null too — they appear in the review's body only.
 */
export interface Finding {
  path: string | null;
  line: number | null;
  severity: Severity;
  message: string;
  rule: ReviewRule;
}

/** What the rules read of one changed file (the diff's new side). */
export interface ReviewFile {
  path: string;
  status: "added" | "deleted" | "modified" | "renamed";
  isBinary: boolean;
  additions: number;
  deletions: number;
  /** The added lines: number in the new file (1-based) and text. */
  added: { line: number; text: string }[];
  /** Size of the new blob in bytes (binary files; undefined when unknown or deleted). */
  size?: number;
}

export interface ReviewInput {
  files: ReviewFile[];
  /** Over the whole pull request (may exceed files.length when the diff was cut). */
  totalFiles: number;
}

export interface LocalReview {
  findings: Finding[];
  state: "commented" | "changes_requested";
  body: string;
  /** Occurrences per rule before the caps (MAX_PER_FILE_RULE, MAX_FINDINGS). */
  counts: Partial<Record<ReviewRule, number>>;
}

/** A binary file this large (bytes) or larger is flagged: 1 MiB. */
export const LARGE_BINARY_BYTES = 1024 * 1024;
/** A pull request with more files than this is "very large". */
export const LARGE_PR_FILES = 50;
/** …or with more changed lines (additions + deletions, lock files excluded) than this. */
export const LARGE_PR_LINES = 1000;
/** "Source changed without tests" needs at least this many added lines in code files. */
export const MIN_UNTESTED_CODE_LINES = 10;
/** At most this many findings of one rule in one file (the body counts the rest). */
export const MAX_PER_FILE_RULE = 5;
/** At most this many findings per review. */
export const MAX_FINDINGS = 50;

const CODE_EXT =
  /\.(?:[cm]?[jt]sx?|vue|svelte|py|rb|go|rs|java|kt|kts|scala|swift|c|cc|cpp|cxx|h|hh|hpp|cs|php|ex|exs|erl|clj|dart|lua|pl|sh)$/i;
const LOCK_FILE =
  /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|go\.sum|poetry\.lock|Pipfile\.lock|Gemfile\.lock|composer\.lock|uv\.lock)$/;
const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|specs?|e2e|testing)\/|(?:\.|_)(?:test|spec)\.[^/]+$|(?:^|\/)test_[^/]+\.py$|Tests?\.(?:java|kt|cs|swift)$|_test\.(?:go|exs?)$/i;
/** Paths where printing is the point (command-line scripts, examples): no debug findings there. */
const PRINTING_PATH = /(?:^|\/)(?:scripts?|bin|cli|tools|examples?|benchmarks?|bench)\//i;

/** True for a test file (by path conventions of the common ecosystems). */
export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

/** True for a source file by extension (tests included; see isTestPath). */
export function isCodePath(path: string): boolean {
  return CODE_EXT.test(path);
}

/** True for a package manager's lock file (generated; not counted towards size). */
export function isLockFile(path: string): boolean {
  return LOCK_FILE.test(path);
}

function extOf(path: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(path);
  return m ? m[1]!.toLowerCase() : "";
}

/** Comment-only lines are not debug statements (commented-out code is left to people). */
const COMMENT_LINE = /^\s*(?:\/\/|#|\/?\*|--|;|<!--)/;

interface DebugPattern {
  re: RegExp;
  what: string;
}
const JS: DebugPattern[] = [
  { re: /\bconsole\.(?:log|debug|trace|dir|table)\s*\(/, what: "console logging" },
  // not `\s*;?\s*$`: two spaces runs side by side backtrack quadratically on "debugger" + spaces + "x"
  { re: /^\s*debugger\s*(?:;\s*)?$/, what: "a `debugger` statement" },
];
const DEBUG: Record<string, DebugPattern[]> = {
  js: JS,
  jsx: JS,
  ts: JS,
  tsx: JS,
  mjs: JS,
  cjs: JS,
  mts: JS,
  cts: JS,
  vue: JS,
  svelte: JS,
  py: [
    { re: /^\s*print\s*\(/, what: "a `print()` call" },
    { re: /\bbreakpoint\s*\(\s*\)|\bpdb\.set_trace\s*\(|^\s*import\s+i?pdb\b/, what: "a debugger breakpoint" },
  ],
  rs: [{ re: /\bdbg!\s*\(/, what: "a `dbg!` macro" }],
  php: [{ re: /\b(?:var_dump|print_r|var_export)\s*\(|^\s*dd\s*\(/, what: "a dump call" }],
  rb: [{ re: /\bbinding\.pry\b|^\s*byebug\b|\bdebugger\b/, what: "a debugger breakpoint" }],
  java: [{ re: /\bSystem\.(?:out|err)\.print(?:ln)?\s*\(|\.printStackTrace\s*\(\s*\)/, what: "printing to the console" }],
  kt: [{ re: /^\s*println\s*\(/, what: "a `println` call" }],
  go: [{ re: /\bspew\.Dump\s*\(/, what: "a `spew.Dump` call" }],
};

/** The debug statement on this added line of `path`, or null. */
export function debugStatement(path: string, text: string): string | null {
  const patterns = DEBUG[extOf(path)];
  if (!patterns || COMMENT_LINE.test(text) || PRINTING_PATH.test(path)) return null;
  for (const p of patterns) if (p.re.test(text)) return p.what;
  return null;
}

const TODO_RE = /\b(TODO|FIXME|XXX|HACK)\b/;

/** The TODO-like marker this added line introduces, or null. */
export function todoMarker(text: string): string | null {
  return TODO_RE.exec(text)?.[1] ?? null;
}

// The patterns are written so that this file contains none of the shapes it looks for.
const SECRET_SHAPES: { re: RegExp; what: string }[] = [
  { re: /(?<![0-9A-Za-z])svc_[0-9A-Za-z]{8}_[0-9A-Za-z]{32,}/, what: "an svc personal access token" },
  { re: /(?<![0-9A-Z])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])/, what: "an AWS access key id" },
  { re: /(?<![0-9A-Za-z_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/, what: "a Google API key" },
  { re: /(?<![0-9A-Za-z])xox[abposr]-[0-9A-Za-z-]{10,}/, what: "a Slack token" },
  { re: /https:\/\/hooks\.slack\.com\/services\/T[0-9A-Z]{6,}\/B[0-9A-Z]{6,}\/[0-9A-Za-z]{16,}/, what: "a Slack webhook URL" },
  { re: /(?<![0-9A-Za-z_])gh[pousr]_[0-9A-Za-z]{36,}/, what: "a GitHub token" },
  { re: /(?<![0-9A-Za-z_])github_pat_[0-9A-Za-z_]{50,}/, what: "a GitHub fine-grained token" },
];
const KEY_ARMOUR_RE = /-{5}BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-{5}/;
const KEY_BODY_RE = /^[A-Za-z0-9+/]{40,}={0,2}$/;
const KEY_INLINE_RE = /[A-Za-z0-9+/]{64}/;

/**
 * What kind of secret this added line holds, or null. A token shape counts unless it is a
 * documented placeholder (contains EXAMPLE, as AWS's own examples do). A private key counts
 * when its armour line is followed by key material (on the same line, or on one of the next
 * 6 added lines: `next`), so code that merely names the armour is not flagged.
 */
export function secretOn(text: string, next: readonly string[] = []): string | null {
  for (const s of SECRET_SHAPES) {
    const m = s.re.exec(text);
    if (m && !/EXAMPLE/i.test(m[0])) return s.what;
  }
  const armour = KEY_ARMOUR_RE.exec(text);
  if (armour) {
    const rest = text.slice(armour.index + armour[0].length).replace(/\\[nr]/g, "");
    if (KEY_INLINE_RE.test(rest) || next.slice(0, 6).some((l) => KEY_BODY_RE.test(l.trim()))) return "a private key";
  }
  return null;
}

/** True for a merge conflict marker line (`<<<<<<< ours`, `>>>>>>> theirs`). */
export function isConflictMarker(text: string): boolean {
  return /^(?:<{7}|>{7})(?: |$)/.test(text);
}

const LABEL: Record<ReviewRule, string> = {
  secret: "possible secret",
  conflict: "conflict marker",
  debug: "debug statement",
  todo: "TODO/FIXME note",
  binary: "large binary file",
  tests: "untested change",
  size: "very large pull request",
  model: "model finding",
};

/** The line findings of one file, before caps. */
function lineFindings(f: ReviewFile): Finding[] {
  const out: Finding[] = [];
  const texts = f.added.map((a) => a.text);
  f.added.forEach((a, i) => {
    const at = { path: f.path, line: a.line };
    const secret = secretOn(a.text, texts.slice(i + 1, i + 7));
    if (secret)
      out.push({
        ...at,
        severity: "error",
        rule: "secret",
        message: `This line adds what looks like ${secret}. Remove it from the change and from history, and rotate it: anyone who can read the repository can use it.`,
      });
    if (isConflictMarker(a.text))
      out.push({
        ...at,
        severity: "error",
        rule: "conflict",
        message: "A merge conflict marker was committed: resolve the conflict and remove the markers.",
      });
    const debug = debugStatement(f.path, a.text);
    if (debug)
      out.push({
        ...at,
        severity: "warning",
        rule: "debug",
        message: `This adds ${debug}, which looks like leftover debugging. Remove it, or use the project's logger if the output is intended.`,
      });
    const todo = todoMarker(a.text);
    if (todo)
      out.push({
        ...at,
        severity: "info",
        rule: "todo",
        message: `A new ${todo} note: consider tracking it in an issue so it is not forgotten.`,
      });
  });
  return out;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MiB` : `${Math.round(n / 1024)} KiB`;
}

/**
 * Reviews a pull request's diff with the local rules (see the file comment). Findings are
 * ordered by severity (error first), then path and line; capped at MAX_PER_FILE_RULE per file
 * and rule and MAX_FINDINGS in all; `counts` has the uncapped numbers. The state is
 * `changes_requested` when any error finding exists, else `commented` — never `approved`.
 */
export function reviewLocally(input: ReviewInput): LocalReview {
  const counts: Partial<Record<ReviewRule, number>> = {};
  const findings: Finding[] = [];
  const take = (list: Finding[]) => {
    const perRule = new Map<string, number>();
    for (const f of list) {
      counts[f.rule] = (counts[f.rule] ?? 0) + 1;
      const n = (perRule.get(f.rule) ?? 0) + 1;
      perRule.set(f.rule, n);
      if (n <= MAX_PER_FILE_RULE) findings.push(f);
    }
  };
  let codeLines = 0;
  let testTouched = false;
  let changedLines = 0;
  for (const f of input.files) {
    take(lineFindings(f));
    if (!isLockFile(f.path)) changedLines += f.additions + f.deletions;
    if (isTestPath(f.path)) testTouched = true;
    else if (isCodePath(f.path) && f.status !== "deleted") codeLines += f.additions;
    if (f.isBinary && f.status !== "deleted" && (f.size ?? 0) >= LARGE_BINARY_BYTES) {
      take([
        {
          path: f.path,
          line: null,
          severity: "warning",
          rule: "binary",
          message: `${f.path} is a ${formatBytes(f.size!)} binary file: large binaries bloat every clone for good; consider Git LFS or storing it elsewhere.`,
        },
      ]);
    }
  }
  if (codeLines >= MIN_UNTESTED_CODE_LINES && !testTouched) {
    take([
      {
        path: null,
        line: null,
        severity: "info",
        rule: "tests",
        message: `${codeLines} lines of source code change and no test file does: consider adding or updating tests.`,
      },
    ]);
  }
  if (input.totalFiles > LARGE_PR_FILES || changedLines > LARGE_PR_LINES) {
    take([
      {
        path: null,
        line: null,
        severity: "warning",
        rule: "size",
        message: `This pull request changes ${input.totalFiles} files and ${changedLines} lines; above ${LARGE_PR_FILES} files or ${LARGE_PR_LINES} lines a review gets much less thorough. Consider splitting it.`,
      },
    ]);
  }
  const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
  findings.sort(
    (a, b) => rank[a.severity] - rank[b.severity] || (a.path ?? "").localeCompare(b.path ?? "") || (a.line ?? 0) - (b.line ?? 0),
  );
  const kept = findings.slice(0, MAX_FINDINGS);
  const state = kept.some((f) => f.severity === "error") ? "changes_requested" : "commented";
  return { findings: kept, state, body: summarize(input, kept, counts), counts };
}

/** The review body: what was looked at and the findings per rule (Markdown). */
export function summarize(input: ReviewInput, findings: Finding[], counts: Partial<Record<ReviewRule, number>>): string {
  const files = `${input.totalFiles} file${input.totalFiles === 1 ? "" : "s"}`;
  if (findings.length === 0)
    return `Reviewed ${files} and found nothing to flag: no debug statements, secrets, conflict markers, large binaries or new TODOs.`;
  const errors = findings.some((f) => f.severity === "error");
  const lines = (Object.keys(counts) as ReviewRule[]).map(
    (r) => `- ${counts[r]} × ${LABEL[r]}${counts[r]! > 1 && !LABEL[r].endsWith("s") ? "s" : ""}`,
  );
  const general = findings.filter((f) => f.line === null).map((f) => `- ${f.message}`);
  return [
    `Reviewed ${files}. ${errors ? "**Changes requested**: this pull request adds something that must not be merged as is." : "Some things to look at:"}`,
    "",
    ...lines,
    ...(general.length ? ["", ...general] : []),
  ].join("\n");
}
