/**
 * A commit name a caller typed (repos.commit, repos.commitCount) resolved to its id. The name
 * reaches git only on `resolveCommits`' stdin, after `userArg` (server/git/repository.ts).
 */
import { AppError } from "@/server/errors";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import * as git from "@/server/git/repository";

/** The commit id `ref` (any commit name) names in `repo`. Errors: NOT_FOUND `<what> "<ref>" not found`. */
export async function findCommit(repo: AuthorizedRepo, ref: string, what: string): Promise<string> {
  const [sha] = await git.resolveCommits(repo.gitDir, [ref]);
  if (!sha) throw new AppError("NOT_FOUND", `${what} "${ref}" not found`);
  return sha;
}
