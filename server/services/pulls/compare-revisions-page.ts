/**
 * pulls.compareRevisionsPage (docs/pulls.md "Interdiff"): a page of hunks of the interdiff between
 * two revisions, as pulls.getDiffPage pages the pull request's diff.
 */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { interdiffPage, type InterdiffPage } from "@/server/git/interdiff";
import { diffPageInput, pageOptions, type DiffPageFilter } from "@/server/services/diff/page";
import { withLfsPage } from "@/server/services/lfs/lfs-diff-shapes";
import { compareRevisionsInput, interdiffRevisions, lfsSource, onRevisions, revisionEnds, type RevisionEnd } from "./compare-revisions";

/** {from, to, cursor?, limit?, maxLines?} beside the pull request locator (prId): pulls.getDiffPage's paging fields. */
export const compareRevisionsPageInput = { from: compareRevisionsInput.from, to: compareRevisionsInput.to, ...diffPageInput };

/** A page of the interdiff (server/git/interdiff.ts `InterdiffPage`) and its two revisions. */
export type RevisionComparisonPage = InterdiffPage & { fromRevision: RevisionEnd; toRevision: RevisionEnd };

/**
 * A page of the interdiff of pull request `prId` from revision `from` to revision `to`: the files
 * from `cursor` (file-list indices of pulls.compareRevisions' `files` for the same revisions) with
 * only their hunks, up to `maxLines` hunk lines (default 50,000) and `limit` files (default 500),
 * cut between hunks, and `nextCursor` (null after the last file), as pulls.getDiffPage; plus
 * `replayed`, `rebaseConflicted`, `conflicts`, `empty` (the whole interdiff has no file) and the
 * two revisions, as pulls.compareRevisions; Git LFS pointer files as pulls.getDiffPage shows them
 * (docs/lfs.md "In the browser"). Revisions are immutable, so a later page never reads a
 * different diff than the first. Errors: as pulls.compareRevisions.
 */
export async function compareRevisionsPage(
  db: Db,
  repo: AuthorizedRepo,
  prId: string,
  input: { from: number; to: number } & DiffPageFilter,
): Promise<RevisionComparisonPage> {
  const [[a, b], lfs] = await Promise.all([revisionEnds(db, prId, input.from, input.to), lfsSource(db, repo, prId)]);
  const page = await onRevisions(a, b, () =>
    interdiffPage(repo.gitDir, interdiffRevisions(a, b), pageOptions(input), (p) => withLfsPage(db, lfs, p)),
  );
  return { ...page, fromRevision: a, toRevision: b };
}
