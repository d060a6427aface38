/** A pull request's diff (pulls.getDiff; docs/pulls.md "Diff", "Shape"). */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { diffThreeDot, type Diff } from "@/server/git/diff";
import { diffOptions, type DiffFilter } from "./filter";
import { onPullRange, pullLfsSource } from "./pull-range";
import { withLfsDiffs } from "@/server/services/lfs/lfs-diff-shapes";

/**
 * pulls.getDiff: spec shape plus svc's extras (docs/pulls.md "Shape"), and
 * `baseSha`/`headSha`/`mergeBaseSha` used. No git process beyond the diff and a (cached) merge-base
 * lookup: the head comes from the row and the target tip from the ref files. Errors: NOT_FOUND
 * (no such pull request or no access), CONFLICT (a commit of the pull request is missing).
 */
export async function pullDiff(
  db: Db,
  repo: AuthorizedRepo,
  prId: string,
  filter: DiffFilter = {},
): Promise<Diff & { baseSha: string; headSha: string; mergeBaseSha: string }> {
  return onPullRange(db, repo, prId, async (base, head, pr) => {
    // LFS pointer files as their objects (docs/lfs.md "In the browser")
    const diff = await withLfsDiffs(db, pullLfsSource(repo, pr), await diffThreeDot(repo.gitDir, base, head, diffOptions(filter)));
    return { ...diff, baseSha: base, headSha: head };
  });
}
