/**
 * pulls router, part: checkMergeability, merge, getConflicts (the merge engine;
 * docs/pulls.md "Mergeability", "Merge strategies", "After a merge", "Conflicts"). Merged into
 * `pulls` by server/api/routers/pulls.ts. Levels: server/api/access.ts.
 */
import { z } from "zod";
import { text } from "@/server/validation/strings";
import { router, repoProcedureBy } from "../trpc";
import { byPullId } from "./pull-locator";
import { loadPull } from "@/server/services/pulls/locate";
import { checkMergeability } from "@/server/services/pulls/mergeability";
import { getConflicts, mergePullRequest, MERGE_STRATEGIES } from "@/server/services/pulls/merge";

const mergeInput = z.object({
  strategy: z.enum(MERGE_STRATEGIES, { error: `strategy must be one of ${MERGE_STRATEGIES.join(", ")}` }).optional(),
  message: text("message").min(1, "message cannot be empty").max(65_536, "message is longer than 65536 characters").optional(),
  deleteBranch: z.boolean({ error: "deleteBranch must be a boolean" }).optional(),
});

export const pullsMergeRouter = router({
  /** {prId} → {canMerge, conflicts, behindBy, aheadBy, error?} (spec). */
  checkMergeability: repoProcedureBy(byPullId).query(async ({ ctx }) =>
    checkMergeability(ctx.db, ctx.repo, await loadPull(ctx.db, ctx.repo, ctx.entityId)),
  ),
  /** {prId, strategy? (merge), message?, deleteBranch? (false)} → the merged pull request plus mergeSha (spec). */
  merge: repoProcedureBy(byPullId)
    .input(mergeInput)
    .mutation(({ ctx, input }) => mergePullRequest(ctx.db, ctx.actor!, ctx.repo, ctx.entityId, input)),
  /** {prId} → {hasConflicts, files: [{path, ours, theirs, base, isBinary, kind, sides}], truncated} (extension). */
  getConflicts: repoProcedureBy(byPullId).query(({ ctx }) => getConflicts(ctx.db, ctx.repo, ctx.entityId)),
});
