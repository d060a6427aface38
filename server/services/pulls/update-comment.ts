/**
 * pulls.updateComment {commentId, body} (docs/pulls.md "Review"): only the comment's author may
 * edit it (not even write permission: the words are theirs). A deleted thread root cannot be
 * edited. Sets `editedAt` (the "edited" marker), beyond the spec. A published comment whose body
 * changes emits `pull_request_review_comment` (a line comment) or `issue_comment` "edited" with
 * GitHub's `changes.body.from`, in the same transaction.
 */
import { notifyPull } from "./events";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { inTransaction } from "@/server/db/transaction";
import { requireActor, type ReviewRepo } from "./review-context";
import { loadComment } from "./comment-locate";
import { updateCommentInput } from "./review-schemas";
import { emitPullCommentEvent } from "@/server/services/webhooks/domain-events";
import { commentInclude, recordOf, toCommentView, type PullCommentView } from "./comment-view";

/** → the edited comment. UNAUTHORIZED, NOT_FOUND, FORBIDDEN (not the author), PRECONDITION_FAILED (deleted). */
export async function updatePullComment(
  db: Db,
  caller: Actor | null,
  repo: ReviewRepo,
  commentId: string,
  raw: { body: string },
): Promise<PullCommentView> {
  const { body } = updateCommentInput.parse(raw);
  const actor = requireActor(caller);
  const c = await loadComment(db, repo.id, commentId, actor.user.id);
  if (c.authorId !== actor.user.id) throw new AppError("FORBIDDEN", "only the comment's author can edit it");
  if (c.deletedAt) throw new AppError("PRECONDITION_FAILED", "the comment was deleted");
  const row = await inTransaction(db, async (tx) => {
    const before = await tx.pullRequestComment.findUnique({ where: { id: c.id }, select: { body: true } });
    const r = await tx.pullRequestComment.updateMany({ where: { id: c.id, deletedAt: null }, data: { body, editedAt: new Date() } });
    if (r.count === 0 || !before) throw new AppError("NOT_FOUND", "the comment was deleted meanwhile");
    if (!c.isPending && before.body !== body)
      await emitPullCommentEvent(tx, "edited", actor.user, c.id, { changes: { body: { from: before.body } } });
    return tx.pullRequestComment.findUniqueOrThrow({ where: { id: c.id }, include: commentInclude });
  });
  if (!row.isPending) notifyPull(db, row.pullRequestId, "comment_edited", actor.user.id);
  return toCommentView(recordOf(row));
}
