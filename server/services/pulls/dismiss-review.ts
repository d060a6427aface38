/**
 * pulls.dismissReview {reviewId, reason} (write permission; docs/pulls.md "Merge requirements"):
 * a dismissed review no longer counts for the merge requirements — an approval stops counting,
 * a request for changes stops blocking — as GitHub's "Dismiss review". In one transaction: the
 * review's dismissedAt/dismissedById/dismissReason, and the timeline event `review_dismissed`
 * {reviewId, reviewer, state, reason}, and the `pull_request_review` "dismissed" webhook event; a
 * pull request with auto-merge gets its `pulls.autoMerge` job after the commit (the dismissal may
 * lift the last blocker).
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { AppError } from "@/server/errors";
import { inTransaction } from "@/server/db/transaction";
import { text } from "@/server/validation/strings";
import { readRows } from "@/server/db/read";
import { getConfig } from "@/server/config";
import { canWrite, requireActor, type ReviewRepo } from "./review-context";
import { notifyPull, recordPullEvent } from "./events";
import { emitPullReviewEvent } from "@/server/services/webhooks/domain-events";
import { reviewRevisions } from "./revision-of";
import { reviewInclude, toReviewView, type ReviewView } from "./review-view";
import { queueAutoMerge } from "./auto-merge";
import { staleReviewCheck } from "./revisions";

export const dismissReviewInput = z.object({
  reason: text("reason")
    .max(1000, "reason is at most 1000 characters")
    .refine((r) => r.trim().length > 0, "reason must not be empty"),
});
export type DismissReviewInput = z.input<typeof dismissReviewInput>;

/** The target repository id of review `id`, or null (the repo tier's `reviewId` locator). One statement. */
export async function reviewRepoId(db: Db, id: string): Promise<string | null> {
  const p = getConfig().provider === "postgresql" ? "$1" : "?";
  const rows = await readRows<{ repoId: string }>(
    db,
    `SELECT p."repoId" FROM "PullRequestReview" r JOIN "PullRequest" p ON p."id" = r."pullRequestId" WHERE r."id" = ${p}`,
    [id],
  );
  return rows[0]?.repoId ?? null;
}

/**
 * Dismisses review `reviewId` of `repo` → the review (with `dismissal`). Only approvals and
 * requests for changes can be dismissed, once. Errors: UNAUTHORIZED, FORBIDDEN (below write),
 * NOT_FOUND, BAD_REQUEST (a "commented" review; an empty reason), PRECONDITION_FAILED (already
 * dismissed; the pull request is not open).
 */
export async function dismissReview(
  db: Db,
  caller: Actor | null,
  repo: ReviewRepo,
  reviewId: string,
  raw: DismissReviewInput,
): Promise<ReviewView> {
  const actor = requireActor(caller);
  const { reason } = dismissReviewInput.parse(raw);
  if (!canWrite(repo)) throw new AppError("FORBIDDEN", "dismissing a review needs write permission on the repository");
  const review = await db.pullRequestReview.findFirst({
    where: { id: reviewId, pullRequest: { repoId: repo.id } },
    include: {
      pullRequest: { select: { id: true, state: true, number: true, headSha: true, autoMergeStrategy: true } },
      author: { select: { username: true } },
    },
  });
  if (!review) throw new AppError("NOT_FOUND", "review not found");
  if (review.state === "commented") throw new AppError("BAD_REQUEST", "only approvals and requests for changes can be dismissed");
  if (review.pullRequest.state !== "open")
    throw new AppError("PRECONDITION_FAILED", `pull request #${review.pullRequest.number} is ${review.pullRequest.state}`);
  const now = new Date();
  const row = await inTransaction(db, async (tx) => {
    const r = await tx.pullRequestReview.updateMany({
      where: { id: review.id, dismissedAt: null },
      data: { dismissedAt: now, dismissedById: actor.user.id, dismissReason: reason },
    });
    if (r.count === 0) throw new AppError("PRECONDITION_FAILED", "the review is already dismissed");
    await recordPullEvent(
      tx,
      review.pullRequestId,
      "review_dismissed",
      { reviewId: review.id, reviewer: review.author?.username ?? null, state: review.state, reason },
      actor.user.id,
    );
    await emitPullReviewEvent(tx, repo.id, "dismissed", actor.user, review.pullRequestId, review.id);
    // a dismissed request for changes can be the last blocker of a pull request with auto-merge
    if (review.pullRequest.autoMergeStrategy) queueAutoMerge(tx, [review.pullRequestId]);
    return tx.pullRequestReview.findUniqueOrThrow({ where: { id: review.id }, include: reviewInclude });
  });
  notifyPull(db, review.pullRequestId, "mergeability", actor.user.id);
  const head = review.pullRequest.headSha;
  const revision = (await reviewRevisions(db, review.pullRequestId, [review.id])).get(review.id) ?? null;
  return toReviewView(row, head, revision, await staleReviewCheck(db, review.pullRequestId, head, [row.commitSha]));
}
