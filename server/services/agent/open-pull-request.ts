/**
 * agent.openPullRequest {sessionId, title?, body?} (extension; docs/agent.md "Branch"): a
 * pull request from the session branch into the default branch, through the pull request
 * service (services/pulls/create-pull-request.ts: same rules, numbering and events as
 * pulls.create). Default title: the session's; default body: the approved changes.
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { readRef } from "@/server/git/pull-refs";
import { createPullRequest } from "@/server/services/pulls/create-pull-request";
import type { PullView } from "@/server/services/pulls/view";
import { ownSession } from "./model";

/** Errors: NOT_FOUND; PRECONDITION_FAILED before the first approval (no branch yet); as pulls.create (CONFLICT when one is open already). */
export async function openPullRequest(
  db: Db,
  actor: Actor,
  input: { sessionId: string; title?: string; body?: string },
): Promise<PullView> {
  const { session, repo } = await ownSession(db, actor, input.sessionId);
  const head = await readRef(repo.gitDir, `refs/heads/${session.branch}`);
  if (!head) throw new AppError("PRECONDITION_FAILED", `the session branch ${session.branch} does not exist yet: approve a change first`);
  const base = await readRef(repo.gitDir, `refs/heads/${repo.defaultBranch}`);
  if (!base) throw new AppError("PRECONDITION_FAILED", `the default branch "${repo.defaultBranch}" does not exist`);
  let body = input.body;
  if (body === undefined) {
    const approved = await db.proposedChange.findMany({
      where: { sessionId: session.id, status: "approved" },
      orderBy: [{ seq: "asc" }],
      select: { type: true, path: true },
      take: 200,
    });
    body = `Changes approved in agent session "${session.title}":\n\n${approved.map((c) => `- ${c.type} \`${c.path}\``).join("\n")}`;
  }
  return createPullRequest(db, actor, repo, {
    title: input.title ?? session.title,
    body,
    sourceBranch: session.branch,
    targetBranch: repo.defaultBranch,
    headSha: head,
    baseSha: base,
  });
}
