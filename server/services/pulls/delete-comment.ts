/**
 * pulls.deleteComment {commentId} (docs/pulls.md "Review"): the comment's author, or write
 * permission. A thread root with replies is kept (deletedAt set, body and suggestion emptied, shown
 * as deleted) so its replies stay readable; a root without replies, and any reply, is removed. When
 * the last reply of a deleted root goes, the root goes too. One transaction.
 */
import { notifyPull } from "./events";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { inTransaction } from "@/server/db/transaction";
import { canWrite, requireActor, type ReviewRepo } from "./review-context";
import { loadComment } from "./comment-locate";
import { emitPullCommentEvent } from "@/server/services/webhooks/domain-events";

/** → {id, deleted: true, kept} (`kept`: a root kept for its replies). UNAUTHORIZED, NOT_FOUND, FORBIDDEN. */
export async function deletePullComment(
  db: Db,
  caller: Actor | null,
  repo: ReviewRepo,
  commentId: string,
): Promise<{ id: string; deleted: true; kept: boolean }> {
  const actor = requireActor(caller);
  const c = await loadComment(db, repo.id, commentId, actor.user.id);
  if (c.authorId !== actor.user.id && !canWrite(repo))
    throw new AppError("FORBIDDEN", "only the comment's author or someone with write permission can delete it");
  const kept = await inTransaction(db, async (tx) => {
    // the payload carries the comment as it was, so it is read before it goes; a root already
    // deleted (kept for its replies) was announced then
    if (!c.isPending && !c.deletedAt) await emitPullCommentEvent(tx, "deleted", actor.user, c.id);
    if (c.replyToId === null) {
      // one statement decides: removed when it has no replies (a reply arriving meanwhile is never cascaded away)
      const gone = await tx.pullRequestComment.deleteMany({ where: { id: c.id, replies: { none: {} } } });
      if (gone.count > 0) return false;
      await tx.pullRequestComment.updateMany({
        where: { id: c.id },
        data: { deletedAt: c.deletedAt ?? new Date(), body: "", suggestion: null },
      });
      return true;
    }
    await tx.pullRequestComment.deleteMany({ where: { id: c.id } });
    // a deleted root whose last reply just went has nothing left to show
    await tx.pullRequestComment.deleteMany({ where: { id: c.replyToId, deletedAt: { not: null }, replies: { none: {} } } });
    return false;
  });
  if (!c.isPending) notifyPull(db, c.pullRequestId, "comment_deleted", actor.user.id);
  return { id: c.id, deleted: true, kept };
}
