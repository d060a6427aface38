/**
 * pulls.requestReview / pulls.removeReviewRequest / pulls.reviewers (docs/pulls.md
 * "Review"). Requesting and removing need write permission (GitHub: triage or write), from the
 * access table, and an open pull request. The reviewer must be able to read the repository
 * (repos/user-permissions.ts: a member without two-factor authentication of an organization
 * requiring it cannot) and is not the author; a second request for the same reviewer is CONFLICT. Submitting a review
 * fulfils the request (add-review.ts), after which the reviewer may be requested again. Removing
 * a request that does not exist changes nothing. Events review_requested /
 * review_request_removed {reviewer {id, username, name}}.
 */
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { conflictOnDuplicate } from "@/server/db/prisma-errors";
import { atLeast } from "@/server/services/repos/access";
import { userPermission } from "@/server/services/repos/user-permissions";
import { loadPull } from "./locate";
import { recordPullEvent } from "./events";
import type { PullRow, ReviewRepo } from "./review-context";
import type { ReviewState } from "./review-schemas";
import type { PullUser } from "./view";
import { staleReviewCheck } from "./revisions";
import { emitPullRequestEvent } from "@/server/services/webhooks/domain-events";
import { userPayload } from "@/server/services/webhooks/payloads";
import { enqueuePullNotification } from "@/server/services/notifications/enqueue";

export interface ReviewerView {
  user: PullUser;
  /** A review is requested from them now. */
  requested: boolean;
  /**
   * Their latest verdict: the last approved / changes_requested review, else "commented" when
   * they only commented, else null (GitHub: a comment does not undo an approval).
   */
  state: ReviewState | null;
  /** The review that state comes from (null when they have not reviewed). */
  reviewId: string | null;
  commitSha: string | null;
  isStale: boolean;
  reviewedAt: string | null;
}

const userSelect = { id: true, username: true, name: true } as const;

function openOnly(pr: PullRow): void {
  if (pr.state !== "open")
    throw new AppError(
      "PRECONDITION_FAILED",
      `pull request #${pr.number} is ${pr.state}: reviews can only be requested on an open pull request`,
    );
}

/** pulls.reviewers {prId} → requested reviewers (oldest request first), then everyone else who reviewed (latest review first); the author is never listed; isStale as pulls.reviews (revisions.ts `staleReviewCheck`). Four statements. */
export async function listReviewers(db: Db, repo: Pick<ReviewRepo, "id">, prId: string): Promise<ReviewerView[]> {
  const pr = await loadPull(db, repo, prId);
  const [requests, reviews] = await Promise.all([
    db.pullRequestReviewRequest.findMany({
      where: { pullRequestId: pr.id },
      orderBy: { createdAt: "asc" },
      select: { reviewer: { select: userSelect } },
    }),
    db.pullRequestReview.findMany({
      where: { pullRequestId: pr.id },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, state: true, commitSha: true, createdAt: true, author: { select: userSelect } },
    }),
  ]);
  const stale = await staleReviewCheck(
    db,
    pr.id,
    pr.headSha,
    reviews.map((r) => r.commitSha),
  );
  const latest = new Map<string, { user: PullUser; review: (typeof reviews)[number] }>();
  for (const r of reviews) {
    if (!r.author || r.author.id === pr.authorId) continue;
    const prev = latest.get(r.author.id);
    // a later "commented" review does not replace a verdict
    if (!prev || r.state !== "commented" || prev.review.state === "commented") latest.set(r.author.id, { user: r.author, review: r });
  }
  const view = (user: PullUser, requested: boolean): ReviewerView => {
    const r = latest.get(user.id)?.review;
    return {
      user,
      requested,
      state: (r?.state as ReviewState) ?? null,
      reviewId: r?.id ?? null,
      commitSha: r?.commitSha ?? null,
      isStale: r ? r.commitSha !== pr.headSha && stale(r.commitSha) : false,
      reviewedAt: r?.createdAt.toISOString() ?? null,
    };
  };
  const requestedIds = new Set(requests.map((q) => q.reviewer.id));
  const others = [...latest.values()]
    .filter((x) => !requestedIds.has(x.user.id))
    .sort((a, b) => b.review.createdAt.getTime() - a.review.createdAt.getTime());
  return [...requests.map((q) => view(q.reviewer, true)), ...others.map((x) => view(x.user, false))];
}

/** pulls.requestReview {prId, reviewerId} → the reviewers. NOT_FOUND (user), BAD_REQUEST (author, cannot read), CONFLICT (already requested), PRECONDITION_FAILED (not open). */
export async function requestReview(db: Db, actor: Actor, repo: ReviewRepo, prId: string, reviewerId: string): Promise<ReviewerView[]> {
  const pr = await loadPull(db, repo, prId);
  openOnly(pr);
  const [reviewer, permission] = await Promise.all([
    db.user.findUnique({ where: { id: reviewerId }, select: { ...userSelect, isOrg: true } }),
    userPermission(db, repo.id, reviewerId),
  ]);
  if (!reviewer || reviewer.isOrg) throw new AppError("NOT_FOUND", "user not found");
  if (reviewer.id === pr.authorId) throw new AppError("BAD_REQUEST", "the pull request's author cannot be requested to review it");
  // the one access rule for other people (an organization's two-factor requirement included)
  if (!atLeast(permission, "read")) {
    throw new AppError("BAD_REQUEST", `${reviewer.username} cannot read ${repo.owner}/${repo.name}: add them as a collaborator first`);
  }
  const user = { id: reviewer.id, username: reviewer.username, name: reviewer.name };
  const duplicate = `a review from ${reviewer.username} is already requested`;
  const key = { pullRequestId_reviewerId: { pullRequestId: pr.id, reviewerId: reviewer.id } };
  if (await db.pullRequestReviewRequest.findUnique({ where: key, select: { reviewerId: true } })) throw new AppError("CONFLICT", duplicate);
  await conflictOnDuplicate(
    inTransaction(db, async (tx) => {
      await tx.pullRequestReviewRequest.create({ data: { pullRequestId: pr.id, reviewerId: reviewer.id } });
      await recordPullEvent(tx, pr.id, "review_requested", { reviewer: user }, actor.user.id);
      await emitPullRequestEvent(tx, repo.id, "review_requested", actor.user, pr.id, { requested_reviewer: userPayload(user) });
      await enqueuePullNotification(tx, repo.id, pr.id, actor.user.id, "review_requested", { targetUserIds: [reviewer.id] });
    }),
    duplicate,
  );
  return listReviewers(db, repo, pr.id);
}

/** pulls.removeReviewRequest {prId, reviewerId} → the reviewers. PRECONDITION_FAILED (not open). */
export async function removeReviewRequest(
  db: Db,
  actor: Actor,
  repo: ReviewRepo,
  prId: string,
  reviewerId: string,
): Promise<ReviewerView[]> {
  const pr = await loadPull(db, repo, prId);
  openOnly(pr);
  await inTransaction(db, async (tx) => {
    const gone = await tx.pullRequestReviewRequest.deleteMany({ where: { pullRequestId: pr.id, reviewerId } });
    if (gone.count === 0) return;
    const reviewer = await tx.user.findUnique({ where: { id: reviewerId }, select: userSelect });
    await recordPullEvent(tx, pr.id, "review_request_removed", { reviewer }, actor.user.id);
    await emitPullRequestEvent(tx, repo.id, "review_request_removed", actor.user, pr.id, { requested_reviewer: userPayload(reviewer) });
  });
  return listReviewers(db, repo, pr.id);
}
