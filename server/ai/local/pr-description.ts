/**
 * The local engine's pull request description (ai.generatePRDescription): title, body,
 * summary, categorised changes and breaking changes, from the commits between the branches and
 * the diff's file statistics. Pure: no git, no network. How it decides: docs/ai.md "Pull
 * request descriptions".
 */
import {
  branchWords,
  categorize,
  conventionalHeader,
  dominantScope,
  dominantType,
  lowerSubject,
  parseCommitMessage,
  typeOf,
  upperSubject,
  type ChangeCategory,
  type ParsedCommit,
} from "./conventional";

export type DescriptionStyle = "concise" | "detailed" | "conventional";

export interface DescriptionCommit {
  sha: string;
  message: string;
  /** Paths the commit changed (empty when unknown): categories of plain commits come from them. */
  paths?: string[];
}

export interface DescriptionFile {
  path: string;
  additions: number;
  deletions: number;
}

export interface DescriptionInput {
  sourceBranch: string;
  targetBranch: string;
  /** Oldest first (as repos.compare lists them). */
  commits: DescriptionCommit[];
  /** Commits in the range in all (may exceed `commits.length` when the list was capped). */
  totalCommits?: number;
  files: DescriptionFile[];
  totalFiles?: number;
  totalAdditions?: number;
  totalDeletions?: number;
  existingTitle?: string;
  existingBody?: string;
  style?: DescriptionStyle;
}

export interface DescriptionChange {
  category: ChangeCategory;
  description: string;
}

export interface PRDescription {
  title: string;
  body: string;
  summary: string;
  changes: DescriptionChange[];
  breakingChanges: string[];
}

/** Most change entries listed (the rest are counted in the summary). */
export const MAX_CHANGES = 50;
/** Longest title written (pulls.create takes 256; GitHub shows about 70). */
const MAX_TITLE = 120;

const HEADINGS: Record<ChangeCategory, string> = {
  feature: "Features",
  fix: "Bug fixes",
  refactor: "Refactoring",
  docs: "Documentation",
  test: "Tests",
  chore: "Maintenance",
};
const NOUNS: Record<ChangeCategory, [string, string]> = {
  feature: ["feature", "features"],
  fix: ["fix", "fixes"],
  refactor: ["refactoring", "refactorings"],
  docs: ["documentation change", "documentation changes"],
  test: ["test change", "test changes"],
  chore: ["maintenance change", "maintenance changes"],
};
const ORDER: ChangeCategory[] = ["feature", "fix", "refactor", "docs", "test", "chore"];

interface Entry {
  sha: string;
  parsed: ParsedCommit;
  category: ChangeCategory;
  type: string;
}

/** The commits that describe the change: merges and fixup!/squash! commits left out. */
function entriesOf(commits: DescriptionCommit[]): Entry[] {
  return commits
    .map((c) => ({ c, parsed: parseCommitMessage(c.message) }))
    .filter(({ parsed }) => !parsed.isMerge && !parsed.isFixup && parsed.subject)
    .map(({ c, parsed }) => ({ sha: c.sha, parsed, category: categorize(parsed, c.paths), type: typeOf(parsed, c.paths) }));
}

