/**
 * pulls.reviews {prId} (docs/pulls.md "Review"): submitted reviews oldest first, each with author,
 * state, body, commitSha, isStale (against the current head) and commentCount. Two statements: the
 * pull request and the reviews (Prisma batches the authors and counts).
 */
import type { Db } from "@/server/db";
import { loadPull } from "./locate";
import type { ReviewRepo } from "./review-context";
import { reviewInclude, toReviewView, type ReviewView } from "./review-view";

/** Most reviews returned (oldest first). */
export const MAX_REVIEWS = 1_000;

export async function listReviews(db: Db, repo: Pick<ReviewRepo, "id">, prId: string): Promise<ReviewView[]> {
  const pr = await loadPull(db, repo, prId);
  const rows = await db.pullRequestReview.findMany({
    where: { pullRequestId: pr.id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: reviewInclude,
    take: MAX_REVIEWS,
  });
  return rows.map((r) => toReviewView(r, pr.headSha));
}
