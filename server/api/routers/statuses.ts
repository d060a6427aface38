/**
 * statuses router (issue #23): svc's combined commit statuses for the UI — status contexts and check
 * runs (docs/api.md "statuses"). Writes go through the GitHub-compatible REST API
 * (server/http/rest-v3/handler.ts), never through tRPC.
 */
import { z } from "zod";
import { router, repoProcedure } from "../trpc";
import { objectId } from "@/server/validation/ids";
import { combinedStatus, combinedStatuses, type CombinedStatus } from "@/server/services/statuses/combined-status";

/** At most this many commits per `forCommits` call (a history page is 30–100). */
export const MAX_STATUS_SHAS = 200;

export const statusesRouter = router({
  /**
   * {repoId, shas: full commit ids (1–200)} → {[sha]: CombinedStatus} for every sha asked (state
   * "pending" with no contexts for a commit nobody reported on). Two statements whatever the count.
   */
  forCommits: repoProcedure
    .input(z.object({ shas: z.array(objectId("shas[]")).min(1).max(MAX_STATUS_SHAS, `at most ${MAX_STATUS_SHAS} shas`) }))
    .query(
      async ({ ctx, input }) =>
        Object.fromEntries(await combinedStatuses(ctx.db, ctx.repo.id, input.shas)) as Record<string, CombinedStatus>,
    ),
  /** {repoId, sha} → CombinedStatus {sha, state, contexts[], counts} (the merge box). */
  combined: repoProcedure
    .input(z.object({ sha: objectId("sha") }))
    .query(({ ctx, input }) => combinedStatus(ctx.db, ctx.repo.id, input.sha)),
});
