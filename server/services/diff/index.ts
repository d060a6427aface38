/**
 * Commits, compares and pull request diffs (issue #8): the services behind repos.commit,
 * repos.compare, repos.commitCount and pulls.getDiff / pulls.getCommits. They resolve refs to
 * commit ids (user text reaches git only through `resolveCommit`, after `userArg`) and hand the
 * ids to server/git/diff.ts. Diff shape and limits: docs/pulls.md "Diff".
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { text } from "@/server/validation/strings";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { loadPull } from "@/server/services/pulls/locate";
import * as git from "@/server/git/repository";
import { DIFF_LIMITS, aheadBehind, countCommits, diffCommit, diffThreeDot, diffTrees, listRangeCommits, mergeBase, type Diff, type DiffOptions, type RangeCommit } from "@/server/git/diff";

/** Most paths one `paths` filter may name (a page of the file list). */
export const MAX_FILTER_PATHS = 500;

/** Input fields shared by every diff-returning procedure: `path` (one file) or `paths` (a page of files). */
export const diffFilterInput = {
  path: text("path").min(1).max(4096).optional(),
  paths: z.array(text("paths[]").min(1).max(4096), { error: "paths must be a list of strings" }).max(MAX_FILTER_PATHS, `paths can name at most ${MAX_FILTER_PATHS} files`).optional(),
  /** A smaller hunk-line budget for this response (100–50,000; default 50,000), e.g. a page's first paint. */
  maxLines: z.number({ error: "maxLines must be a number" }).int("maxLines must be an integer").min(100, "maxLines must be at least 100").max(DIFF_LIMITS.maxTotalLines, `maxLines must be at most ${DIFF_LIMITS.maxTotalLines}`).optional(),
};

export interface DiffFilter {
  path?: string;
  paths?: string[];
  maxLines?: number;
}

function filterOf(f: DiffFilter): DiffOptions {
  return { path: f.path, paths: f.paths, limits: f.maxLines ? { maxTotalLines: f.maxLines } : undefined };
}

/** A commit id or name resolved in `repo`. Errors: NOT_FOUND `<what> "<ref>" not found`. */
async function commitOf(repo: AuthorizedRepo, ref: string, what: string): Promise<string> {
  const sha = await git.resolveCommit(repo.gitDir, ref);
  if (!sha) throw new AppError("NOT_FOUND", `${what} "${ref}" not found`);
  return sha;
}

/**
 * One commit (repos.commit): its metadata (git.Commit: sha, parents, message, author,
 * authorEmail, date, committer, committedAt) and `diff`, its changes against its first parent
 * (the empty tree for a root commit). `sha` may be any commit name. Errors: NOT_FOUND.
 */
export async function commitWithDiff(repo: AuthorizedRepo, sha: string, filter: DiffFilter = {}): Promise<git.Commit & { diff: Diff }> {
  const id = await commitOf(repo, sha, "commit");
  const [commit] = await git.listCommits(repo.gitDir, id, { limit: 1, skip: 0 });
  return { ...commit, diff: await diffCommit(repo.gitDir, id, commit.parents, filterOf(filter)) };
}

export interface Comparison {
  baseSha: string;
  headSha: string;
  mergeBaseSha: string;
  /** Commits on head not on base / on base not on head. */
  aheadBy: number;
  behindBy: number;
  /** mergeBase..head, oldest first, at most 250 (`totalCommits` counts them all). */
  commits: RangeCommit[];
  totalCommits: number;
  /** Three-dot diff: mergeBase → head. */
  diff: Diff;
}

/**
 * `base...head` as GitHub's compare shows it (repos.compare): ahead/behind counts, the commits
 * on head since the merge base, and the three-dot diff. Errors: NOT_FOUND for an unknown ref;
 * BAD_REQUEST when the histories are unrelated.
 */
export async function compare(repo: AuthorizedRepo, base: string, head: string, filter: DiffFilter = {}, headRepo?: { repo: AuthorizedRepo; gitDir: string }): Promise<Comparison> {
  // across a fork (compareAcross): the head resolves in its own repository, and the git work runs
  // in the repository that holds both commits (a fork borrows its parent's objects)
  const [baseSha, headSha] = await Promise.all([commitOf(repo, base, "base"), commitOf(headRepo?.repo ?? repo, head, "head")]);
  repo = headRepo ? { ...repo, gitDir: headRepo.gitDir } : repo;
  const mergeBaseSha = await mergeBase(repo.gitDir, baseSha, headSha);
  if (!mergeBaseSha) throw new AppError("BAD_REQUEST", "the two commits have entirely different histories: nothing to compare");
  // the diff, the counts and the commit list need only the merge base: run them side by side
  const [diff, counts, range] = await Promise.all([
    diffTrees(repo.gitDir, mergeBaseSha, headSha, filterOf(filter)),
    aheadBehind(repo.gitDir, baseSha, headSha),
    listRangeCommits(repo.gitDir, mergeBaseSha, headSha),
  ]);
  return { baseSha, headSha, mergeBaseSha, ...counts, commits: range.commits, totalCommits: range.totalCommits, diff };
}

