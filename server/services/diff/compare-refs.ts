/**
 * Comparing two refs (repos.compare; docs/pulls.md "Diff", "Forks"): ahead/behind counts, the
 * commits on the head since the merge base and the three-dot diff, in one repository or across
 * its fork network. Refs are resolved to commit ids (user text reaches git only on
 * `resolveCommits`' stdin, after `userArg`) and the ids handed to server/git/diff.ts.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { forkRelation } from "@/server/services/repos/fork";
import { objectsDir } from "@/server/git/forks";
import * as git from "@/server/git/repository";
import { diffThreeDot, type Diff } from "@/server/git/diff";
import type { RangeCommit } from "@/server/git/commits";
import { rangeSummary } from "@/server/git/range-summary";
import { diffOptions, type DiffFilter } from "./filter";
import { withLfsDiffs } from "@/server/services/lfs/lfs-diff-shapes";

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

/** Where a compare across repositories runs: the head's repository, the git directory, and object folders to read as well. */
export interface CompareAcross {
  repo: AuthorizedRepo;
  gitDir: string;
  borrow?: string[];
}

/**
 * The commit ids `base` and `head` name and where git runs on them: across a fork
 * (`compareAcross`) the head resolves in its own repository, and the git work runs in
 * `across.gitDir`, which reaches both commits (its own objects, its alternates, `borrow`).
 * Errors: NOT_FOUND for an unknown ref.
 */
export async function resolvePair(
  repo: AuthorizedRepo,
  base: string,
  head: string,
  across?: CompareAcross,
): Promise<{ baseId: string; headId: string; gitDir: string; borrow?: string[] }> {
  const [baseId, headId] = across
    ? await Promise.all([git.resolveCommits(repo.gitDir, [base]), git.resolveCommits(across.repo.gitDir, [head])]).then(([b, h]) => [
        b[0],
        h[0],
      ])
    : await git.resolveCommits(repo.gitDir, [base, head]);
  if (!baseId) throw new AppError("NOT_FOUND", `base "${base}" not found`);
  if (!headId) throw new AppError("NOT_FOUND", `head "${head}" not found`);
  return { baseId, headId, gitDir: across?.gitDir ?? repo.gitDir, borrow: across?.borrow };
}

/**
 * `base...head` as GitHub's compare shows it (repos.compare): ahead/behind counts, the commits
 * on head since the merge base, and the three-dot diff, Git LFS pointer files shown as their
 * objects (served by `repo` or the head's repository; docs/lfs.md "In the browser"). Errors:
 * NOT_FOUND for an unknown ref; BAD_REQUEST when the histories are unrelated.
 */
export async function compare(
  db: Db,
  repo: AuthorizedRepo,
  base: string,
  head: string,
  filter: DiffFilter = {},
  across?: CompareAcross,
): Promise<Comparison> {
  const { baseId, headId, gitDir, borrow } = await resolvePair(repo, base, head, across);
  // the diff runs beside the summary (merge base, counts, commits), which is cached per pair:
  // a `paths` page of the same comparison costs the ref lookup and its own files' diff
  const lfs = { gitDir, borrow, repoIds: [...new Set([repo.id, across?.repo.id ?? repo.id])] };
  const [diff, summary] = await Promise.all([
    diffThreeDot(gitDir, baseId, headId, { ...diffOptions(filter), borrow }).then((d) => withLfsDiffs(db, lfs, d)),
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
  return compare(db, baseRepo, base, head, filter, await acrossNetwork(db, baseRepo, headRepo));
}

/**
 * Where a compare of `baseRepo`'s base with `headRepo`'s head runs (`compareAcross`): undefined
 * for the same repository. Errors: BAD_REQUEST for repositories outside the fork network.
 */
export async function acrossNetwork(db: Db, baseRepo: AuthorizedRepo, headRepo: AuthorizedRepo): Promise<CompareAcross | undefined> {
  const relation = await forkRelation(db, headRepo.id, baseRepo.id);
  if (relation === "same") return undefined;
  if (relation === null) {
    throw new AppError(
      "BAD_REQUEST",
      `${headRepo.owner}/${headRepo.name} is not in the fork network of ${baseRepo.owner}/${baseRepo.name}: compare with its fork, its parent or a fork of its parent`,
    );
  }
  if (relation === "fork") return { repo: headRepo, gitDir: headRepo.gitDir };
  if (relation === "parent") return { repo: headRepo, gitDir: baseRepo.gitDir };
  return { repo: headRepo, gitDir: baseRepo.gitDir, borrow: [objectsDir(headRepo.gitDir)] };
}