/** True when at least half the commits (and at least one) are conventional: titles then follow the convention whatever the style. */
export function isConventionalHistory(messages: readonly string[]): boolean {
  const parsed = messages.map(parseCommitMessage).filter((p) => !p.isMerge && !p.isFixup);
  const conv = parsed.filter((p) => p.type).length;
  return conv > 0 && conv * 2 >= parsed.length;
}

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`);

/**
 * The title the engine writes: one commit → its subject (its whole header when conventional);
 * several → `type(scope): …` of the most significant type when the history is conventional (or
 * the style is), the subject taken from that type's only commit, else the branch name's words,
 * else the type's first commit; a plain history → the branch name's words, else the first
 * subject. `!` when anything breaks.
 */
export function titleFor(entries: Entry[], sourceBranch: string, conventional: boolean): string {
  if (entries.length === 0) return upperSubject(branchWords(sourceBranch) ?? sourceBranch);
  const breaking = entries.some((e) => e.parsed.breaking);
  if (!conventional) {
    if (entries.length === 1) return upperSubject(entries[0]!.parsed.subject);
    return upperSubject(branchWords(sourceBranch) ?? entries[0]!.parsed.subject);
  }
  const type = dominantType(entries.map((e) => e.type))!;
  const ofType = entries.filter((e) => e.type === type);
  const scope = dominantScope(ofType.map((e) => e.parsed.scope));
  const subject = ofType.length === 1 ? ofType[0]!.parsed.subject : (branchWords(sourceBranch) ?? ofType[0]!.parsed.subject);
  return conventionalHeader(type, scope, breaking, lowerSubject(subject));
}

/** "2 features, 1 fix and 3 test changes". */
function countsPhrase(entries: Entry[]): string {
  const parts = ORDER.map((c) => [c, entries.filter((e) => e.category === c).length] as const)
    .filter(([, n]) => n > 0)
    .map(([c, n]) => `${n} ${NOUNS[c][n === 1 ? 0 : 1]}`);
  return parts.length <= 1 ? (parts[0] ?? "no changes") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** The directory holding more than half the changed lines ("server/api"), or null. */
function mainArea(files: DescriptionFile[]): string | null {
  const total = files.reduce((n, f) => n + f.additions + f.deletions, 0);
  if (total === 0 || files.length < 2) return null;
  const byDir = new Map<string, number>();
  for (const f of files) {
    const parts = f.path.split("/");
    const dir = parts.length > 2 ? parts.slice(0, 2).join("/") : parts.length === 2 ? parts[0]! : null;
    if (dir) byDir.set(dir, (byDir.get(dir) ?? 0) + f.additions + f.deletions);
  }
  const top = [...byDir.entries()].sort((a, b) => b[1] - a[1])[0];
  return top && top[1] * 2 > total ? top[0] : null;
}

/** The summary sentence: what kinds of change, how many commits, files and lines, and where. */
export function summaryFor(entries: Entry[], input: DescriptionInput): string {
  const commits = input.totalCommits ?? input.commits.length;
  const files = input.totalFiles ?? input.files.length;
  const add = input.totalAdditions ?? input.files.reduce((n, f) => n + f.additions, 0);
  const del = input.totalDeletions ?? input.files.reduce((n, f) => n + f.deletions, 0);
  const area = mainArea(input.files);
  const stats = `${commits} commit${commits === 1 ? "" : "s"}, ${files} file${files === 1 ? "" : "s"} changed, +${add} −${del}`;
  const breaking = entries.some((e) => e.parsed.breaking) ? " It contains breaking changes." : "";
  return `Merges ${input.sourceBranch} into ${input.targetBranch}: ${countsPhrase(entries)} (${stats})${area ? `, mostly in ${area}` : ""}.${breaking}`;
}

/** One change line: the subject (scope first when there is one), upper-cased. */
function describe(e: Entry): string {
  return `${e.parsed.scope ? `${e.parsed.scope}: ` : ""}${upperSubject(e.parsed.subject)}`;
}

function changesOf(entries: Entry[]): DescriptionChange[] {
  const seen = new Set<string>();
  const out: DescriptionChange[] = [];
  for (const e of entries) {
    const description = describe(e);
    const key = `${e.category}\0${description.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ category: e.category, description });
    if (out.length >= MAX_CHANGES) break;
  }
  return out;
}

function breakingOf(entries: Entry[]): string[] {
  return [...new Set(entries.flatMap((e) => e.parsed.breakingNotes.map((n) => (e.parsed.scope ? `${e.parsed.scope}: ${n}` : n))))];
}

