/**
 * pulls.reviews {prId} (docs/pulls.md "Review"): submitted reviews oldest first, each with author,
 * state, body, commitSha, revision (the revision whose head is commitSha: revision-of.ts), isStale
 * (against the current head's patch id, revisions.ts `staleReviewCheck`) and commentCount. Four
 * statements: the pull request, the reviews (Prisma batches the authors and counts), their
 * revisions (one SELECT) and the revisions of the heads they name.
 */
import type { Db } from "@/server/db";
import { loadPull } from "./locate";
import type { ReviewRepo } from "./review-context";
import { reviewRevisions } from "./revision-of";
import { staleReviewCheck } from "./revisions";
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
  const revisions = rows.length ? await reviewRevisions(db, pr.id) : new Map<string, number | null>();
  const stale = await staleReviewCheck(
    db,
    pr.id,
    pr.headSha,
    rows.map((r) => r.commitSha),
  );
  return rows.map((r) => toReviewView(r, pr.headSha, revisions.get(r.id) ?? null, stale));
}
