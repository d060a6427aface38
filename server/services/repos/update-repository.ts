/** repos.update: description, visibility and default branch. */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { branchNameProblem } from "@/server/git/refs";
import * as git from "@/server/git/repository";
import { repoSelect, toAuthorized, type AuthorizedRepo } from "./access";

/** Updates description, visibility or default branch (admin). Errors: BAD_REQUEST for an unknown branch. */
export async function updateRepository(
  db: Db,
  repo: AuthorizedRepo,
  input: { description?: string | null; isPrivate?: boolean; defaultBranch?: string },
): Promise<AuthorizedRepo> {
  if (input.defaultBranch !== undefined && input.defaultBranch !== repo.defaultBranch) {
    const problem = branchNameProblem(input.defaultBranch);
    if (problem) throw new AppError("BAD_REQUEST", problem);
    const empty = await git.isEmptyRepository(repo.gitDir);
    if (!empty && !(await git.resolveCommit(repo.gitDir, `refs/heads/${input.defaultBranch}`))) {
      throw new AppError("BAD_REQUEST", `branch "${input.defaultBranch}" does not exist`);
    }
    await git.setHead(repo.gitDir, input.defaultBranch);
  }
  const row = await db.repository.update({
    where: { id: repo.id },
    data: { description: input.description, isPrivate: input.isPrivate, defaultBranch: input.defaultBranch },
    select: repoSelect,
  });
  return toAuthorized(row, repo.permission);
}