/** The body per style (docs/ai.md): concise = summary + bullets; detailed = sections with groups and files; conventional = a changelog. */
export function bodyFor(
  style: DescriptionStyle,
  entries: Entry[],
  input: DescriptionInput,
  summary: string,
  changes: DescriptionChange[],
  breaking: string[],
): string {
  const short = (sha: string) => sha.slice(0, 7);
  const more = (input.totalCommits ?? input.commits.length) - input.commits.length;
  const moreLine = more > 0 ? [`_…and ${more} more commit${more === 1 ? "" : "s"} not read._`] : [];
  if (style === "concise") {
    const bullets = changes.slice(0, 10).map((c) => `- ${c.description}`);
    if (changes.length > 10) bullets.push(`- …and ${changes.length - 10} more`);
    return [summary, "", ...bullets, ...breaking.map((b) => `- **Breaking:** ${b}`)].join("\n").trim();
  }
  const groups = ORDER.map((c) => ({ c, items: entries.filter((e) => e.category === c) })).filter((g) => g.items.length > 0);
  if (style === "conventional") {
    const lines: string[] = [summary];
    for (const g of groups) {
      lines.push("", `### ${HEADINGS[g.c]}`, "");
      for (const e of g.items)
        lines.push(`- ${e.parsed.scope ? `**${e.parsed.scope}:** ` : ""}${lowerSubject(e.parsed.subject)} (${short(e.sha)})`);
    }
    if (breaking.length) lines.push("", "### BREAKING CHANGES", "", ...breaking.map((b) => `- ${b}`));
    return [...lines, ...(moreLine.length ? ["", ...moreLine] : [])].join("\n");
  }
  const lines: string[] = ["## Summary", "", summary, "", "## Changes"];
  for (const g of groups) {
    lines.push("", `### ${HEADINGS[g.c]}`, "");
    for (const e of g.items) lines.push(`- ${describe(e)} (${short(e.sha)})`);
  }
  if (moreLine.length) lines.push("", ...moreLine);
  if (breaking.length) lines.push("", "## Breaking changes", "", ...breaking.map((b) => `- ${b}`));
  const top = [...input.files].sort((a, b) => b.additions + b.deletions - (a.additions + a.deletions)).slice(0, 10);
  if (top.length) {
    const files = input.totalFiles ?? input.files.length;
    lines.push("", "## Files", "", ...top.map((f) => `- \`${f.path}\` (+${f.additions} −${f.deletions})`));
    if (files > top.length) lines.push(`- …and ${files - top.length} more`);
  }
  return lines.join("\n");
}

/**
 * What the user already wrote stays (docs/ai.md "What you wrote stays"): a non-empty
 * `existingTitle` is kept, except that the conventional style replaces a title that is not
 * conventional; a non-empty `existingBody` comes first, unchanged, and the generated body
 * follows under a rule (nothing is added when the body already contains it; nothing is
 * repeated when the generated body already quotes the author's, as a model's may).
 */
export function keepExisting(
  out: PRDescription,
  existingTitle: string | undefined,
  existingBody: string | undefined,
  style: DescriptionStyle,
): PRDescription {
  let { title, body } = out;
  const t = existingTitle?.trim();
  if (t && (style !== "conventional" || parseCommitMessage(t).type)) title = t;
  const b = existingBody?.trim();
  if (b && !body.includes(b)) body = b.includes(body.trim()) ? b : `${b}\n\n---\n\n${body}`;
  return { ...out, title, body };
}

/** The local engine's description of a branch (see the functions above for each part). Default style: detailed. */
export function localPRDescription(input: DescriptionInput): PRDescription {
  const style = input.style ?? "detailed";
  const entries = entriesOf(input.commits);
  const conventional = style === "conventional" || isConventionalHistory(input.commits.map((c) => c.message));
  const title = clip(titleFor(entries, input.sourceBranch, conventional), MAX_TITLE);
  const summary = summaryFor(entries, input);
  const changes = changesOf(entries);
  const breakingChanges = breakingOf(entries);
  const body = bodyFor(style, entries, input, summary, changes, breakingChanges);
  return keepExisting({ title, body, summary, changes, breakingChanges }, input.existingTitle, input.existingBody, style);
}
