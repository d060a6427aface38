/**
 * The commits a pull request's diff runs between (docs/pulls.md "Diff"): `pullBase` (the target
 * tip while open, else the recorded base) and the row's head. Used by the pull request diff and
 * commit list here and by the services that anchor review comments to that diff.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { loadPull } from "@/server/services/pulls/locate";
import * as git from "@/server/git/repository";
import { branchTips } from "@/server/git/ref-files";
import type { LfsDiffSource } from "@/server/services/lfs/lfs-diff";

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

/** What the diff needs of a pull request's row (the `byPullIdWithHead` locator reads it with the authorization query). */
export interface PullRangeRow {
  number: number;
  state: string;
  targetBranch: string;
  baseSha: string;
  headSha: string;
  /** The repository of the head (the target's own id unless from a fork). */
  sourceRepoId: string;
}

/**
 * Where a pull request's diff reads Git LFS objects (docs/lfs.md "Forks"): the target's
 * LfsRepoObject rows and, for a pull request from a fork, the source's: the objects a contributor
 * uploaded to their fork are shown in the pull request (its content is visible to the target's
 * readers already) before the merge links them to the target (services/lfs/link-merged-objects.ts).
 */
export function pullLfsSource(repo: Pick<AuthorizedRepo, "id" | "gitDir">, pr: Pick<PullRangeRow, "sourceRepoId">): LfsDiffSource {
  return { gitDir: repo.gitDir, repoIds: pr.sourceRepoId === repo.id ? [repo.id] : [repo.id, pr.sourceRepoId] };
}

/**
 * Runs `work(base, head)` on the commits a pull request's diff runs between: the row's head sha
 * and `pullBase`, trusted without a lookup of their own (git fails on an id it lacks). Only
 * when `work` fails does the pull request learn which one is missing. `pull`: the pull request's
 * id (its row is read here) or its row already read. Errors: NOT_FOUND for an unknown id;
 * CONFLICT when the pull request names a commit its repository no longer has (not NOT_FOUND:
 * that answer means "no such pull request or no access"); whatever `work` throws otherwise.
 */
export async function onPullRange<T>(
  db: Db,
  repo: AuthorizedRepo,
  pull: string | PullRangeRow,
  work: (base: string, head: string, pr: PullRangeRow) => Promise<T>,
): Promise<T> {
  const pr = typeof pull === "string" ? await loadPull(db, repo, pull) : pull;
  const base = await pullBase(repo, pr);
  try {
    return await work(base, pr.headSha, pr);
  } catch (e) {
    if (e instanceof AppError) throw e;
    const [head, baseId] = await git.resolveCommits(repo.gitDir, [pr.headSha, base]);
    if (!head) throw new AppError("CONFLICT", `head commit ${pr.headSha.slice(0, 10)} of pull request #${pr.number} is missing`);
    if (!baseId) throw new AppError("CONFLICT", `base commit ${pr.baseSha.slice(0, 10)} of pull request #${pr.number} is missing`);
    // both exist: names that were not full ids (a row written by hand) get one more try, resolved
    if (head !== pr.headSha || baseId !== base) return work(baseId, head, pr);
    throw e;
  }
}
