/**
 * Line-level rules of the local engine (ai.explainFileDiff, spec "AI router"; docs/ai.md): the
 * added and removed lines of a unified diff, concerns found on ADDED lines only (debug statements,
 * secrets, disabled or focused tests, TODO/FIXME, conflict markers), and the impact of a change
 * from its size and the kind of file. Concerns never quote a secret.
 */
import type { SyntaxLanguage } from "@/server/ai/syntax/parser";

export interface DiffLine {
  /** 1-based line number in the new (added) or old (removed) version. */
  line: number;
  text: string;
}

/** The added and removed lines of a unified diff (hunks from `git diff`). */
export function changedLines(unified: string): { added: DiffLine[]; removed: DiffLine[] } {
  const added: DiffLine[] = [];
  const removed: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const raw of unified.split("\n")) {
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw);
    if (h) {
      oldLine = Number(h[1]);
      newLine = Number(h[2]);
      continue;
    }
    if (raw.startsWith("+")) added.push({ line: newLine++, text: raw.slice(1) });
    else if (raw.startsWith("-")) removed.push({ line: oldLine++, text: raw.slice(1) });
    else if (raw.startsWith(" ")) {
      oldLine++;
      newLine++;
    }
  }
  return { added, removed };
}

interface LineRule {
  id: string;
  /** What the concern says, given the lines found. */
  message: (lines: number[]) => string;
  test: (text: string, language: SyntaxLanguage | null) => boolean;
}

