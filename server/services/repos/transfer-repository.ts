/**
 * repos.transfer (docs/orgs.md "Transferring a repository"): a repository changes owner — a
 * person or an organization — and its former path keeps answering with a redirect.
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import { inTransaction } from "@/server/db/transaction";
import { acquireLease } from "@/server/db/lease";
import type { Actor } from "@/server/auth/actor";
import { repoGitDir } from "@/server/git/paths";
import { moveRepository, removeRepository } from "@/server/git/repository";
import { relinkFork } from "@/server/git/forks";
import { line } from "@/server/validation/strings";
import { repoOwnerFor } from "@/server/services/orgs/repo-owner";
import { repoSelect, type AuthorizedRepo } from "./access";
import { emitRepositoryEvent, transferredFrom } from "@/server/services/webhooks/repository-events";
import { dropRedirect } from "./redirects";

/** repos.transfer input (besides repoId): the new owner's name (the caller or an organization). */
export const transferInput = z.object({ newOwner: line("newOwner").trim().min(1, "newOwner is required").max(100) });

/** Where the repository lives now (the caller's permission there may differ from before). */
export interface TransferredRepo {
  id: string;
  owner: string;
  name: string;
}

/**
 * Transfers `repo` (the caller is its admin: the repo tier checked it) to `newOwner`: the caller
 * themself, or an organization where they may create repositories (owner, or member when
 * members may create: `repoOwnerFor`). In one transaction: the owner changes, a RepoRedirect
 * records the former path (a redirect at the new path, which the repository now shadows, is
 * deleted), the organization's team grants (TeamRepo) go when it leaves an organization
 * (collaborators stay), and the bare repository is renamed to DATA_DIR/repos/<new owner>/<name>.git
 * (forks borrowing its objects are re-pointed); the repository's webhooks get `repository`
 * "transferred" (GitHub's `changes.owner.from`). A failure after the rename renames it back, so
 * disk and database never disagree. A lease per repository serialises transfers of it.
 * Errors: BAD_REQUEST when `newOwner` is the current owner; NOT_FOUND when it is neither the
 * caller nor an organization; FORBIDDEN when the caller may not create repositories there;
 * CONFLICT when it already has a repository of that name, or another transfer of it is under way.
 */
export async function transferRepository(
  db: Db,
  actor: Actor,
  repo: AuthorizedRepo,
  raw: z.input<typeof transferInput>,
): Promise<TransferredRepo> {
  const { newOwner } = transferInput.parse(raw);
  if (newOwner.toLowerCase() === repo.owner.toLowerCase())
    throw new AppError("BAD_REQUEST", `${repo.owner}/${repo.name} already belongs to ${repo.owner}`);
  const target = await repoOwnerFor(db, actor, newOwner);
  const lease = await acquireLease(db, `repo-transfer:${repo.id}`, { ttlMs: 60_000 });
  if (!lease) throw new AppError("CONFLICT", `a transfer of ${repo.owner}/${repo.name} is already under way`);
  const from = repo.gitDir;
  const to = repoGitDir(target.username, repo.name);
  let moved = false;
  const relinked: string[] = [];
  try {
    const row = await inTransaction(db, async (tx) => {
      const current = await tx.repository.findUnique({
        where: { id: repo.id },
        select: { ownerId: true, nameLower: true, owner: { select: { isOrg: true, username: true } } },
      });
      if (!current || current.ownerId !== repo.ownerId)
        throw new AppError("CONFLICT", `${repo.owner}/${repo.name} changed owner meanwhile; retry`);
      let updated;
      try {
        updated = await tx.repository.update({ where: { id: repo.id }, data: { ownerId: target.id }, select: repoSelect });
      } catch (e) {
        if (isUniqueViolation(e)) throw new AppError("CONFLICT", `${target.username} already has a repository named "${repo.name}"`);
        throw e;
      }
      await dropRedirect(tx, target.id, repo.name);
      await tx.repoRedirect.upsert({
        where: { ownerId_nameLower: { ownerId: repo.ownerId, nameLower: current.nameLower } },
        create: { ownerId: repo.ownerId, nameLower: current.nameLower, repoId: repo.id },
        update: { repoId: repo.id },
      });
      if (current.owner.isOrg) await tx.teamRepo.deleteMany({ where: { repoId: repo.id } });
      const sender = { id: actor.user.id, username: actor.user.username };
      const formerOwner = { id: current.ownerId, username: current.owner.username, isOrg: current.owner.isOrg };
      await emitRepositoryEvent(tx, repo.id, "transferred", sender, transferredFrom(formerOwner));
      const forks = await tx.repository.findMany({
        where: { forkedFromId: repo.id },
        select: { name: true, owner: { select: { username: true } } },
      });
      // disk last, so a failure above never touched it; the new path is free (the update above
      // holds it): anything there is a leftover of a failed creation, as create-repository.ts says
      await removeRepository(to);
      await moveRepository(from, to);
      moved = true;
      for (const f of forks) {
        const forkDir = repoGitDir(f.owner.username, f.name);
        await relinkFork(forkDir, to);
        relinked.push(forkDir);
      }
      return updated;
    });
    return { id: row.id, owner: row.owner.username, name: row.name };
  } catch (e) {
    if (moved) await undoMove(from, to, relinked);
    throw e;
  } finally {
    await lease.release();
  }
}

/** Compensation when the database write failed after the rename: the folder and the forks' links go back. */
async function undoMove(from: string, to: string, relinked: string[]): Promise<void> {
  try {
    await moveRepository(to, from);
    for (const forkDir of relinked) await relinkFork(forkDir, from);
  } catch (e) {
    console.error(`transfer: moving ${to} back to ${from} failed`, e);
  }
}
