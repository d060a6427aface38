/** pulls router, part: getDiff, getDiffFiles, getDiffPage, codeOwners, compareRevisions, compareRevisionsPage, getCommits (docs/pulls.md "Diff"). Merged into `pulls` by server/api/routers/pulls.ts. */
import { z } from "zod";
import { router, repoProcedureBy } from "../trpc";
import { byPullId, byPullIdWithHead } from "./pull-locator";
import { pullHeadOf } from "@/server/services/pulls/list-comments";
import { diffFilterInput } from "@/server/services/diff/filter";
import { pullDiff } from "@/server/services/diff/get-pull-diff";
import { pullDiffFiles } from "@/server/services/diff/get-pull-diff-files";
import { pullDiffPage } from "@/server/services/diff/get-pull-diff-page";
import { diffPageInput } from "@/server/services/diff/page";
import { pullCommits } from "@/server/services/diff/list-pull-commits";
import { pullCodeOwners } from "@/server/services/branch-protection/pull-code-owners";
import { compareRevisions, compareRevisionsInput } from "@/server/services/pulls/compare-revisions";
import { compareRevisionsPage, compareRevisionsPageInput } from "@/server/services/pulls/compare-revisions-page";

export const pullsDiffRouter = router({
  /**
   * {prId, path?, paths?} → {files, totalAdditions, totalDeletions, totalFiles, truncated,
   * baseSha, headSha, mergeBaseSha}: the three-dot diff of the pull request (docs/pulls.md "Diff").
   */
  getDiff: repoProcedureBy(byPullId)
    .input(z.object(diffFilterInput))
    .query(({ ctx, input }) => pullDiff(ctx.db, ctx.repo, ctx.entityId, input)),

  /**
   * {prId} → {files (metadata, no hunks), totalAdditions, totalDeletions, totalFiles, truncated,
   * baseSha, headSha, mergeBaseSha}: the file list, sent once (docs/pulls.md "File list and hunk pages").
   */
  getDiffFiles: repoProcedureBy(byPullIdWithHead).query(({ ctx }) =>
    pullDiffFiles(ctx.db, ctx.repo, pullHeadOf(ctx.entity) ?? ctx.entityId),
  ),

  /**
   * {prId, cursor?, limit?, maxLines?} → {files: [{index, oldPath, newPath, hunks, fromHunk?,
   * continues?, truncated}], nextCursor, baseSha, headSha, mergeBaseSha}: a page of hunks only.
   */
  getDiffPage: repoProcedureBy(byPullIdWithHead)
    .input(z.object(diffPageInput))
    .query(({ ctx, input }) => pullDiffPage(ctx.db, ctx.repo, pullHeadOf(ctx.entity) ?? ctx.entityId, input)),

  /** {prId} → {owners: {[path]: usernames}}: the code owners of each owned changed file (CODEOWNERS at the diff's base). */
  codeOwners: repoProcedureBy(byPullIdWithHead).query(({ ctx }) =>
    pullCodeOwners(ctx.db, ctx.repo, pullHeadOf(ctx.entity) ?? ctx.entityId),
  ),

  /**
   * {prId, from, to, path?, paths?, maxLines?} → pulls.getDiff's shape plus {fromRevision,
   * toRevision, replayed, rebaseConflicted, conflicts, empty}: the interdiff between two revisions
   * (docs/pulls.md "Interdiff").
   */
  compareRevisions: repoProcedureBy(byPullId)
    .input(z.object(compareRevisionsInput))
    .query(({ ctx, input }) => compareRevisions(ctx.db, ctx.repo, ctx.entityId, input)),

  /**
   * {prId, from, to, cursor?, limit?, maxLines?} → {files: [{index, oldPath, newPath, hunks,
   * fromHunk?, continues?, truncated}], nextCursor, fromRevision, toRevision, replayed,
   * rebaseConflicted, conflicts, empty}: a page of the interdiff's hunks, paged as getDiffPage
   * (indices of compareRevisions' file list; docs/pulls.md "Interdiff").
   */
  compareRevisionsPage: repoProcedureBy(byPullId)
    .input(z.object(compareRevisionsPageInput))
    .query(({ ctx, input }) => compareRevisionsPage(ctx.db, ctx.repo, ctx.entityId, input)),

  /** {prId} → {commits: [{sha, message, author, authorEmail, date}] oldest first (≤ 250), totalCommits}. */
  getCommits: repoProcedureBy(byPullId).query(({ ctx }) => pullCommits(ctx.db, ctx.repo, ctx.entityId)),
});
