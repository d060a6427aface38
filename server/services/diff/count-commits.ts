/** How many commits a ref reaches (repos.commitCount): the history page's total. */
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { countReachable } from "@/server/git/commits";
import { findCommit } from "./find-commit";

/** Commits reachable from `ref` (default branch when absent): {ref, sha, count}, kept per commit id (`countReachable`). Errors: NOT_FOUND. */
export async function commitCount(repo: AuthorizedRepo, ref?: string): Promise<{ ref: string; sha: string; count: number }> {
  const name = ref || repo.defaultBranch;
  const sha = await findCommit(repo, name, "ref");
  return { ref: name, sha, count: await countReachable(repo.gitDir, sha) };
}
