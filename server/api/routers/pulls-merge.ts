/**
 * pulls router, part: checkMergeability, merge, enableAutoMerge, disableAutoMerge, getConflicts
 * (the merge engine; docs/pulls.md "Mergeability", "Merge strategies", "Auto-merge", "After a
 * merge", "Conflicts"), and what the
 * merge box offers afterwards: headBranch, deleteBranch, restoreBranch, revert ("Delete and
 * restore the branch", "Revert"). Merged into
 * `pulls` by server/api/routers/pulls.ts. Levels: server/api/access.ts.
 */
import { z } from "zod";
import { text } from "@/server/validation/strings";
import { router, repoProcedureBy } from "../trpc";
import { byPullId } from "./pull-locator";
import { loadPull } from "@/server/services/pulls/locate";
import { checkMergeability } from "@/server/services/pulls/mergeability";
import { getConflicts, mergePullRequest, MERGE_STRATEGIES } from "@/server/services/pulls/merge";
import { deletePullBranch, headBranchStatus, restorePullBranch } from "@/server/services/pulls/head-branch";
import { revertPullRequest } from "@/server/services/pulls/revert-pull";
import { enableAutoMerge, enableAutoMergeInput } from "@/server/services/pulls/enable-auto-merge";
import { disableAutoMerge } from "@/server/services/pulls/disable-auto-merge";

const mergeInput = z.object({
  strategy: z.enum(MERGE_STRATEGIES, { error: `strategy must be one of ${MERGE_STRATEGIES.join(", ")}` }).optional(),
  message: text("message").min(1, "message cannot be empty").max(65_536, "message is longer than 65536 characters").optional(),
  deleteBranch: z.boolean({ error: "deleteBranch must be a boolean" }).optional(),
  bypassRequirements: z.boolean({ error: "bypassRequirements must be a boolean" }).optional(),
});

export const pullsMergeRouter = router({
  /** {prId} → {canMerge, conflicts, behindBy, aheadBy, error?} (spec) + {requirements: [{kind, satisfied, message, context?}], canBypassRequirements, autoMerge} (extensions). */
  checkMergeability: repoProcedureBy(byPullId).query(async ({ ctx }) =>
    checkMergeability(ctx.db, ctx.repo, await loadPull(ctx.db, ctx.repo, ctx.entityId)),
  ),
  /** {prId, strategy? (merge), message?, deleteBranch? (false), bypassRequirements? (false; admins, enforceAdmins off)} → the merged pull request plus mergeSha (spec). */
  merge: repoProcedureBy(byPullId)
    .input(mergeInput)
    .mutation(({ ctx, input }) => mergePullRequest(ctx.db, ctx.actor!, ctx.repo, ctx.entityId, input)),
  /**
   * {prId, strategy, message?} → {merged, mergeSha, autoMerge} (write; docs/pulls.md "Auto-merge"): merges now when it can,
   * else merges by itself as the caller once every requirement is met.
   */
  enableAutoMerge: repoProcedureBy(byPullId)
    .input(enableAutoMergeInput)
    .mutation(({ ctx, input }) => enableAutoMerge(ctx.db, ctx.actor!, ctx.repo, ctx.entityId, input)),
  /** {prId} → {autoMerge: null} (write): the pull request no longer merges by itself. */
  disableAutoMerge: repoProcedureBy(byPullId).mutation(({ ctx }) => disableAutoMerge(ctx.db, ctx.actor!, ctx.repo, ctx.entityId)),
  /** {prId} → {hasConflicts, files: [{path, ours, theirs, base, isBinary, kind, sides}], truncated} (extension). */
  getConflicts: repoProcedureBy(byPullId).query(({ ctx }) => getConflicts(ctx.db, ctx.repo, ctx.entityId)),
  /** {prId} → {branch, sha|null, canDelete, canRestore, canRevert} (extension: the merge box after a merge). */
  headBranch: repoProcedureBy(byPullId).query(({ ctx }) => headBranchStatus(ctx.db, ctx.actor, ctx.repo, ctx.entityId)),
  /** {prId} → headBranch's answer after deleting the source branch of a closed or merged pull request (extension; write on the branch's repository). */
  deleteBranch: repoProcedureBy(byPullId).mutation(({ ctx }) => deletePullBranch(ctx.db, ctx.actor, ctx.repo, ctx.entityId)),
  /** {prId} → headBranch's answer after creating the source branch again at the pull request's head (extension; write on the branch's repository). */
  restoreBranch: repoProcedureBy(byPullId).mutation(({ ctx }) => restorePullBranch(ctx.db, ctx.actor, ctx.repo, ctx.entityId)),
  /** {prId} → the new pull request `Revert "<title>"` undoing a merged pull request (extension; write). */
  revert: repoProcedureBy(byPullId).mutation(({ ctx }) => revertPullRequest(ctx.db, ctx.actor!, ctx.repo, ctx.entityId)),
});
