/**
 * `dismissStaleApprovals` (docs/pulls.md "Merge requirements", "Revisions"): after a push moves a
 * pull request's head (services/pulls/after-push.ts, the "synchronize" path), an approval stops
 * counting when the change it approved is not the change the pull request now proposes. "The
 * change" is the patch identity of the diff merge base → head (`git patch-id --stable`, recorded
 * per revision by services/pulls/revisions.ts): each approval's head (its commitSha) is looked up
 * among the revisions, and its patch id compared with the new head's. A rebase onto a moved
 * target that keeps the same added and removed lines keeps the patch id, so its approvals stay
 * (Gerrit's "copy approvals on trivial rebase"), even when upstream commits touched the same
 * files; any other change of the diff — or a patch id git cannot compute — dismisses. Dismissed
 * approvals get dismissReason "stale" (no dismisser) and a `review_dismissed` event and
 * `pull_request_review` "dismissed" webhook event each, in one transaction.
 */
import type { Db } from "@/server/db";
import { inTransaction } from "@/server/db/transaction";
import { recordPullEvent } from "@/server/services/pulls/events";
import { patchIdAtHead } from "@/server/services/pulls/revisions";
import { emitPullReviewEvent } from "@/server/services/webhooks/domain-events";
import { ruleOfBranch } from "./rules";

/** The reason stored on approvals dismissed by a push. */
export const STALE_REASON = "stale";

/**
 * Dismisses the approvals of pull request `pr` (target repository `gitDir`) whose approved head
 * has another patch id than `after`, the head a push moved it to, when its target
 * branch's rule has dismissStaleApprovals (module comment). Returns how many were dismissed.
 * Errors: database errors propagate (the caller logs them); git failures count as a change.
 */
export async function dismissStaleApprovals(
  db: Db,
  gitDir: string,
  pr: { id: string; repoId: string; targetBranch: string },
  after: string,
): Promise<number> {
  const rule = await ruleOfBranch(db, pr.repoId, pr.targetBranch);
  if (!rule?.dismissStaleApprovals) return 0;
  const approvals = await db.pullRequestReview.findMany({
    where: { pullRequestId: pr.id, state: "approved", dismissedAt: null },
    select: { id: true, commitSha: true, author: { select: { username: true } } },
  });
  if (approvals.length === 0) return 0;
  const now = await patchIdAtHead(db, gitDir, pr.id, pr.targetBranch, after);
  const known = new Map<string, string | null>([[after, now]]);
  const stale: typeof approvals = [];
  for (const a of approvals) {
    if (!known.has(a.commitSha)) known.set(a.commitSha, await patchIdAtHead(db, gitDir, pr.id, pr.targetBranch, a.commitSha));
    const approved = known.get(a.commitSha);
    if (now === null || approved !== now) stale.push(a);
  }
  if (stale.length === 0) return 0;
  const at = new Date();
  return inTransaction(db, async (tx) => {
    let n = 0;
    for (const a of stale) {
      const r = await tx.pullRequestReview.updateMany({
        where: { id: a.id, dismissedAt: null },
        data: { dismissedAt: at, dismissReason: STALE_REASON },
      });
      if (r.count === 0) continue;
      n++;
      await recordPullEvent(
        tx,
        pr.id,
        "review_dismissed",
        { reviewId: a.id, reviewer: a.author?.username ?? null, state: "approved", reason: STALE_REASON },
        null,
      );
      await emitPullReviewEvent(tx, pr.repoId, "dismissed", null, pr.id, a.id);
    }
    return n;
  });
}
