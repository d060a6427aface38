/** repos.create: a repository row and its empty bare git repository on disk. */
import { z } from "zod";
import { line } from "@/server/validation/strings";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import type { Actor } from "@/server/auth/actor";
import { repoGitDir } from "@/server/git/paths";
import { branchNameProblem } from "@/server/git/refs";
import * as git from "@/server/git/repository";
import { repoNameProblem } from "@/lib/names";
import { repoOwnerFor } from "@/server/services/orgs/repo-owner";
import { inTransaction } from "@/server/db/transaction";
import { repoSelect, toAuthorized, type AuthorizedRepo } from "./access";
import { dropRedirect } from "./redirects";

/** repos.create input: owner? (the caller, or an organization: docs/orgs.md), name, description?, isPrivate? (false), defaultBranch? ("main"). */
export const createRepoInput = z.object({
  owner: line("owner").trim().min(1).max(100).optional(),
  name: line("name").trim().min(1, "name is required").max(100),
  description: line("description").trim().max(350, "description is at most 350 characters").optional(),
  isPrivate: z.boolean().optional(),
  defaultBranch: line("defaultBranch").trim().max(255).optional(),
});

/**
 * Creates a repository owned by the actor (or by organization `owner`, where the actor may create:
 * server/services/orgs/repo-owner.ts), with an empty bare git repository on disk.
 * Errors: BAD_REQUEST for an invalid name or branch; NOT_FOUND / FORBIDDEN for an organization the
 * actor may not create in; CONFLICT when the owner already has one with that name
 * (case-insensitive). The row is only kept if `git init` succeeds. A redirect left at this path by
 * a transfer is deleted (the new repository takes the path: ./redirects.ts).
 */
export async function createRepository(db: Db, actor: Actor, input: z.input<typeof createRepoInput>): Promise<AuthorizedRepo> {
  const { owner: ownerName, name, description, isPrivate = false, defaultBranch = "main" } = createRepoInput.parse(input);
  const nameProblem = repoNameProblem(name);
  if (nameProblem) throw new AppError("BAD_REQUEST", nameProblem);
  const branchProblem = branchNameProblem(defaultBranch);
  if (branchProblem) throw new AppError("BAD_REQUEST", branchProblem);
  const owner = await repoOwnerFor(db, actor, ownerName);
  let row;
  try {
    row = await inTransaction(db, async (tx) => {
      const created = await tx.repository.create({
        data: { ownerId: owner.id, name, nameLower: name.toLowerCase(), description: description || null, isPrivate, defaultBranch },
        select: repoSelect,
      });
      await dropRedirect(tx, owner.id, name);
      return created;
    });
  } catch (e) {
    if (isUniqueViolation(e) || (e instanceof AppError && e.code === "CONFLICT"))
      throw new AppError(
        "CONFLICT",
        `${owner.id === actor.user.id ? "you already have" : `${owner.username} already has`} a repository named "${name}"`,
      );
    throw e;
  }
  const gitDir = repoGitDir(owner.username, name);
  try {
    await git.removeRepository(gitDir); // a leftover folder from a failed earlier attempt
    await git.initBareRepository(gitDir, defaultBranch);
  } catch (e) {
    await db.repository.delete({ where: { id: row.id } }).catch(() => {});
    throw e;
  }
  return toAuthorized(row, "admin");
}
