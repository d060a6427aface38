/**
 * pulls router, part: list, get, create, update, close, reopen, timeline (the pull request
 * records and their lifecycle; docs/pulls.md "Records and timeline"). Merged into
 * `pulls` by server/api/routers/pulls.ts. Access rows: server/api/access.ts.
 */
import { z } from "zod";
import { router, repoProcedure, repoProcedureBy } from "../trpc";
import { byPullId } from "./pull-locator";
import { createPullRequest } from "@/server/services/pulls/create-pull-request";
import { listPullRequests } from "@/server/services/pulls/list-pull-requests";
import { getPullRequest } from "@/server/services/pulls/get-pull-request";
import { closePullRequest, reopenPullRequest, updatePullRequest } from "@/server/services/pulls/update-pull-request";
import { listPullEvents } from "@/server/services/pulls/events";
import { loadPull } from "@/server/services/pulls/locate";
import { createPullInput, listPullsInput, pullNumber, updatePullInput } from "@/server/services/pulls/schemas";

export const pullsCoreRouter = router({
  /** {repoId, state?, authorId?, limit? (1–100, 20), offset? (0)} → pull requests newest first, with author and labels. */
  list: repoProcedure.input(listPullsInput).query(({ ctx, input }) => listPullRequests(ctx.db, ctx.repo, input)),

  /** {repoId, number} → pull request with author, labels, requestedReviewers, sourceRepo, mergedBy, mergeSha, sourceDeleted and `stack` when stacked. */
  get: repoProcedure.input(z.object({ number: pullNumber })).query(({ ctx, input }) => getPullRequest(ctx.db, ctx.repo, input.number)),

  /** {repoId, title, body?, sourceBranch, targetBranch, headSha, baseSha, isDraft?, sourceRepoId?} → pull request. */
  create: repoProcedure.input(createPullInput).mutation(({ ctx, input }) => createPullRequest(ctx.db, ctx.actor, ctx.repo, input)),

  /** {prId, title?, body?, isDraft?} → pull request (the author or write permission). */
  update: repoProcedureBy(byPullId)
    .input(updatePullInput)
    .mutation(({ ctx, input }) => updatePullRequest(ctx.db, ctx.actor, ctx.repo, ctx.entityId, input)),

  /** {prId} → pull request, closed (the author or write permission). */
  close: repoProcedureBy(byPullId).mutation(({ ctx }) => closePullRequest(ctx.db, ctx.actor, ctx.repo, ctx.entityId)),

  /** {prId} → pull request, open again (closed, unmerged, source branch still there). */
  reopen: repoProcedureBy(byPullId).mutation(({ ctx }) => reopenPullRequest(ctx.db, ctx.actor, ctx.repo, ctx.entityId)),

  /** Extension: {prId} → timeline events oldest first: [{id, type, data, actor, createdAt}]. */
  timeline: repoProcedureBy(byPullId).query(async ({ ctx }) => {
    const pr = await loadPull(ctx.db, ctx.repo, ctx.entityId);
    return listPullEvents(ctx.db, pr.id);
  }),
});
