/**
 * Diffs between two commits for pull requests, the commit page and the compare page (issue #8).
 * One git process per diff, `git diff --raw --numstat --patch -z` with rename and copy detection
 * (-M -C), read as a stream by `DiffParser` (server/git/diff-parse.ts) and stopped as soon as
 * nothing more would be kept, so memory and time stay bounded whatever the size of the range.
 * Only resolved commit ids (never user text) and fixed options reach git's argument list;
 * path filters are matched in JavaScript against git's exact (-z) paths.
 */
import { AppError } from "@/server/errors";
import { gitText, runGit } from "./exec";
import { gitOutput } from "./output-stream";
import { DiffParser, type Diff, type DiffLimits } from "./diff-parse";

export type { Diff, DiffFile, DiffHunk, DiffLine, DiffLimits, DiffStatus } from "./diff-parse";
export { DIFF_LIMITS, DiffParser } from "./diff-parse";

const SHA_RE = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** The empty tree's id (SHA-1 and SHA-256 repositories): the "parent" of a root commit. */
const EMPTY_TREE: Record<number, string> = {
  40: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
  64: "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
};

/** The empty tree id for a repository whose commit ids look like `sha`. */
export function emptyTreeFor(sha: string): string {
  return EMPTY_TREE[sha.length] ?? EMPTY_TREE[40];
}

function assertSha(sha: string, what: string): void {
  if (!SHA_RE.test(sha)) throw new Error(`${what} must be a resolved object id`);
}

/**
 * The fixed options of every diff: raw records, numstat and patch in one run, NUL-separated
 * records, full ids, renames (-M, 50 % similarity) and copies (-C: the source must be changed in
 * the same range, git-diff(1)), no external diff drivers or textconv, fixed prefixes, short
 * submodule lines ("Subproject commit <sha>").
 */
export const DIFF_ARGS = [
  "-c", "core.quotePath=false",
  "-c", "diff.renameLimit=3000",
  "diff", "--raw", "--numstat", "--patch", "-z", "--no-abbrev", "--find-renames", "--find-copies",
  "--no-ext-diff", "--no-textconv", "--no-color", "--no-relative", "--src-prefix=a/", "--dst-prefix=b/",
  "--submodule=short", "--ignore-submodules=none",
];

export interface DiffOptions {
  /** Return (and read hunks of) only the file whose new or old path is this. */
  path?: string;
  /** Return only files whose new or old path is one of these (paging through a large diff). */
  paths?: string[];
  limits?: Partial<DiffLimits>;
  /** Kill git after this many ms (default 60 000). */
  timeoutMs?: number;
}

/**
 * The diff from tree-ish `from` to `to` (both resolved ids: commits, or the empty tree), as
 * `git diff from to` shows it (two-dot). Files are in git's order (by path). With `path`/`paths`
 * only those files are returned (matched against either side's path, so a renamed file is found
 * by its old or new name); totals always cover the whole range. Limits: see `DIFF_LIMITS`.
 * Errors: a plain Error when git fails (unknown ids are the caller's check).
 */
export async function diffTrees(gitDir: string, from: string, to: string, opts: DiffOptions = {}): Promise<Diff> {
  assertSha(from, "from");
  assertSha(to, "to");
  const wanted = opts.paths || opts.path !== undefined ? new Set([...(opts.paths ?? []), ...(opts.path !== undefined ? [opts.path] : [])]) : null;
  const parser = new DiffParser({
    limits: opts.limits,
    include: wanted ? (f) => wanted.has(f.newPath) || wanted.has(f.oldPath) : undefined,
  });
  const out = gitOutput([...DIFF_ARGS, from, to], { gitDir, timeoutMs: opts.timeoutMs });
  try {
    for (;;) {
      const chunk = await out.next();
      if (chunk === null) break;
      parser.push(chunk);
      if (!parser.wantsMore()) break;
    }
  } finally {
    out.stop();
  }
  return parser.finish();
}

/** The merge base of two commits (git-merge-base(1), the first of several), or null when the histories are unrelated. */
export async function mergeBase(gitDir: string, a: string, b: string): Promise<string | null> {
  assertSha(a, "a");
  assertSha(b, "b");
  const r = await runGit(["merge-base", a, b], { gitDir });
  if (r.code === 1) return null;
  if (r.code !== 0) throw new Error(`git merge-base failed (${r.code}): ${r.stderr.trim()}`);
  return r.stdout.toString().trim() || null;
}

