/**
 * pulls router, part: the AI review (spec pulls.getAIReview, pulls.triggerAIReview;
 * docs/ai.md "AI review"). Access rows in server/api/access.ts.
 */
import { router, repoProcedureBy } from "../trpc";
import { byPullId } from "./pull-locator";
import { getAiReview, triggerAiReview } from "@/server/services/pulls/ai-review";

export const pullsAiRouter = router({
  /** {prId} → the most recent AI review run {id, prId, status, type, body, state, engine, headSha, findings, error, …}, or null. */
  getAIReview: repoProcedureBy(byPullId).query(({ ctx }) => getAiReview(ctx.db, ctx.repo, ctx.entityId)),

  /** {prId} → the run started (or the one already queued or running for the head). The author or write permission; open pull requests only. */
  triggerAIReview: repoProcedureBy(byPullId).mutation(({ ctx }) => triggerAiReview(ctx.db, ctx.actor, ctx.repo, ctx.entityId)),
});
