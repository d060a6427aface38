/**
 * The source ("head") branch of a closed or merged pull request, from its merge box (docs/pulls.md
 * "Delete and restore the branch"; issue #22 item 12): pulls.headBranch (what the box may offer),
 * pulls.deleteBranch and pulls.restoreBranch, as GitHub's "Delete branch" / "Restore branch".
 * Both move the branch through services/repos/update-branch.ts `updateBranch` (compare-and-swap,
 * recorded as a push, so services/pulls/after-push.ts marks the open and closed pull requests from
 * that branch sourceDeleted with "source_deleted", or back with "source_restored"; the pull
 * request itself, merged ones included, is marked in the move's own transaction). Permission:
 * write on the repository holding the branch (a fork for cross-repository pull requests), as GitHub.
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { hasCommit } from "@/server/git/commits";
import { branchTips } from "@/server/git/ref-files";
import { atLeast, authorizeRepo, type AuthorizedRepo } from "@/server/services/repos/access";
import { updateBranch } from "@/server/services/repos/update-branch";
import { ZERO_SHA } from "@/lib/sha";
import type { Tx } from "@/server/db/transaction";
import { recordPullEvent } from "./events";
import { loadPull } from "./locate";

/** What pulls.headBranch answers: the branch, where it is, and what the caller may do with it. */
export interface HeadBranchStatus {
  /** The source branch's name. */
  branch: string;
  /** Its tip (40 hex), null when the branch does not exist. */
  sha: string | null;
  /** Delete is offered: the pull request is closed or merged, the branch is at its head, not the default branch, and the caller can write it. */
  canDelete: boolean;
  /** Restore is offered: the branch is gone, its head commit is still there, and the caller can write it. */
  canRestore: boolean;
  /** Revert is offered: merged by svc (merge, squash or rebase) and the caller can write the target repository. */
  canRevert: boolean;
}

type Pull = Awaited<ReturnType<typeof loadPull>>;
type HeadRepo = Pick<AuthorizedRepo, "id" | "gitDir" | "defaultBranch">;

/**
 * The repository holding `pr`'s source branch, at write permission for `actor`: `target` itself,
 * or the fork (authorizeRepo). Errors: UNAUTHORIZED anonymous; FORBIDDEN without write (a fork
 * the actor cannot read is FORBIDDEN too: the pull request names it already).
 */
async function writableHead(db: Db, actor: Actor | null, target: AuthorizedRepo, pr: Pull, doing: string): Promise<HeadRepo> {
  if (!actor) throw new AppError("UNAUTHORIZED", `sign in or send a token: ${doing} needs write permission`);
  if (pr.sourceRepoId === target.id) {
    if (!atLeast(target.permission, "write"))
      throw new AppError("FORBIDDEN", `${doing} needs write permission on ${target.owner}/${target.name}`);
    return target;
  }
  try {
    return await authorizeRepo(db, actor, { repoId: pr.sourceRepoId }, "write");
  } catch (e) {
    if (e instanceof AppError && e.code === "NOT_FOUND")
      throw new AppError("FORBIDDEN", `${doing} needs write permission on the fork holding "${pr.sourceBranch}"`);
    throw e;
  }
}

/** Sets pull request `id`'s sourceDeleted to `deleted` with its event, unless it is so already (the after-push pass then skips it). */
function markSource(id: string, deleted: boolean, sha: string, actor: Actor): (tx: Tx) => Promise<void> {
  return async (tx) => {
    const r = await tx.pullRequest.updateMany({ where: { id, sourceDeleted: !deleted }, data: { sourceDeleted: deleted } });
    if (r.count === 1) await recordPullEvent(tx, id, deleted ? "source_deleted" : "source_restored", { sha }, actor.user.id);
  };
}

/** The branch's tip in `head`, or null. */
async function tipOf(head: HeadRepo, branch: string): Promise<string | null> {
  return (await branchTips(head.gitDir, [branch])).get(branch) ?? null;
}

/**
 * pulls.headBranch {prId}: the source branch's state and which of Delete / Restore / Revert the
 * merge box offers `actor` (false for readers and anonymous callers; never throws for them).
 * Errors: NOT_FOUND (no such pull request).
 */