/**
 * Three-dot diff (`git diff base...head`): changes on `head` since its merge base with `base`,
 * as GitHub's compare and pull request "Files changed" show. Errors: BAD_REQUEST when the two
 * commits share no history.
 */
export async function diffThreeDot(gitDir: string, base: string, head: string, opts: DiffOptions = {}): Promise<Diff & { mergeBaseSha: string }> {
  const mb = await mergeBase(gitDir, base, head);
  if (!mb) throw new AppError("BAD_REQUEST", "the two commits have entirely different histories: nothing to compare");
  return { ...(await diffTrees(gitDir, mb, head, opts)), mergeBaseSha: mb };
}

/**
 * A commit's own changes: the diff from its first parent (first-parent view of merges, as
 * GitHub's commit page), or from the empty tree for a root commit.
 */
export async function diffCommit(gitDir: string, sha: string, parents: string[], opts: DiffOptions = {}): Promise<Diff> {
  return diffTrees(gitDir, parents[0] ?? emptyTreeFor(sha), sha, opts);
}

export interface RangeCommit {
  sha: string;
  message: string;
  author: string;
  authorEmail: string;
  /** ISO author date. */
  date: string;
}

/** Most commits `listRangeCommits` returns (GitHub's compare shows 250). */
export const MAX_RANGE_COMMITS = 250;

/**
 * Commits in `mergeBase(base, head)..head` (= `base..head`), oldest first (git-log(1) --reverse,
 * topological ties by date as git orders them), at most `limit` (default MAX_RANGE_COMMITS), plus
 * `totalCommits` (git rev-list --count). Spec "pulls.getCommits". Git's output is streamed and
 * git stopped after `limit` records.
 */
export async function listRangeCommits(gitDir: string, base: string, head: string, limit = MAX_RANGE_COMMITS): Promise<{ commits: RangeCommit[]; totalCommits: number }> {
  assertSha(base, "base");
  assertSha(head, "head");
  const range = [`^${base}`, head];
  const totalCommits = Number((await gitText(["rev-list", "--count", ...range, "--"], { gitDir })).trim());
  const commits: RangeCommit[] = [];
  if (totalCommits === 0 || limit <= 0) return { commits, totalCommits };
  const out = gitOutput(["log", "--reverse", "--format=%H%x00%an%x00%ae%x00%aI%x00%B%x00", "-z", ...range, "--"], { gitDir });
  let pending = "";
  try {
    outer: for (;;) {
      const chunk = await out.next();
      if (chunk === null) break;
      pending += chunk.toString("latin1"); // decoded per field below (utf8 of latin1 bytes)
      for (;;) {
        // one record = 5 NUL-terminated fields, then -z's NUL separator
        let idx = -1;
        let pos = 0;
        for (let k = 0; k < 6; k++) {
          idx = pending.indexOf("\0", pos);
          if (idx < 0) break;
          pos = idx + 1;
        }
        if (idx < 0) {
          if (pending.length > 8 * 1024 * 1024) throw new Error("git log: a commit record is larger than 8 MiB");
          break;
        }
        const fields = pending.slice(0, pos).split("\0").map((f) => Buffer.from(f, "latin1").toString("utf8"));
        pending = pending.slice(pos);
        commits.push({ sha: fields[0].replace(/^\n/, ""), author: fields[1], authorEmail: fields[2], date: new Date(fields[3]).toISOString(), message: fields[4].replace(/\n+$/, "") });
        if (commits.length >= limit) break outer;
      }
    }
  } finally {
    out.stop();
  }
  return { commits, totalCommits };
}

/** Number of commits reachable from `sha` (git rev-list --count), for the repository page. */
export async function countCommits(gitDir: string, sha: string): Promise<number> {
  assertSha(sha, "sha");
  return Number((await gitText(["rev-list", "--count", sha, "--"], { gitDir })).trim());
}

/** Commits only on `head` and only on `base` (git rev-list --left-right --count base...head). */
export async function aheadBehind(gitDir: string, base: string, head: string): Promise<{ aheadBy: number; behindBy: number }> {
  assertSha(base, "base");
  assertSha(head, "head");
  const [behind, ahead] = (await gitText(["rev-list", "--left-right", "--count", `${base}...${head}`, "--"], { gitDir })).trim().split(/\s+/).map(Number);
  return { aheadBy: ahead, behindBy: behind };
}
