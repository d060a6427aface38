/**
 * pulls router, part: reviews, revisions, comments and threads, suggestions (adding), labels and reviewers
 * (docs/pulls.md "Review"). Merged into `pulls` by server/api/routers/pulls.ts. Access
 * rows: server/api/access.ts (mutations need a repo:write token even where a reader may act).
 */
import { router, repoProcedureBy } from "../trpc";
import { byPullCommentId, byPullId, byPullIdWithHead, byPullReviewId } from "./pull-locator";
import { dismissReview, dismissReviewInput } from "@/server/services/pulls/dismiss-review";
import {
  addReviewInput,
  addCommentInput,
  addSuggestionInput,
  updateCommentInput,
  fileCommentsInput,
  labelInput,
  reviewRequestInput,
} from "@/server/services/pulls/review-schemas";
import { addReview } from "@/server/services/pulls/add-review";
import { listReviews } from "@/server/services/pulls/list-reviews";
import { addPullComment, addPullSuggestion } from "@/server/services/pulls/add-comment";
import { listPullComments, pullHeadOf } from "@/server/services/pulls/list-comments";
import { updatePullComment } from "@/server/services/pulls/update-comment";
import { deletePullComment } from "@/server/services/pulls/delete-comment";
import { setThreadResolved } from "@/server/services/pulls/resolve-comment";
import { addPullLabel, listPullLabels, removePullLabel } from "@/server/services/pulls/labels";
import { listReviewers, removeReviewRequest, requestReview } from "@/server/services/pulls/reviewers";
import { listTeamReviewers, removeTeamReviews, requestTeamReviews } from "@/server/services/pulls/team-reviewers";
import { requireActor } from "@/server/services/pulls/review-context";
import { listRevisions } from "@/server/services/pulls/revisions";
import { sinceReview } from "@/server/services/pulls/since-review";

