/**
 * pulls.addComment and pulls.addSuggestion (docs/pulls.md "Review"). Anyone who can
 * read the repository may comment (as on GitHub), on an open, closed or merged pull request.
 *
 * - General comment: no `path` (and no line fields).
 * - Inline: `path` + `line` (+ `side`, default RIGHT; `startLine`..`endLine` for a range on one
 *   side within one hunk, `line` = `endLine`) on the pull request's three-dot diff at `commitSha`
 *   (default: the head), which must be a commit of the pull request. The hunk is stored.
 * - Reply: `replyToId` names a visible comment of the same pull request; a reply to a reply
 *   attaches to the thread's root; replies inherit the root's position (their own position
 *   fields are ignored) and its pending state.
 * - `pending` (extension): a comment of the caller's review in progress, visible only to them,
 *   attached to the review by pulls.addReview. `reviewId`: a submitted review of the caller on
 *   this pull request to attach the comment to.
 * - addSuggestion: an inline RIGHT-side comment carrying `suggestion`, the replacement text of
 *   lines startLine..line (applied by pulls.applySuggestion).
 */
import { notifyPull } from "./events";
import { enqueuePullNotification } from "@/server/services/notifications/enqueue";
import type { Db } from "@/server/db";
import { isForeignKeyViolation } from "@/server/db/prisma-errors";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { inTransaction } from "@/server/db/transaction";
import { assertCommitOfPull, callerAndPull, type PullRow, type ReviewRepo } from "./review-context";
import { anchorInDiff, type Anchor } from "./diff-anchor";
import { addCommentInput, addSuggestionInput, type AddCommentInput, type AddSuggestionInput, type Side } from "./review-schemas";
import { commentInclude, recordOf, toThreadView, type PullThreadView } from "./comment-view";
import { emitPullCommentCreated } from "@/server/services/webhooks/domain-events";

interface Position {
  path: string;
  line: number;
  side?: Side;
  startLine?: number;
  endLine?: number;
  commitSha?: string;
}

/** Validates an inline position and anchors it in the diff. BAD_REQUEST naming the problem. */
async function inlineAnchor(repo: ReviewRepo, pr: PullRow, pos: Position): Promise<Anchor & { commitSha: string }> {
  if (pos.endLine !== undefined && pos.endLine !== pos.line)
    throw new AppError("BAD_REQUEST", `line (${pos.line}) and endLine (${pos.endLine}) must be equal: line is the range's last line`);
  const commitSha = pos.commitSha ?? pr.headSha;
  await assertCommitOfPull(repo, pr, commitSha);
  const startLine = pos.startLine !== undefined && pos.startLine !== pos.line ? pos.startLine : null;
  const anchor = await anchorInDiff(repo, pr, commitSha, { path: pos.path, side: pos.side ?? "RIGHT", startLine, line: pos.line });
  return { ...anchor, commitSha };
}

/** A submitted review of `authorId` on `pr` (for `reviewId`). NOT_FOUND otherwise. */
async function ownReview(db: Db, prId: string, reviewId: string, authorId: string): Promise<void> {
  const review = await db.pullRequestReview.findFirst({ where: { id: reviewId, pullRequestId: prId }, select: { authorId: true } });
  if (!review) throw new AppError("NOT_FOUND", "review not found in this pull request");
  if (review.authorId !== authorId) throw new AppError("FORBIDDEN", "a comment can only join one of your own reviews");
}

/** The comment to reply to and its thread's root. NOT_FOUND when it is not a visible comment of `pr`. */
async function threadRoot(db: Db, pr: PullRow, replyToId: string, callerId: string) {
  const parent = await db.pullRequestComment.findFirst({ where: { id: replyToId, pullRequestId: pr.id } });
  if (!parent || (parent.isPending && parent.authorId !== callerId))
    throw new AppError("NOT_FOUND", `the comment to reply to is not a comment of pull request #${pr.number}`);
  if (parent.replyToId === null) return parent;
  const root = await db.pullRequestComment.findUnique({ where: { id: parent.replyToId } });
  if (!root) throw new AppError("NOT_FOUND", "the thread was deleted meanwhile");
  return root;
}

