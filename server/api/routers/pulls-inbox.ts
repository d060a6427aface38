/**
 * pulls router, part: the inbox across repositories (docs/pulls.md "Inbox"). User-tier
 * rows (repo:read); each statement checks readability of every repository itself.
 */
import { router, authedProcedure } from "../trpc";
import {
  inboxAwaitingCount,
  inboxListInput,
  inboxParticipatedInput,
  inboxSummary,
  inboxSummaryInput,
  listInbox,
} from "@/server/services/pulls/inbox";

export const pullsInboxRouter = router({
  /** {repoId?} → {awaitingReview, myPrs, readyToMerge, participated} (spec; readyToMerge an extension). */
  inboxSummary: authedProcedure.input(inboxSummaryInput).query(({ ctx, input }) => inboxSummary(ctx.db, ctx.actor, input)),
  /** no input → {awaitingReview}: the summary's first count alone, for the top navigation's badge (extension). */
  inboxAwaitingCount: authedProcedure.query(({ ctx }) => inboxAwaitingCount(ctx.db, ctx.actor)),
  /** {limit?, offset?, repoId?} → open pull requests where the caller is a requested reviewer (spec). */
  inboxAwaitingReview: authedProcedure
    .input(inboxListInput)
    .query(({ ctx, input }) => listInbox(ctx.db, ctx.actor, "awaitingReview", input)),
  /** {limit?, offset?, repoId?} → the caller's own open pull requests awaiting others' reviews (spec). */
  inboxMyPrs: authedProcedure.input(inboxListInput).query(({ ctx, input }) => listInbox(ctx.db, ctx.actor, "myPrs", input)),
  /** {limit?, offset?, repoId?} → the caller's own open pull requests approved and not awaiting anyone: ready to merge (extension). */
  inboxReadyToMerge: authedProcedure.input(inboxListInput).query(({ ctx, input }) => listInbox(ctx.db, ctx.actor, "readyToMerge", input)),
  /** {limit?, offset?, state? (open|closed|all, open), repoId?} → pull requests the caller commented on or reviewed (spec). */
  inboxParticipated: authedProcedure
    .input(inboxParticipatedInput)
    .query(({ ctx, input }) => listInbox(ctx.db, ctx.actor, "participated", input)),
});
