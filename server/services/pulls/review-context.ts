/**
 * What the review services share (docs/pulls.md "Review"): the caller, the pull request row,
 * permission helpers, and "is this commit a commit of the pull request" — reachable from the head
 * and not from the merge base with the target (GitHub's commit list of a pull request).
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { atLeast, type AuthorizedRepo } from "@/server/services/repos/access";
import { requireActor } from "@/server/services/issues/core";
import { pullBase } from "@/server/services/diff/pull-range";
import { isAncestor, mergeBase } from "@/server/git/commits";
import { resolveCommit } from "@/server/git/repository";
import { loadPull } from "./locate";

export type ReviewRepo = Pick<AuthorizedRepo, "id" | "gitDir" | "permission" | "ownerId" | "isPrivate" | "owner" | "name">;
export type PullRow = Awaited<ReturnType<typeof loadPull>>;

export { requireActor };

/** True when the caller acts with write permission (or more) on the repository. */
export function canWrite(repo: Pick<AuthorizedRepo, "permission">): boolean {
  return atLeast(repo.permission, "write");
}

/** The signed-in caller and pull request `prId` of `repo`. UNAUTHORIZED, NOT_FOUND. */
export async function callerAndPull(db: Db, caller: Actor | null, repo: ReviewRepo, prId: string): Promise<{ actor: Actor; pr: PullRow }> {
  const actor = requireActor(caller);
  return { actor, pr: await loadPull(db, repo, prId) };
}

/** The base the pull request's diff starts from and the merge base of it with `head` (docs/pulls.md "Diff"). */
export async function pullBases(repo: ReviewRepo, pr: PullRow, head: string): Promise<{ base: string; mergeBase: string | null }> {
  const base = await pullBase(repo, pr);
  return { base, mergeBase: await mergeBase(repo.gitDir, base, head).catch(() => null) };
}

/**
 * Checks that `commitSha` is a commit of pull request `pr`: it exists, the head contains it, and
 * the merge base with the target does not (so the target's own commits are refused).
 * Errors: BAD_REQUEST "<sha> is not a commit of pull request #N"; CONFLICT when the pull
 * request's own head is missing from the repository.
 */
export async function assertCommitOfPull(repo: ReviewRepo, pr: PullRow, commitSha: string): Promise<void> {
  const refuse = (why: string) =>
    new AppError("BAD_REQUEST", `commit ${commitSha.slice(0, 10)} is not a commit of pull request #${pr.number}: ${why}`);
  if (commitSha === pr.headSha) {
    // not NOT_FOUND: that answer means "no such pull request or no access" (as services/diff/pull-range.ts `onPullRange`)
    if (!(await resolveCommit(repo.gitDir, commitSha)))
      throw new AppError("CONFLICT", `head commit ${commitSha.slice(0, 10)} of pull request #${pr.number} is missing from the repository`);
    return;
  }
  if (!(await resolveCommit(repo.gitDir, commitSha))) throw refuse("no such commit in the repository");
  if (!(await isAncestor(repo.gitDir, commitSha, pr.headSha))) throw refuse("the pull request's head does not contain it");
  const { mergeBase: mb } = await pullBases(repo, pr, pr.headSha);
  if (mb && (await isAncestor(repo.gitDir, commitSha, mb))) throw refuse(`it is already on ${pr.targetBranch}`);
}
