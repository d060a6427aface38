/**
 * pulls.addReview {prId, state, body?, commitSha} (docs/pulls.md "Review"), GitHub's
 * "Submit review". Anyone who can read the repository may review. Rules:
 * - `commitSha` must be a commit of the pull request (BAD_REQUEST); a review of an older head is
 *   stale (`isStale`) unless that head's revision has the current patch id (revisions.ts
 *   `staleReviewCheck`: a rebase that kept the change).
 * - The author may only comment on their own pull request (approve / request changes:
 *   BAD_REQUEST, GitHub's 422 "Can not approve your own pull request").
 * - A merged or closed pull request takes "commented" reviews only (PRECONDITION_FAILED for
 *   approve / request changes: GitHub disables them there).
 * - "commented" and "changes_requested" need a body or pending comments (BAD_REQUEST), as
 *   GitHub's API requires a body for COMMENT and REQUEST_CHANGES reviews.
 * In one transaction: the review row, the caller's pending comments join it (no longer pending),
 * the caller's review request is fulfilled (deleted), and the timeline event `reviewed`
 * {reviewId, state, commitSha}. An approval or request for changes of a pull request with auto-merge
 * queues its `pulls.autoMerge` job after the commit.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { inTransaction } from "@/server/db/transaction";
import { assertCommitOfPull, callerAndPull, type ReviewRepo } from "./review-context";
import { recordPullEvent } from "./events";
import { addReviewInput, type AddReviewInput } from "./review-schemas";
import { reviewRevisions } from "./revision-of";
import { reviewInclude, toReviewView, type ReviewView } from "./review-view";
import { emitPullCommentCreated, emitPullReviewEvent } from "@/server/services/webhooks/domain-events";
import { queueAutoMerge } from "./auto-merge";
import { staleReviewCheck } from "./revisions";
import { enqueuePullNotification } from "@/server/services/notifications/enqueue";

/** → the submitted review (with its commentCount: the pending comments it took in). */
export async function addReview(db: Db, caller: Actor | null, repo: ReviewRepo, prId: string, raw: AddReviewInput): Promise<ReviewView> {
  const input = addReviewInput.parse(raw);
  const { actor, pr } = await callerAndPull(db, caller, repo, prId);
  const verdict = input.state !== "commented";
  if (verdict && pr.authorId === actor.user.id) {
    throw new AppError(
      "BAD_REQUEST",
      `you cannot ${input.state === "approved" ? "approve" : "request changes on"} your own pull request; you can only comment on it`,
    );
  }
  if (verdict && pr.state !== "open")
    throw new AppError("PRECONDITION_FAILED", `pull request #${pr.number} is ${pr.state}: only comments can be added to its reviews now`);
  await assertCommitOfPull(repo, pr, input.commitSha);
  const body = input.body?.trim() ? input.body : null;
  const row = await inTransaction(db, async (tx) => {
    const pendingIds = (
      await tx.pullRequestComment.findMany({
        where: { pullRequestId: pr.id, authorId: actor.user.id, isPending: true },
        select: { id: true },
      })
    ).map((c) => c.id);
    const pending = pendingIds.length;
    if (!body && pending === 0 && input.state !== "approved") {
      throw new AppError(
        "BAD_REQUEST",
        `a ${input.state === "commented" ? "comment" : "request for changes"} review needs a body or pending comments`,
      );
    }
    const review = await tx.pullRequestReview.create({
      data: { pullRequestId: pr.id, authorId: actor.user.id, state: input.state, body, commitSha: input.commitSha },
    });
    if (pending > 0) {
      await tx.pullRequestComment.updateMany({ where: { id: { in: pendingIds } }, data: { isPending: false, reviewId: review.id } });
    }
    await tx.pullRequestReviewRequest.deleteMany({ where: { pullRequestId: pr.id, reviewerId: actor.user.id } });
    await recordPullEvent(tx, pr.id, "reviewed", { reviewId: review.id, state: input.state, commitSha: input.commitSha }, actor.user.id);
    // published with the review: each comment's "created" now (GitHub's order: the comments, then the review)
    for (const id of pendingIds) await emitPullCommentCreated(tx, actor.user, id);
    await emitPullReviewEvent(tx, repo.id, "submitted", actor.user, pr.id, review.id);
    await enqueuePullNotification(tx, repo.id, pr.id, actor.user.id, "review", { anchor: `review-${review.id}` });
    // a verdict can be the last requirement of a pull request with auto-merge (docs/pulls.md "Auto-merge")
    if (verdict && pr.autoMergeStrategy) queueAutoMerge(tx, [pr.id]);
    return tx.pullRequestReview.findUniqueOrThrow({ where: { id: review.id }, include: reviewInclude });
  });
  const revision = (await reviewRevisions(db, pr.id, [row.id])).get(row.id) ?? null;
  return toReviewView(row, pr.headSha, revision, await staleReviewCheck(db, pr.id, pr.headSha, [row.commitSha]));
}
