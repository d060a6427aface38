/**
 * pulls.resolveComment / pulls.unresolveComment {commentId} (docs/pulls.md "Review"): mark an
 * inline thread resolved or not, through its root comment (a reply's id is refused, naming the
 * root). Who: write permission, or the thread's author (its root's). Idempotent: resolving a
 * resolved thread changes nothing (resolvedBy stays the first resolver), as on GitHub.
 */
import { notifyPull } from "./events";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { inTransaction } from "@/server/db/transaction";
import { canWrite, requireActor, type ReviewRepo } from "./review-context";
import { loadComment } from "./comment-locate";
import { commentInclude, recordOf, toThreadView, type PullThreadView } from "./comment-view";

/**
 * Sets thread `commentId` resolved (`resolved` true) or unresolved → the root as a thread view
 * (without replies or freshness). UNAUTHORIZED, NOT_FOUND, FORBIDDEN; BAD_REQUEST for a reply
 * or a general comment.
 */
export async function setThreadResolved(
  db: Db,
  caller: Actor | null,
  repo: ReviewRepo,
  commentId: string,
  resolved: boolean,
): Promise<PullThreadView> {
  const actor = requireActor(caller);
  const c = await loadComment(db, repo.id, commentId, actor.user.id);
  if (c.replyToId !== null)
    throw new AppError("BAD_REQUEST", `this comment is a reply: resolve its thread through the first comment (${c.replyToId})`);
  if (c.authorId !== actor.user.id && !canWrite(repo))
    throw new AppError("FORBIDDEN", "only the thread's author or someone with write permission can resolve or unresolve it");
  if (c.path === null) throw new AppError("BAD_REQUEST", "only inline review threads can be resolved; this is a general comment");
  const row = await inTransaction(db, async (tx) => {
    if (resolved)
      await tx.pullRequestComment.updateMany({
        where: { id: c.id, resolvedAt: null },
        data: { resolvedAt: new Date(), resolvedById: actor.user.id },
      });
    else await tx.pullRequestComment.updateMany({ where: { id: c.id }, data: { resolvedAt: null, resolvedById: null } });
    return tx.pullRequestComment.findUnique({ where: { id: c.id }, include: commentInclude });
  });
  if (!row) throw new AppError("NOT_FOUND", "the comment was deleted meanwhile");
  notifyPull(db, row.pullRequestId, resolved ? "resolved" : "unresolved", actor.user.id);
  return toThreadView(recordOf(row));
}
