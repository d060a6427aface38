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
import { repoSelect, toAuthorized, type AuthorizedRepo } from "./access";

/** repos.create input: name, description?, isPrivate? (false), defaultBranch? ("main"). */
export const createRepoInput = z.object({
  name: line("name").trim().min(1, "name is required").max(100),
  description: line("description").trim().max(350, "description is at most 350 characters").optional(),
  isPrivate: z.boolean().optional(),
  defaultBranch: line("defaultBranch").trim().max(255).optional(),
});

/**
 * Creates a repository owned by the actor, with an empty bare git repository on disk.
 * Errors: BAD_REQUEST for an invalid name or branch; CONFLICT when the actor already owns one
 * with that name (case-insensitive). The row is only kept if `git init` succeeds.
 */
export async function createRepository(db: Db, actor: Actor, input: z.input<typeof createRepoInput>): Promise<AuthorizedRepo> {
  const { name, description, isPrivate = false, defaultBranch = "main" } = createRepoInput.parse(input);
  const nameProblem = repoNameProblem(name);
  if (nameProblem) throw new AppError("BAD_REQUEST", nameProblem);
  const branchProblem = branchNameProblem(defaultBranch);
  if (branchProblem) throw new AppError("BAD_REQUEST", branchProblem);
  let row;
  try {
    row = await db.repository.create({
      data: { ownerId: actor.user.id, name, nameLower: name.toLowerCase(), description: description || null, isPrivate, defaultBranch },
      select: repoSelect,
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", `you already have a repository named "${name}"`);
    throw e;
  }
  const gitDir = repoGitDir(actor.user.username, name);
  try {
    await git.removeRepository(gitDir); // a leftover folder from a failed earlier attempt
    await git.initBareRepository(gitDir, defaultBranch);
  } catch (e) {
    await db.repository.delete({ where: { id: row.id } }).catch(() => {});
    throw e;
  }
  return toAuthorized(row, "admin");
}