/** pulls.addComment → the new comment (as a thread view: a root, or a reply with no replies of its own). */
export async function addPullComment(
  db: Db,
  caller: Actor | null,
  repo: ReviewRepo,
  prId: string,
  raw: AddCommentInput,
): Promise<PullThreadView> {
  const input = addCommentInput.parse(raw);
  const { actor, pr } = await callerAndPull(db, caller, repo, prId);
  if (input.pending && input.reviewId)
    throw new AppError("BAD_REQUEST", "a pending comment joins your review when you submit it: leave reviewId out");
  if (input.reviewId) await ownReview(db, pr.id, input.reviewId, actor.user.id);
  const data = {
    pullRequestId: pr.id,
    authorId: actor.user.id,
    body: input.body,
    reviewId: input.reviewId ?? null,
    isPending: input.pending ?? false,
  };
  if (input.replyToId) {
    const root = await threadRoot(db, pr, input.replyToId, actor.user.id);
    return create(db, repo.id, {
      ...data,
      replyToId: root.id,
      isPending: root.isPending || data.isPending,
      path: root.path,
      line: root.line,
      side: root.side,
      startLine: root.startLine,
      endLine: root.endLine,
      commitSha: root.commitSha,
    });
  }
  if (input.path === undefined) {
    const stray = (["line", "side", "startLine", "endLine", "commitSha"] as const).filter((k) => input[k] !== undefined);
    if (stray.length) throw new AppError("BAD_REQUEST", `${stray.join(", ")} need a path: a general comment has no position`);
    return create(db, repo.id, data);
  }
  if (input.line === undefined) throw new AppError("BAD_REQUEST", "an inline comment needs line (the last line of its range)");
  const a = await inlineAnchor(repo, pr, { ...input, path: input.path, line: input.line });
  return create(db, repo.id, {
    ...data,
    path: a.path,
    line: a.line,
    side: a.side,
    startLine: a.startLine,
    endLine: a.line,
    commitSha: a.commitSha,
    diffHunk: a.diffHunk,
  });
}

/** pulls.addSuggestion → the new comment with its `suggestion` (RIGHT side only). */
export async function addPullSuggestion(
  db: Db,
  caller: Actor | null,
  repo: ReviewRepo,
  prId: string,
  raw: AddSuggestionInput,
): Promise<PullThreadView> {
  const input = addSuggestionInput.parse(raw);
  const { actor, pr } = await callerAndPull(db, caller, repo, prId);
  if (input.side === "LEFT")
    throw new AppError(
      "BAD_REQUEST",
      "a suggestion replaces lines of the head: side must be RIGHT (LEFT lines are the base's and cannot change here)",
    );
  if (pr.state !== "open")
    throw new AppError(
      "PRECONDITION_FAILED",
      `pull request #${pr.number} is ${pr.state}: suggestions can only be made on an open pull request`,
    );
  if (input.pending && input.reviewId)
    throw new AppError("BAD_REQUEST", "a pending comment joins your review when you submit it: leave reviewId out");
  if (input.reviewId) await ownReview(db, pr.id, input.reviewId, actor.user.id);
  const a = await inlineAnchor(repo, pr, { ...input, side: "RIGHT" });
  return create(db, repo.id, {
    pullRequestId: pr.id,
    authorId: actor.user.id,
    body: input.body,
    reviewId: input.reviewId ?? null,
    isPending: input.pending ?? false,
    path: a.path,
    line: a.line,
    side: "RIGHT",
    startLine: a.startLine,
    endLine: a.line,
    commitSha: a.commitSha,
    diffHunk: a.diffHunk,
    suggestion: input.suggestion,
  });
}

type NewComment = Parameters<Db["pullRequestComment"]["create"]>[0]["data"];

async function create(db: Db, repoId: string, data: NewComment): Promise<PullThreadView> {
  try {
    const row = await inTransaction(db, async (tx) => {
      const created = await tx.pullRequestComment.create({ data, include: commentInclude });
      if (!created.isPending && created.authorId) {
        await emitPullCommentCreated(tx, { id: created.authorId }, created.id);
        await enqueuePullNotification(tx, repoId, created.pullRequestId, created.authorId, "comment", { anchor: `comment-${created.id}` });
      }
      return created;
    });
    // open pages refresh (live updates); a pending comment shows only once its review is submitted
    if (!row.isPending) notifyPull(db, row.pullRequestId, "comment", row.authorId);
    return toThreadView(recordOf(row));
  } catch (e) {
    // the thread's root (or the review) was deleted between the check and the insert
    if (isForeignKeyViolation(e)) throw new AppError("NOT_FOUND", "the thread or review was deleted meanwhile");
    throw e;
  }
}
