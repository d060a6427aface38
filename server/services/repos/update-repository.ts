/** repos.update: description, visibility and default branch. */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { inTransaction } from "@/server/db/transaction";
import { AppError } from "@/server/errors";
import { emitRepositoryEvent } from "@/server/services/webhooks/repository-events";
import { branchNameProblem } from "@/server/git/refs";
import * as git from "@/server/git/repository";
import { repoSelect, toAuthorized, type AuthorizedRepo } from "./access";

/**
 * Updates description, visibility or default branch (admin; `actor` is the webhook events'
 * sender). In the same transaction, GitHub's `repository` webhook events for what changed:
 * `privatized` / `publicized`, and `edited` with `changes {description?, default_branch? : {from}}`.
 * Errors: BAD_REQUEST for an unknown branch; FORBIDDEN when making public a fork whose parent is
 * private (`refusePublishingPrivateParent`).
 */
export async function updateRepository(
  db: Db,
  actor: Actor | null,
  repo: AuthorizedRepo,
  input: { description?: string | null; isPrivate?: boolean; defaultBranch?: string },
): Promise<AuthorizedRepo> {
  if (input.isPrivate === false && repo.isPrivate) await refusePublishingPrivateParent(db, repo.id);
  if (input.defaultBranch !== undefined && input.defaultBranch !== repo.defaultBranch) {
    const problem = branchNameProblem(input.defaultBranch);
    if (problem) throw new AppError("BAD_REQUEST", problem);
    const empty = await git.isEmptyRepository(repo.gitDir);
    if (!empty && !(await git.resolveCommit(repo.gitDir, `refs/heads/${input.defaultBranch}`))) {
      throw new AppError("BAD_REQUEST", `branch "${input.defaultBranch}" does not exist`);
    }
    await git.setHead(repo.gitDir, input.defaultBranch);
  }
  const sender = actor && { id: actor.user.id, username: actor.user.username };
  const row = await inTransaction(db, async (tx) => {
    const before = await tx.repository.findUniqueOrThrow({
      where: { id: repo.id },
      select: { description: true, isPrivate: true, defaultBranch: true },
    });
    const updated = await tx.repository.update({
      where: { id: repo.id },
      data: { description: input.description, isPrivate: input.isPrivate, defaultBranch: input.defaultBranch },
      select: repoSelect,
    });
    if (updated.isPrivate !== before.isPrivate)
      await emitRepositoryEvent(tx, repo.id, updated.isPrivate ? "privatized" : "publicized", sender);
    const changes = {
      ...(updated.description !== before.description ? { description: { from: before.description } } : {}),
      ...(updated.defaultBranch !== before.defaultBranch ? { default_branch: { from: before.defaultBranch } } : {}),
    };
    if (Object.keys(changes).length) await emitRepositoryEvent(tx, repo.id, "edited", sender, changes);
    return updated;
  });
  return toAuthorized(row, repo.permission);
}

/**
 * A fork of a private repository stays private, as on GitHub: forking needs only read access,
 * so a reader who could make their fork public would publish the parent's code (the fork shares
 * its objects and copies its branches). The parent is looked up through `forkedFromId` now, so a
 * parent made public since lets its forks follow. The message does not name the parent: the
 * caller may no longer be able to read it. Throws FORBIDDEN.
 */
async function refusePublishingPrivateParent(db: Db, repoId: string): Promise<void> {
  const row = await db.repository.findUnique({
    where: { id: repoId },
    select: { forkedFrom: { select: { isPrivate: true } } },
  });
  if (row?.forkedFrom?.isPrivate) {
    throw new AppError("FORBIDDEN", "a fork of a private repository cannot be made public while its parent is private");
  }
}
