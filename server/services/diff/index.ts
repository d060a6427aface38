/**
 * Commits, compares and pull request diffs (docs/pulls.md "Diff"): the services behind
 * repos.commit, repos.compare, repos.commitCount and pulls.getDiff / pulls.getCommits. They resolve
 * refs to commit ids (user text reaches git only on `resolveCommits`' stdin, after `userArg`) and
 * hand the ids to server/git/diff.ts. Diff shape and limits: docs/pulls.md "Diff".
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { text } from "@/server/validation/strings";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { loadPull } from "@/server/services/pulls/locate";
import { forkRelation } from "@/server/services/repos/fork";
import { objectsDir } from "@/server/git/forks";
import * as git from "@/server/git/repository";
import { DIFF_LIMITS, diffCommit, diffThreeDot, warmThreeDot, type Diff, type DiffOptions } from "@/server/git/diff";
import { countCommits, listRangeCommits, type RangeCommit } from "@/server/git/commits";
import { rangeSummary } from "@/server/git/range-summary";
import { branchTips } from "@/server/git/ref-files";
import { repoGitDir } from "@/server/git/paths";

/** Most paths one `paths` filter may name (a page of the file list). */
export const MAX_FILTER_PATHS = 500;

/** Input fields shared by every diff-returning procedure: `path` (one file) or `paths` (a page of files). */
export const diffFilterInput = {
  path: text("path").min(1).max(4096).optional(),
  paths: z
    .array(text("paths[]").min(1).max(4096), { error: "paths must be a list of strings" })
    .max(MAX_FILTER_PATHS, `paths can name at most ${MAX_FILTER_PATHS} files`)
    .optional(),
  /** A smaller hunk-line budget for this response (100–50,000; default 50,000), e.g. a page's first paint. */
  maxLines: z
    .number({ error: "maxLines must be a number" })
    .int("maxLines must be an integer")
    .min(100, "maxLines must be at least 100")
    .max(DIFF_LIMITS.maxTotalLines, `maxLines must be at most ${DIFF_LIMITS.maxTotalLines}`)
    .optional(),
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
  const [sha] = await git.resolveCommits(repo.gitDir, [ref]);
  if (!sha) throw new AppError("NOT_FOUND", `${what} "${ref}" not found`);
  return sha;
}

/** Commit metadata by "gitDir id" (a commit id's metadata never changes), for the `paths` pages of one commit. */
const commitCache = new Map<string, git.Commit>();
const COMMIT_CACHE_SIZE = 64;

async function commitMeta(gitDir: string, id: string): Promise<git.Commit> {
  const key = `${gitDir}\0${id}`;
  const hit = commitCache.get(key);
  if (hit) return hit;
  const [found] = await git.listCommits(gitDir, id, { limit: 1, skip: 0 });
  const commit = Object.freeze({ ...found, parents: Object.freeze(found.parents) as string[] }); // shared by later answers
  commitCache.set(key, commit);
  while (commitCache.size > COMMIT_CACHE_SIZE) commitCache.delete(commitCache.keys().next().value!);
  return commit;
}

/**
 * One commit (repos.commit): its metadata (git.Commit: sha, parents, message, author,
 * authorEmail, date, committer, committedAt) and `diff`, its changes against its first parent
 * (the empty tree for a root commit). `sha` may be any commit name. Errors: NOT_FOUND.
 */