/**
 * Compare across a fork (issue #8 "pick base and compare branches (and a fork)"): `base` in
 * `baseRepo`, `head` in `headRepo`, which must be a fork of `baseRepo` or its parent. The work
 * runs in the fork, whose object store reaches its parent's through git alternates (docs/pulls.md
 * "Forks"), so nothing is fetched or written. Errors: BAD_REQUEST for repositories that are not
 * parent and fork (sibling forks share no objects: open the compare page in the fork's parent).
 */
export async function compareAcross(db: Db, baseRepo: AuthorizedRepo, base: string, headRepo: AuthorizedRepo, head: string, filter: DiffFilter = {}): Promise<Comparison> {
  if (headRepo.id === baseRepo.id) return compare(baseRepo, base, head, filter);
  const rows = await db.repository.findMany({ where: { id: { in: [baseRepo.id, headRepo.id] } }, select: { id: true, forkedFromId: true } });
  const forkOf = (id: string) => rows.find((r) => r.id === id)?.forkedFromId ?? null;
  const holder = forkOf(headRepo.id) === baseRepo.id ? headRepo : forkOf(baseRepo.id) === headRepo.id ? baseRepo : null;
  if (!holder) throw new AppError("BAD_REQUEST", `${headRepo.owner}/${headRepo.name} is not a fork of ${baseRepo.owner}/${baseRepo.name} (nor its parent)`);
  return compare(baseRepo, base, head, filter, { repo: headRepo, gitDir: holder.gitDir });
}

/** Commits reachable from `ref` (default branch when absent): {ref, sha, count}. Errors: NOT_FOUND. */
export async function commitCount(repo: AuthorizedRepo, ref?: string): Promise<{ ref: string; sha: string; count: number }> {
  const name = ref || repo.defaultBranch;
  const sha = await commitOf(repo, name, "ref");
  return { ref: name, sha, count: await countCommits(repo.gitDir, sha) };
}

/**
 * The base commit a pull request's diff starts from (docs/pulls.md "Diff"): while open, the
 * target branch's current tip (so "Files changed" shows what merging would bring, as GitHub
 * does), or `baseSha` when the target branch is gone; once merged or closed, `baseSha` (the
 * target tip already contains a merged head, which would leave nothing to show). The diff then
 * runs from merge-base(base, headSha) to headSha.
 */
export async function pullBase(repo: Pick<AuthorizedRepo, "gitDir">, pr: { state: string; targetBranch: string; baseSha: string }): Promise<string> {
  if (pr.state === "open") {
    const tip = await git.resolveCommit(repo.gitDir, `refs/heads/${pr.targetBranch}`).catch(() => null);
    if (tip) return tip;
  }
  return pr.baseSha;
}

/**
 * The commits a pull request's diff runs between. Errors: CONFLICT when the pull request names a
 * commit its repository no longer has (not NOT_FOUND: that answer means "no such pull request or
 * no access").
 */
async function pullRange(db: Db, repo: AuthorizedRepo, prId: string) {
  const pr = await loadPull(db, repo, prId);
  const head = await git.resolveCommit(repo.gitDir, pr.headSha);
  if (!head) throw new AppError("CONFLICT", `head commit ${pr.headSha.slice(0, 10)} of pull request #${pr.number} is missing`);
  const base = await git.resolveCommit(repo.gitDir, await pullBase(repo, pr));
  if (!base) throw new AppError("CONFLICT", `base commit ${pr.baseSha.slice(0, 10)} of pull request #${pr.number} is missing`);
  return { pr, base, head };
}

/** pulls.getDiff: spec shape plus the issue #8 extras, and `baseSha`/`headSha`/`mergeBaseSha` used. */
export async function pullDiff(db: Db, repo: AuthorizedRepo, prId: string, filter: DiffFilter = {}): Promise<Diff & { baseSha: string; headSha: string; mergeBaseSha: string }> {
  const { base, head } = await pullRange(db, repo, prId);
  const diff = await diffThreeDot(repo.gitDir, base, head, filterOf(filter));
  return { ...diff, baseSha: base, headSha: head };
}

/** pulls.getCommits: {commits (oldest first, at most 250), totalCommits} of merge-base..head. */
export async function pullCommits(db: Db, repo: AuthorizedRepo, prId: string): Promise<{ commits: RangeCommit[]; totalCommits: number }> {
  const { base, head } = await pullRange(db, repo, prId);
  return listRangeCommits(repo.gitDir, base, head);
}
