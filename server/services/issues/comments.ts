/**
 * Issue comments. Read permission may comment; a comment may be edited or deleted by
 * its author, or by anyone with write permission (GitHub's maintainers rule). Adding writes the
 * `commented` activity (newValue = comment id) in the same transaction; edits and deletions are
 * not issue changes and write none, but emit the `issue_comment` "edited" / "deleted" webhook
 * events in their transaction. Shape: {id, issueNumber, body, authorId, author, createdAt,
 * updatedAt}.
 */
import { inTransaction } from "@/server/db/transaction";
import type { Db, Prisma } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { atLeast, type AuthorizedRepo } from "@/server/services/repos/access";
import { issueByNumber, recordActivity, requireActor } from "./core";
import { userSelect, type UserRef } from "./shapes";
import { takeComment } from "./limits";
import { emitIssueCommentEvent } from "@/server/services/webhooks/domain-events";

export interface CommentView {
  id: string;
  issueNumber: number;
  body: string;
  authorId: string | null;
  author: UserRef | null;
  createdAt: string;
  updatedAt: string;
}

const select = {
  id: true,
  body: true,
  authorId: true,
  createdAt: true,
  updatedAt: true,
  issue: { select: { number: true } },
  author: { select: userSelect },
} as const satisfies Prisma.IssueCommentSelect;

function view(r: Prisma.IssueCommentGetPayload<{ select: typeof select }>): CommentView {
  return {
    id: r.id,
    issueNumber: r.issue.number,
    body: r.body,
    authorId: r.authorId,
    author: r.author,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Repository id of a comment (the commentId locator). */
export async function commentRepoId(db: Db, id: string): Promise<string | null> {
  return (await db.issueComment.findUnique({ where: { id }, select: { issue: { select: { repoId: true } } } }))?.issue.repoId ?? null;
}

/**
 * issues.addComment {number, body} → the comment. Activity commented. Per-user limit taken
 * before the write (./limits.ts: 60 / hour with read permission, 600 / hour with write):
 * TOO_MANY_REQUESTS with retryAfter seconds.
 */
export async function addComment(
  db: Db,
  caller: Actor | null,
  repo: Pick<AuthorizedRepo, "id" | "permission">,
  number: number,
  body: string,
): Promise<CommentView> {
  const actor = requireActor(caller);
  await takeComment(actor.user.id, repo.permission);
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    const c = await tx.issueComment.create({ data: { issueId: issue.id, authorId: actor.user.id, body }, select });
    await tx.issue.update({ where: { id: issue.id }, data: { updatedAt: new Date() } });
    await recordActivity(tx, issue, actor, [{ action: "commented", field: "comment", newValue: c.id }]);
    return view(c);
  });
}

/** issues.comments {number} → comments oldest first. */
export async function listComments(db: Db, repo: Pick<AuthorizedRepo, "id">, number: number): Promise<CommentView[]> {
  const issue = await issueByNumber(db, repo.id, number);
  return (await db.issueComment.findMany({ where: { issueId: issue.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select })).map(
    view,
  );
}

async function editable(db: Db, caller: Actor | null, repo: Pick<AuthorizedRepo, "id" | "permission">, id: string) {
  const c = await db.issueComment.findFirst({
    where: { id, issue: { repoId: repo.id } },
    select: { id: true, authorId: true, issueId: true },
  });
  if (!c) throw new AppError("NOT_FOUND", "comment not found");
  const actor = requireActor(caller);
  if (c.authorId !== actor.user.id && !atLeast(repo.permission, "write")) {
    throw new AppError("FORBIDDEN", "only the author or someone with write permission can change this comment");
  }
  return { ...c, sender: actor.user };
}

/** issues.updateComment {commentId, body} → the comment. FORBIDDEN unless author or write permission. */
export async function updateComment(
  db: Db,
  actor: Actor | null,
  repo: Pick<AuthorizedRepo, "id" | "permission">,
  id: string,
  body: string,
): Promise<CommentView> {
  const c = await editable(db, actor, repo, id);
  return view(
    await inTransaction(db, async (tx) => {
      const before = await tx.issueComment.findUnique({ where: { id }, select: { body: true } });
      if (!before) throw new AppError("NOT_FOUND", "comment not found");
      const row = await tx.issueComment.update({ where: { id }, data: { body }, select });
      if (before.body !== body)
        await emitIssueCommentEvent(tx, repo.id, "edited", c.sender, c.issueId, id, { changes: { body: { from: before.body } } });
      return row;
    }),
  );
}

/** issues.deleteComment {commentId} → {id, deleted: true}. FORBIDDEN unless author or write permission. */
export async function deleteComment(
  db: Db,
  actor: Actor | null,
  repo: Pick<AuthorizedRepo, "id" | "permission">,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const c = await editable(db, actor, repo, id);
  await inTransaction(db, async (tx) => {
    // the payload carries the comment as it was, so it is read before it goes
    await emitIssueCommentEvent(tx, repo.id, "deleted", c.sender, c.issueId, id);
    await tx.issueComment.delete({ where: { id } });
  });
  return { id, deleted: true };
}
