/** Resolving a ref (branch, tag or sha) of a repository to its commit. */
import { AppError } from "@/server/errors";
import * as git from "@/server/git/repository";
import type { AuthorizedRepo } from "./access";

/**
 * The commit a ref names in the repository (branch, tag or sha; default branch when absent).
 * Errors: NOT_FOUND when it does not resolve (an empty repository has no refs).
 */
export async function resolveRef(repo: AuthorizedRepo, ref?: string): Promise<{ ref: string; sha: string }> {
  const name = ref || repo.defaultBranch;
  const sha = await git.resolveCommit(repo.gitDir, name);
  if (!sha) throw new AppError("NOT_FOUND", `ref "${name}" not found`);
  return { ref: name, sha };
}