const at = (lines: number[]) => `line${lines.length === 1 ? "" : "s"} ${lines.slice(0, 5).join(", ")}${lines.length > 5 ? ", …" : ""}`;
const isJs = (l: SyntaxLanguage | null) => l === "typescript" || l === "tsx" || l === "javascript";
const comment = (t: string) => /^\s*(\/\/|#|\*|\/\*|--|;)/.test(t);

/** The rules, in the order their concerns are listed. */
export const LINE_RULES: LineRule[] = [
  {
    id: "secret-svc-token",
    message: (l) => `An svc access token appears to be added (${at(l)}): revoke it and load it from the environment instead`,
    test: (t) => /\bsvc_[0-9A-Za-z]{8}_[0-9A-Za-z]{32,}\b/.test(t),
  },
  {
    id: "secret-private-key",
    message: (l) => `A private key block is added (${at(l)}): keys do not belong in the repository`,
    test: (t) => /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/.test(t),
  },
  {
    id: "secret-cloud-key",
    message: (l) => `A cloud access key appears to be added (${at(l)}): rotate it and use a secret store`,
    test: (t) =>
      /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/.test(t) ||
      /\bgh[pousr]_[0-9A-Za-z]{36,}\b/.test(t) ||
      /\bAIza[0-9A-Za-z_-]{35}\b/.test(t) ||
      /\bxox[abpr]-[0-9A-Za-z-]{10,}/.test(t),
  },
  {
    id: "debug-statement",
    message: (l) => `Debug output added (${at(l)}): remove it before merging, or use the project's logger`,
    test: (t, lang) =>
      !comment(t) &&
      ((isJs(lang) && /\bconsole\.(log|debug|trace|dir)\s*\(|^\s*debugger\s*;?\s*$/.test(t)) ||
        (lang === "python" && /^\s*(print\s*\(|breakpoint\s*\(\s*\)|import\s+pdb|pdb\.set_trace)/.test(t)) ||
        (lang === "rust" && /\bdbg!\s*\(/.test(t)) ||
        (lang === "ruby" && /\b(binding\.pry|byebug)\b/.test(t)) ||
        (lang === "php" && /\b(var_dump|print_r)\s*\(/.test(t)) ||
        (lang === "go" && /\bfmt\.Print(ln|f)?\s*\(/.test(t))),
  },
  {
    id: "disabled-test",
    message: (l) => `A test is skipped or focused (${at(l)}): .skip/.only/xit and similar change what the suite runs`,
    test: (t) =>
      /\b(?:it|test|describe|context|suite)\.(?:skip|only|todo)\s*\(|\b(?:xit|xdescribe|xtest|fit|fdescribe)\s*\(|@pytest\.mark\.skip|@unittest\.skip|#\[ignore\]|\bt\.Skip(?:Now|f)?\s*\(|@Disabled\b|@Ignore\b/.test(
        t,
      ),
  },
  {
    id: "todo",
    message: (l) => `TODO/FIXME added (${at(l)}): consider an issue so it is not forgotten`,
    test: (t) => /\b(TODO|FIXME|HACK|XXX)\b/.test(t),
  },
  {
    id: "conflict-marker",
    message: (l) => `A merge conflict marker is added (${at(l)}): the file does not build as is`,
    test: (t) => /^(<{7}|>{7})( |$)|^={7}$/.test(t),
  },
];

/** Concerns for `added` lines, one per rule that matched (with its lines). */
export function lineConcerns(added: DiffLine[], language: SyntaxLanguage | null): Array<{ id: string; message: string }> {
  const out: Array<{ id: string; message: string }> = [];
  for (const rule of LINE_RULES) {
    const lines = added.filter((l) => rule.test(l.text, language)).map((l) => l.line);
    if (lines.length) out.push({ id: rule.id, message: rule.message(lines) });
  }
  return out;
}

export type Impact = "low" | "medium" | "high";

/** What kind of file `path` is, for impact (first match wins). */
export function fileKind(path: string): { kind: string; weight: 0 | 1 | 2 } {
  const p = path.toLowerCase();
  const base = p.slice(p.lastIndexOf("/") + 1);
  if (/(^|\/)migrations?\//.test(p) || base.endsWith(".sql") || base === "schema.prisma")
    return { kind: "database migration or schema", weight: 2 };
  if (/(^|[/_.-])(auth|security|crypto|password|session|permission|access|token|csrf|oauth)s?([/_.-]|$)/.test(p))
    return { kind: "authentication or security code", weight: 2 };
  if (/^\.env|\.pem$|\.key$/.test(base)) return { kind: "secrets or environment file", weight: 2 };
  if (
    /^(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|cargo\.lock|go\.sum|poetry\.lock|gemfile\.lock|composer\.lock|bun\.lockb?)$/.test(base)
  )
    return { kind: "dependency lockfile", weight: 1 };
  if (/^(package\.json|cargo\.toml|go\.mod|pyproject\.toml|requirements[^/]*\.txt|gemfile|pom\.xml|build\.gradle(\.kts)?)$/.test(base))
    return { kind: "dependency manifest", weight: 1 };
  if (
    /(^|\/)\.github\/workflows\//.test(p) ||
    /^(dockerfile|docker-compose\.ya?ml|makefile)$/.test(base) ||
    /(^|\/)(next|vite|webpack|tsconfig|eslint|babel|jest|vitest)[^/]*\.(c|m)?(js|ts|json)$/.test(p) ||
    /\.(ya?ml|toml|ini|conf)$/.test(base)
  )
    return { kind: "build, CI or configuration", weight: 1 };
  if (
    /(^|\/)(test|tests|__tests__|spec|e2e)\//.test(p) ||
    /\.(test|spec)\.[a-z]+$/.test(base) ||
    /_test\.(go|py)$/.test(base) ||
    /^test_.*\.py$/.test(base)
  )
    return { kind: "test", weight: 0 };
  if (/\.(md|mdx|txt|rst|adoc)$/.test(base) || /(^|\/)docs?\//.test(p)) return { kind: "documentation", weight: 0 };
  return { kind: "source", weight: 0 };
}

/**
 * Impact: size (changed lines: < 30 low, < 200 medium, else high), at least medium for a
 * lockfile/manifest/config file, one step up for removed exports, high for migrations,
 * auth/security code or an added secret; tests and docs stay low unless they add a secret.
 */
export function impactOf(
  path: string,
  changed: number,
  opts: { removedExports: number; secret: boolean },
): { impact: Impact; reasons: string[] } {
  const { kind, weight } = fileKind(path);
  const reasons: string[] = [];
  let score = changed < 30 ? 0 : changed < 200 ? 1 : 2;
  if (score > 0) reasons.push(`${changed} lines changed`);
  if (weight > 0) {
    score = Math.max(score, weight);
    reasons.push(`a ${kind} file`);
  }
  if (opts.removedExports > 0) {
    score = Math.min(2, score + 1);
    reasons.push(`${opts.removedExports} export${opts.removedExports === 1 ? "" : "s"} removed`);
  }
  if ((kind === "test" || kind === "documentation") && !opts.secret) score = Math.min(score, opts.removedExports ? 1 : 0);
  if (opts.secret) {
    score = 2;
    reasons.push("a secret appears to be added");
  }
  return { impact: (["low", "medium", "high"] as const)[score]!, reasons };
}