export async function headBranchStatus(db: Db, actor: Actor | null, repo: AuthorizedRepo, prId: string): Promise<HeadBranchStatus> {
  const pr = await loadPull(db, repo, prId);
  const head = await writableHead(db, actor, repo, pr, "changing the branch").catch(() => null);
  let sha: string | null = null;
  if (head) sha = await tipOf(head, pr.sourceBranch);
  else if (pr.sourceRepoId === repo.id) sha = await tipOf(repo, pr.sourceBranch);
  const done = pr.state !== "open";
  return {
    branch: pr.sourceBranch,
    sha,
    canDelete: !!head && done && sha === pr.headSha && pr.sourceBranch !== head.defaultBranch,
    canRestore: !!head && done && sha === null && (await hasCommit(head.gitDir, pr.headSha)),
    canRevert:
      pr.state === "merged" && !!pr.mergeSha && REVERTIBLE.has(pr.mergeStrategy ?? "") && !!actor && atLeast(repo.permission, "write"),
  };
}

/** The strategies pulls.revert can undo (an "external" merge happened outside svc). */
export const REVERTIBLE = new Set(["merge", "squash", "rebase"]);

/**
 * pulls.deleteBranch {prId}: deletes the source branch of a closed or merged pull request
 * (compare-and-swap from the pull request's head, so commits pushed after it are never lost).
 * Returns the new status. Errors: UNAUTHORIZED/FORBIDDEN (write on the branch's repository),
 * PRECONDITION_FAILED (the pull request is open, the branch is the default branch or already
 * gone), CONFLICT (the branch is not at the pull request's head: it has other commits).
 */
export async function deletePullBranch(db: Db, actor: Actor | null, repo: AuthorizedRepo, prId: string): Promise<HeadBranchStatus> {
  const pr = await loadPull(db, repo, prId);
  const head = await writableHead(db, actor, repo, pr, "deleting the branch");
  if (pr.state === "open")
    throw new AppError("PRECONDITION_FAILED", "the pull request is still open: close or merge it before deleting its branch");
  if (pr.sourceBranch === head.defaultBranch) throw new AppError("PRECONDITION_FAILED", "the default branch cannot be deleted");
  const tip = await tipOf(head, pr.sourceBranch);
  if (!tip) throw new AppError("PRECONDITION_FAILED", `the branch "${pr.sourceBranch}" was already deleted`);
  const conflict = `the branch "${pr.sourceBranch}" has commits that are not in this pull request; nothing was deleted`;
  if (tip !== pr.headSha) throw new AppError("CONFLICT", conflict);
  await updateBranch(
    db,
    actor!,
    head,
    { ref: `refs/heads/${pr.sourceBranch}`, oldSha: tip, newSha: ZERO_SHA, reason: `delete the branch of pull request #${pr.number}` },
    { conflictMessage: conflict, writes: markSource(pr.id, true, tip, actor!) },
  );
  return headBranchStatus(db, actor, repo, prId);
}

/**
 * pulls.restoreBranch {prId}: creates the source branch again at the pull request's head
 * (compare-and-swap from the zero id: a branch created meanwhile is never overwritten). Any
 * state: an open pull request whose branch was deleted gets it back too. Returns the new status.
 * Errors: UNAUTHORIZED/FORBIDDEN (write on the branch's repository), CONFLICT (a branch of that
 * name exists), PRECONDITION_FAILED (the head commit is no longer in the repository).
 */
export async function restorePullBranch(db: Db, actor: Actor | null, repo: AuthorizedRepo, prId: string): Promise<HeadBranchStatus> {
  const pr = await loadPull(db, repo, prId);
  const head = await writableHead(db, actor, repo, pr, "restoring the branch");
  const taken = `a branch named "${pr.sourceBranch}" already exists; nothing was restored`;
  if (await tipOf(head, pr.sourceBranch)) throw new AppError("CONFLICT", taken);
  if (!(await hasCommit(head.gitDir, pr.headSha)))
    throw new AppError("PRECONDITION_FAILED", `the head commit ${pr.headSha.slice(0, 12)} is no longer in the repository`);
  await updateBranch(
    db,
    actor!,
    head,
    {
      ref: `refs/heads/${pr.sourceBranch}`,
      oldSha: ZERO_SHA,
      newSha: pr.headSha,
      reason: `restore the branch of pull request #${pr.number}`,
    },
    { conflictMessage: taken, writes: markSource(pr.id, false, pr.headSha, actor!) },
  );
  return headBranchStatus(db, actor, repo, prId);
}
