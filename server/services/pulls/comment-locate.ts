/**
 * Finding pull request comments (docs/pulls.md "Review"): the repository of a comment id for the
 * repo tier's `commentId` locator (server/api/routers/pull-locator.ts `byPullCommentId`), and
 * loading one inside an authorized repository. Another user's pending comment does not exist for
 * the caller.
 */
import type { Db } from "@/server/db";
import { readRows } from "@/server/db/read";
import { getConfig } from "@/server/config";
import { AppError } from "@/server/errors";

/** The target repository id of pull request comment `id`, or null. One statement (comment joined to its pull request). */
export async function pullCommentRepoId(db: Db, id: string): Promise<string | null> {
  const p = getConfig().provider === "postgresql" ? "$1" : "?";
  const rows = await readRows<{ repoId: string }>(
    db,
    `SELECT p."repoId" FROM "PullRequestComment" c JOIN "PullRequest" p ON p."id" = c."pullRequestId" WHERE c."id" = ${p}`,
    [id],
  );
  return rows[0]?.repoId ?? null;
}

/**
 * Comment `id` with its pull request's number, state and author, in repository `repoId`, as
 * `callerId` may see it. Errors: NOT_FOUND "comment not found" (none, another repository's, or
 * someone else's pending comment).
 */
export async function loadComment(db: Db, repoId: string, id: string, callerId: string | null) {
  const c = await db.pullRequestComment.findFirst({
    where: { id, pullRequest: { repoId } },
    include: { pullRequest: { select: { id: true, number: true, state: true, authorId: true, headSha: true } } },
  });
  if (!c || (c.isPending && c.authorId !== callerId)) throw new AppError("NOT_FOUND", "comment not found");
  return c;
}
