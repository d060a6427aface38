/**
 * pulls.sinceReview (docs/pulls.md "Revisions", docs/ui.md "Revision picker"): the changes since
 * the caller's last review — the range from the revision that review was made on to the newest
 * revision, and how many files its interdiff changes. The one computation behind the Files
 * changed tab's "Changes since your last review" choice and banner and the Conversation tab's
 * banner.
 */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { compareRevisions } from "./compare-revisions";
import { reviewRevisions } from "./revision-of";
import { ensureRevisions } from "./revisions";

/** The since-your-review range and its interdiff's file count. */
export interface SinceReview {
  /** The revision the caller's last review was made on (revision-of.ts). */
  from: number;
  /** The newest revision. */
  to: number;
  /** Files the interdiff from → to changes (pulls.compareRevisions `totalFiles`); null when it cannot be computed. */
  files: number | null;
}

/** Line budget of the count's interdiff: only `totalFiles` is read, which does not depend on it. */
const COUNT_LINES = 100;

/**
 * The changes since `userId`'s last submitted review of pull request `prId` (the newest by
 * creation, dismissed or not): null when `userId` is null, has not reviewed, the review's head is
 * no recorded revision, or that revision is already the newest. Revisions are backfilled from the
 * timeline first when the pull request has none. `files` is null when the interdiff fails (a
 * revision without a merge base, a commit gone); other errors (database) propagate.
 */
export async function sinceReview(db: Db, repo: AuthorizedRepo, prId: string, userId: string | null): Promise<SinceReview | null> {
  if (!userId) return null;
  const last = await db.pullRequestReview.findFirst({
    where: { pullRequestId: prId, authorId: userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true },
  });
  if (!last) return null;
  await ensureRevisions(db, prId);
  const from = (await reviewRevisions(db, prId, [last.id])).get(last.id) ?? null;
  const newest = await db.pullRequestRevision.findFirst({
    where: { pullRequestId: prId },
    orderBy: { number: "desc" },
    select: { number: true },
  });
  if (from === null || !newest || from >= newest.number) return null;
  const to = newest.number;
  const files = await compareRevisions(db, repo, prId, { from, to, maxLines: COUNT_LINES }).then(
    (d) => d.totalFiles,
    () => null,
  );
  return { from, to, files };
}