export async function commitWithDiff(repo: AuthorizedRepo, sha: string, filter: DiffFilter = {}): Promise<git.Commit & { diff: Diff }> {
  const id = await commitOf(repo, sha, "commit");
  const commit = await commitMeta(repo.gitDir, id);
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
export async function compare(
  repo: AuthorizedRepo,
  base: string,
  head: string,
  filter: DiffFilter = {},
  across?: CompareAcross,
): Promise<Comparison> {
  // across a fork (compareAcross): the head resolves in its own repository, and the git work runs
  // in `across.gitDir`, which reaches both commits (its own objects, its alternates, `borrow`)
  const [baseId, headId] = across
    ? await Promise.all([git.resolveCommits(repo.gitDir, [base]), git.resolveCommits(across.repo.gitDir, [head])]).then(([b, h]) => [
        b[0],
        h[0],
      ])
    : await git.resolveCommits(repo.gitDir, [base, head]);
  if (!baseId) throw new AppError("NOT_FOUND", `base "${base}" not found`);
  if (!headId) throw new AppError("NOT_FOUND", `head "${head}" not found`);
  const gitDir = across?.gitDir ?? repo.gitDir;
  const borrow = across?.borrow;
  // the diff runs beside the summary (merge base, counts, commits), which is cached per pair:
  // a `paths` page of the same comparison costs the ref lookup and its own files' diff
  const [diff, summary] = await Promise.all([
    diffThreeDot(gitDir, baseId, headId, { ...filterOf(filter), borrow }),
    rangeSummary(gitDir, baseId, headId, borrow),
  ]);
  const { mergeBaseSha, ...rest } = diff;
  return {
    baseSha: baseId,
    headSha: headId,
    mergeBaseSha,
    aheadBy: summary.aheadBy,
    behindBy: summary.behindBy,
    commits: summary.commits,
    totalCommits: summary.totalCommits,
    diff: rest,
  };
}

/** Where a compare across repositories runs: the head's repository, the git directory, and object folders to read as well. */
interface CompareAcross {
  repo: AuthorizedRepo;
  gitDir: string;
  borrow?: string[];
}

/**
 * Compare across a fork network (the compare page picks base and head branches, and a fork; GitHub
 * compares any two repositories of a network): `base` in `baseRepo`, `head` in `headRepo`, which
 * must be its fork, its parent, or a sibling fork (a fork of the same parent) — the network
 * `pulls.create` accepts. Nothing is fetched or written (docs/pulls.md "Forks"):
 *   - head is base's fork: the work runs in the fork, which reaches its parent's objects through
 *     alternates; base is head's fork: in base, likewise;
 *   - siblings share only their parent's objects, so the work runs in the base repository with
 *     the head's object folder added for that one git process (GIT_ALTERNATE_OBJECT_DIRECTORIES,
 *     read-only; the head's own alternates lead to the parent).
 * Errors: BAD_REQUEST for repositories outside the network (unrelated, or a fork detached from
 * its deleted parent).
 */
export async function compareAcross(
  db: Db,
  baseRepo: AuthorizedRepo,
  base: string,
  headRepo: AuthorizedRepo,
  head: string,
  filter: DiffFilter = {},
): Promise<Comparison> {
  const relation = await forkRelation(db, headRepo.id, baseRepo.id);
  if (relation === "same") return compare(baseRepo, base, head, filter);
  if (relation === null) {
    throw new AppError(
      "BAD_REQUEST",
      `${headRepo.owner}/${headRepo.name} is not in the fork network of ${baseRepo.owner}/${baseRepo.name}: compare with its fork, its parent or a fork of its parent`,
    );
  }
  if (relation === "fork") return compare(baseRepo, base, head, filter, { repo: headRepo, gitDir: headRepo.gitDir });
  if (relation === "parent") return compare(baseRepo, base, head, filter, { repo: headRepo, gitDir: baseRepo.gitDir });
  return compare(baseRepo, base, head, filter, { repo: headRepo, gitDir: baseRepo.gitDir, borrow: [objectsDir(headRepo.gitDir)] });
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
 * runs from merge-base(base, headSha) to headSha. The tip is read from the ref files
 * (server/git/ref-files.ts), without starting git.
 */
export async function pullBase(
  repo: Pick<AuthorizedRepo, "gitDir">,
  pr: { state: string; targetBranch: string; baseSha: string },
): Promise<string> {
  if (pr.state === "open") {
    const tip = (await branchTips(repo.gitDir, [pr.targetBranch]).catch(() => null))?.get(pr.targetBranch);
    if (tip) return tip;
  }
  return pr.baseSha;
}

/**
 * Runs `work(base, head)` on the commits a pull request's diff runs between: the row's head sha
 * and `pullBase`, trusted without a lookup of their own (git fails on an id it lacks). Only
 * when `work` fails does the pull request learn which one is missing. Errors: CONFLICT when the
 * pull request names a commit its repository no longer has (not NOT_FOUND: that answer means
 * "no such pull request or no access"); whatever `work` throws otherwise.
 */
async function onPullRange<T>(db: Db, repo: AuthorizedRepo, prId: string, work: (base: string, head: string) => Promise<T>): Promise<T> {
  const pr = await loadPull(db, repo, prId);
  const base = await pullBase(repo, pr);
  try {
    return await work(base, pr.headSha);
  } catch (e) {
    if (e instanceof AppError) throw e;
    const [head, baseId] = await git.resolveCommits(repo.gitDir, [pr.headSha, base]);
    if (!head) throw new AppError("CONFLICT", `head commit ${pr.headSha.slice(0, 10)} of pull request #${pr.number} is missing`);
    if (!baseId) throw new AppError("CONFLICT", `base commit ${pr.baseSha.slice(0, 10)} of pull request #${pr.number} is missing`);
    // both exist: names that were not full ids (a row written by hand) get one more try, resolved
    if (head !== pr.headSha || baseId !== base) return work(baseId, head);
    throw e;
  }
}

/**
 * pulls.getDiff: spec shape plus svc's extras (docs/pulls.md "Shape"), and
 * `baseSha`/`headSha`/`mergeBaseSha` used. No git process beyond the diff and a (cached) merge-base
 * lookup: the head comes from the row and the target tip from the ref files.
 */
export async function pullDiff(
  db: Db,
  repo: AuthorizedRepo,
  prId: string,
  filter: DiffFilter = {},
): Promise<Diff & { baseSha: string; headSha: string; mergeBaseSha: string }> {
  return onPullRange(db, repo, prId, async (base, head) => {
    const diff = await diffThreeDot(repo.gitDir, base, head, filterOf(filter));
    return { ...diff, baseSha: base, headSha: head };
  });
}

/** Most time the after-push warm-up may keep its git process (ms): past it git is stopped and nothing is cached. */
export const WARM_TIMEOUT_MS = 30_000;

/**
 * The after-push warm-up of a pull request's diff (the `pulls.refreshMergeability` job, after
 * its mergeability check; docs/pulls.md "Git processes and caches"): caches the merge base and
 * the per-file counts of the range the Files changed tab will ask for (`pullBase`…headSha), so
 * its first request stops git at the line budget instead of reading the whole patch. Bounded:
 * open pull requests only (the job runs for those a push moved), nothing when the range is
 * already cached, one `git diff --numstat` (no patch reaches node) stopped after
 * WARM_TIMEOUT_MS. The caches are per process: this helps when the job runs in the process that
 * serves the page (the default single-process server). Returns whether git ran. Errors: a plain
 * Error when git fails or times out; a pull request that is gone or not open, or whose
 * histories are unrelated, is not an error (false).
 */
export async function warmPullDiff(db: Db, prId: string): Promise<boolean> {
  const pr = await db.pullRequest.findUnique({
    where: { id: prId },
    select: {
      state: true,
      targetBranch: true,
      baseSha: true,
      headSha: true,
      repo: { select: { name: true, owner: { select: { username: true } } } },
    },
  });
  if (!pr || pr.state !== "open") return false;
  const gitDir = repoGitDir(pr.repo.owner.username, pr.repo.name);
  const base = await pullBase({ gitDir }, pr);
  return warmThreeDot(gitDir, base, pr.headSha, { timeoutMs: WARM_TIMEOUT_MS }).catch((e) => {
    if (e instanceof AppError) return false; // unrelated histories: the page answers BAD_REQUEST itself, nothing to cache
    throw e;
  });
}

/** pulls.getCommits: {commits (oldest first, at most 250), totalCommits} of merge-base..head. */
export async function pullCommits(db: Db, repo: AuthorizedRepo, prId: string): Promise<{ commits: RangeCommit[]; totalCommits: number }> {
  return onPullRange(db, repo, prId, (base, head) => listRangeCommits(repo.gitDir, base, head));
}
