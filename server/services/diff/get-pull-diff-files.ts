/** A pull request's file list (pulls.getDiffFiles; docs/pulls.md "File list and hunk pages"). */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { diffFilesThreeDot, type DiffFileList } from "@/server/git/diff-page";
import { onPullRange, pullLfsSource, type PullRangeRow } from "./pull-range";
import { withLfsFileList } from "@/server/services/lfs/lfs-diff-shapes";

/**
 * pulls.getDiffFiles: every changed file's metadata (a DiffFile without hunks; at most 3,000,
 * `truncated` past that), the totals, and the range (`baseSha`, `headSha`, `mergeBaseSha`) — what
 * `pulls.getDiff` lists, without hunks. From the range's cached `--raw --numstat` metadata (the
 * after-push job warms it), Git LFS pointer files' counts and `lfs` as `pullDiff`'s (docs/lfs.md "In the
 * browser"). `pull`: the pull request's id, or its row as the tRPC locator read it
 * (no second read). Errors: as `pullDiff` (NOT_FOUND, CONFLICT, BAD_REQUEST for unrelated histories).
 */
export async function pullDiffFiles(
  db: Db,
  repo: AuthorizedRepo,
  pull: string | PullRangeRow,
): Promise<DiffFileList & { baseSha: string; headSha: string; mergeBaseSha: string }> {
  return onPullRange(db, repo, pull, async (base, head, pr) => ({
    ...(await withLfsFileList(db, pullLfsSource(repo, pr), await diffFilesThreeDot(repo.gitDir, base, head))),
    baseSha: base,
    headSha: head,
  }));
}
