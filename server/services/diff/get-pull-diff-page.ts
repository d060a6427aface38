/** A page of a pull request's hunks (pulls.getDiffPage; docs/pulls.md "File list and hunk pages"). */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { diffPageThreeDot, type DiffPage } from "@/server/git/diff-page";
import { pageOptions, type DiffPageFilter } from "./page";
import { onPullRange, pullLfsSource, type PullRangeRow } from "./pull-range";
import { withLfsPage } from "@/server/services/lfs/lfs-diff-shapes";

/**
 * pulls.getDiffPage: the files from `cursor` (file-list indices of `pulls.getDiffFiles`) with only
 * their hunks, up to `maxLines` hunk lines (default 50,000) and `limit` files (default 500), cut
 * between hunks, and `nextCursor`; plus the range it ran on (`baseSha`, `headSha`,
 * `mergeBaseSha`: a head that moved since the file list means the list is stale); Git LFS pointer
 * files as in `pullDiff` (docs/lfs.md "In the browser"). `pull`: the
 * pull request's id, or its row as the tRPC locator read it (no second read). Errors: as
 * `pullDiff`; TOO_MANY_REQUESTS when the large-diff gate has no slot in time.
 */
export async function pullDiffPage(
  db: Db,
  repo: AuthorizedRepo,
  pull: string | PullRangeRow,
  filter: DiffPageFilter = {},
): Promise<DiffPage & { baseSha: string; headSha: string; mergeBaseSha: string }> {
  return onPullRange(db, repo, pull, async (base, head, pr) => ({
    ...(await withLfsPage(db, pullLfsSource(repo, pr), await diffPageThreeDot(repo.gitDir, base, head, pageOptions(filter)))),
    baseSha: base,
    headSha: head,
  }));
}
