/**
 * One commit with its diff (repos.commit; docs/pulls.md "Diff"): the commit's metadata and its
 * changes against its first parent, computed by server/git/diff.ts.
 */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import * as git from "@/server/git/repository";
import { diffCommit, type Diff } from "@/server/git/diff";
import { diffOptions, type DiffFilter } from "./filter";
import { findCommit } from "./find-commit";
import { withLfsDiffs } from "@/server/services/lfs/lfs-diff-shapes";

/** Commit metadata by "gitDir id" (a commit id's metadata never changes), for the `paths` pages of one commit. */
const commitCache = new Map<string, git.Commit>();
const COMMIT_CACHE_SIZE = 64;

/** A commit's metadata (git.Commit), cached per id. */
export async function commitMeta(gitDir: string, id: string): Promise<git.Commit> {
  const key = `${gitDir}\0${id}`;
  const hit = commitCache.get(key);
  if (hit) return hit;
  const [found] = await git.listCommits(gitDir, id, { limit: 1, skip: 0 });
  const commit = Object.freeze({ ...found, parents: Object.freeze(found.parents) as string[] }); // shared by later answers
  commitCache.set(key, commit);
  while (commitCache.size > COMMIT_CACHE_SIZE) commitCache.delete(commitCache.keys().next().value!);
  return commit;
}

/**
 * One commit (repos.commit): its metadata (git.Commit: sha, parents, message, author,
 * authorEmail, date, committer, committedAt) and `diff`, its changes against its first parent
 * (the empty tree for a root commit), Git LFS pointer files shown as their objects (docs/lfs.md
 * "In the browser"). `sha` may be any commit name. Errors: NOT_FOUND.
 */
export async function commitWithDiff(
  db: Db,
  repo: AuthorizedRepo,
  sha: string,
  filter: DiffFilter = {},
): Promise<git.Commit & { diff: Diff }> {
  const id = await findCommit(repo, sha, "commit");
  const commit = await commitMeta(repo.gitDir, id);
  const diff = await diffCommit(repo.gitDir, id, commit.parents, diffOptions(filter));
  return { ...commit, diff: await withLfsDiffs(db, { gitDir: repo.gitDir, repoIds: [repo.id] }, diff) };
}
