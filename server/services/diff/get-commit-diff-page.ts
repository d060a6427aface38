/** A page of a commit's hunks (repos.commitDiffPage; docs/pulls.md "File list and hunk pages"). */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { diffPageCommit, type DiffPage } from "@/server/git/diff-page";
import { commitMeta } from "./get-commit-diff";
import { findCommit } from "./find-commit";
import { pageOptions, type DiffPageFilter } from "./page";
import { withLfsPage } from "@/server/services/lfs/lfs-diff-shapes";

/**
 * repos.commitDiffPage: a page of the commit's diff against its first parent (the empty tree
 * for a root commit), as `pulls.getDiffPage` (file indices are those of `repos.commit`'s
 * `diff.files`; Git LFS pointer files as in `repos.commit`), and `sha`, the commit id. Errors: NOT_FOUND for an unknown commit;
 * TOO_MANY_REQUESTS when the large-diff gate has no slot in time.
 */
export async function commitDiffPage(
  db: Db,
  repo: AuthorizedRepo,
  sha: string,
  filter: DiffPageFilter = {},
): Promise<DiffPage & { sha: string }> {
  const id = await findCommit(repo, sha, "commit");
  const commit = await commitMeta(repo.gitDir, id);
  const page = await diffPageCommit(repo.gitDir, id, commit.parents, pageOptions(filter));
  return { ...(await withLfsPage(db, { gitDir: repo.gitDir, repoIds: [repo.id] }, page)), sha: id };
}