export const pullsReviewRouter = router({
  /** {prId} → revisions oldest first: [{number, headSha, baseSha, patchId, pushedAt, pushedBy {username}|null, forced}]. */
  revisions: repoProcedureBy(byPullId).query(({ ctx }) => listRevisions(ctx.db, ctx.entityId)),

  /** {prId} → {from, to, files: number | null} | null: the changes since the caller's last review (newest revision; docs/pulls.md "Revisions"). */
  sinceReview: repoProcedureBy(byPullId).query(({ ctx }) => sinceReview(ctx.db, ctx.repo, ctx.entityId, ctx.actor?.user.id ?? null)),

  /** {prId, state (approved|changes_requested|commented), body?, commitSha} → review (pending comments join it). */
  addReview: repoProcedureBy(byPullId)
    .input(addReviewInput)
    .mutation(({ ctx, input }) => addReview(ctx.db, ctx.actor, ctx.repo, ctx.entityId, input)),

  /** {reviewId, reason} → the review, dismissed (write permission): it no longer counts for the merge requirements. */
  dismissReview: repoProcedureBy(byPullReviewId)
    .input(dismissReviewInput)
    .mutation(({ ctx, input }) => dismissReview(ctx.db, ctx.actor, ctx.repo, ctx.entityId, input)),

  /** {prId} → reviews oldest first: [{id, author, state, body, commitSha, revision, isStale, createdAt, commentCount, dismissal}]. */
  reviews: repoProcedureBy(byPullId).query(({ ctx }) => listReviews(ctx.db, ctx.repo, ctx.entityId)),

  /** {prId, body, path?, line?, side?, startLine?, endLine?, commitSha?, reviewId?, replyToId?, pending?} → comment. */
  addComment: repoProcedureBy(byPullId)
    .input(addCommentInput)
    .mutation(({ ctx, input }) => addPullComment(ctx.db, ctx.actor, ctx.repo, ctx.entityId, input)),

  /** {prId} → threads oldest first, replies nested, with isOutdated/isResolved; others' pending comments hidden. */
  comments: repoProcedureBy(byPullIdWithHead).query(({ ctx }) =>
    listPullComments(ctx.db, ctx.actor, ctx.repo, pullHeadOf(ctx.entity) ?? ctx.entityId),
  ),

  /** {prId, path} → the file's inline threads (as `comments`). */
  getFileComments: repoProcedureBy(byPullIdWithHead)
    .input(fileCommentsInput)
    .query(({ ctx, input }) => listPullComments(ctx.db, ctx.actor, ctx.repo, pullHeadOf(ctx.entity) ?? ctx.entityId, input.path)),

  /** {commentId, body} → comment (its author only). */
  updateComment: repoProcedureBy(byPullCommentId)
    .input(updateCommentInput)
    .mutation(({ ctx, input }) => updatePullComment(ctx.db, ctx.actor, ctx.repo, ctx.entityId, input)),

  /** {commentId} → {id, deleted, kept} (the author or write permission). */
  deleteComment: repoProcedureBy(byPullCommentId).mutation(({ ctx }) => deletePullComment(ctx.db, ctx.actor, ctx.repo, ctx.entityId)),

  /** {commentId} (a thread's root) → the thread, resolved (the thread's author or write permission). */
  resolveComment: repoProcedureBy(byPullCommentId).mutation(({ ctx }) =>
    setThreadResolved(ctx.db, ctx.actor, ctx.repo, ctx.entityId, true),
  ),

  /** {commentId} (a thread's root) → the thread, unresolved. */
  unresolveComment: repoProcedureBy(byPullCommentId).mutation(({ ctx }) =>
    setThreadResolved(ctx.db, ctx.actor, ctx.repo, ctx.entityId, false),
  ),

  /** {prId, body, suggestion, path, line, side? (RIGHT), startLine?, endLine?, commitSha?, reviewId?, pending?} → comment with its suggestion. */
  addSuggestion: repoProcedureBy(byPullId)
    .input(addSuggestionInput)
    .mutation(({ ctx, input }) => addPullSuggestion(ctx.db, ctx.actor, ctx.repo, ctx.entityId, input)),

  /** {prId} → labels by name [{id, name, color, description}]. */
  labels: repoProcedureBy(byPullId).query(({ ctx }) => listPullLabels(ctx.db, ctx.repo, ctx.entityId)),

  /** {prId, labelId} → labels (write permission; the repository's own labels). */
  addLabel: repoProcedureBy(byPullId)
    .input(labelInput)
    .mutation(({ ctx, input }) => addPullLabel(ctx.db, requireActor(ctx.actor), ctx.repo, ctx.entityId, input.labelId)),

  /** {prId, labelId} → labels. */
  removeLabel: repoProcedureBy(byPullId)
    .input(labelInput)
    .mutation(({ ctx, input }) => removePullLabel(ctx.db, requireActor(ctx.actor), ctx.repo, ctx.entityId, input.labelId)),

  /** {prId, reviewerId?, teams? (slugs of the owning organization)} → reviewers (write permission); at least one of them. */
  requestReview: repoProcedureBy(byPullId)
    .input(reviewRequestInput)
    .mutation(async ({ ctx, input }) => {
      const actor = requireActor(ctx.actor);
      if (input.teams?.length) await requestTeamReviews(ctx.db, actor, ctx.repo, ctx.entityId, input.teams);
      if (input.reviewerId) return requestReview(ctx.db, actor, ctx.repo, ctx.entityId, input.reviewerId);
      return listReviewers(ctx.db, ctx.repo, ctx.entityId);
    }),

  /** {prId, reviewerId?, teams?} → reviewers. */
  removeReviewRequest: repoProcedureBy(byPullId)
    .input(reviewRequestInput)
    .mutation(async ({ ctx, input }) => {
      const actor = requireActor(ctx.actor);
      if (input.teams?.length) await removeTeamReviews(ctx.db, actor, ctx.repo, ctx.entityId, input.teams);
      if (input.reviewerId) return removeReviewRequest(ctx.db, actor, ctx.repo, ctx.entityId, input.reviewerId);
      return listReviewers(ctx.db, ctx.repo, ctx.entityId);
    }),

  /** {prId} → [{user, requested, state, reviewId, commitSha, isStale, reviewedAt}]. */
  reviewers: repoProcedureBy(byPullId).query(({ ctx }) => listReviewers(ctx.db, ctx.repo, ctx.entityId)),

  /** {prId} → team review requests [{team {id, org, slug, name}, reviewedBy (usernames), satisfied}]. */
  teamReviewers: repoProcedureBy(byPullId).query(({ ctx }) => listTeamReviewers(ctx.db, ctx.repo, ctx.entityId)),
});
