/**
 * pulls.update, pulls.close, pulls.reopen (spec "Pull request" states and transitions;
 * docs/pulls.md "Records and timeline"). Who: the pull request's author, or anyone with write
 * permission (the access rows are read-level; this service checks, as issues.update does). Every
 * change writes its timeline event in the same transaction: edited {field, from, to} for title and
 * body, ready_for_review / converted_to_draft for isDraft, closed, reopened. Title and body can be
 * edited unless the pull request is merged; isDraft changes only while open (PRECONDITION_FAILED
 * otherwise). Ready for review (isDraft → false) starts an AI review run (ai-review.ts). Closing
 * and converting to a draft disable auto-merge (auto-merge.ts; event auto_merge_disabled with the reason).
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { atLeast, type AuthorizedRepo } from "@/server/services/repos/access";
import { requireActor } from "@/server/services/issues/core";
import { inTransaction } from "@/server/db/transaction";
import { resolveCommit } from "@/server/git/repository";
import { repoGitDir } from "@/server/git/paths";
import { updatePullInput, type UpdatePullInput } from "./schemas";
import { recordPullEvent } from "./events";
import { followSourceTip } from "./after-push";
import { pullViewById, type PullView } from "./view";
import { createAiReviewRun, enqueueAiReview } from "./ai-review";
import { emitPullRequestEvent } from "@/server/services/webhooks/domain-events";
import { clearAutoMerge } from "./auto-merge";
import { enqueuePullNotification } from "@/server/services/notifications/enqueue";

type Repo = Pick<AuthorizedRepo, "id" | "permission">;

async function loadForChange(db: Db, caller: Actor | null, repo: Repo, prId: string) {
  const actor = requireActor(caller);
  const pr = await db.pullRequest.findFirst({ where: { id: prId, repoId: repo.id } });
  if (!pr) throw new AppError("NOT_FOUND", "pull request not found");
  if (pr.authorId !== actor.user.id && !atLeast(repo.permission, "write")) {
    throw new AppError("FORBIDDEN", "only the pull request's author or someone with write permission can change it");
  }
  return { actor, pr };
}

/**
 * pulls.update {prId, title?, body?, isDraft?} → pull request. Title/body: not on a merged pull
 * request; isDraft: only while open (PRECONDITION_FAILED). Unchanged fields write no event.
 */
export async function updatePullRequest(db: Db, caller: Actor | null, repo: Repo, prId: string, raw: UpdatePullInput): Promise<PullView> {
  const input = updatePullInput.parse(raw);
  const { actor, pr } = await loadForChange(db, caller, repo, prId);
  if (pr.state === "merged" && (input.title !== undefined || input.body !== undefined || input.isDraft !== undefined)) {
    throw new AppError("PRECONDITION_FAILED", `pull request #${pr.number} is merged and can no longer be edited`);
  }
  if (input.isDraft !== undefined && input.isDraft !== pr.isDraft && pr.state !== "open") {
    throw new AppError(
      "PRECONDITION_FAILED",
      `pull request #${pr.number} is ${pr.state}: only an open pull request can change its draft status`,
    );
  }
  let aiRun: string | null = null;
  const view = await inTransaction(db, async (tx) => {
    const data: { title?: string; body?: string | null; isDraft?: boolean } = {};
    const events: [Parameters<typeof recordPullEvent>[2], Record<string, unknown>][] = [];
    if (input.title !== undefined && input.title !== pr.title) {
      data.title = input.title;
      events.push(["edited", { field: "title", from: pr.title, to: input.title }]);
    }
    const body = input.body === undefined ? undefined : input.body === "" ? null : input.body;
    if (body !== undefined && body !== pr.body) {
      data.body = body;
      events.push(["edited", { field: "body" }]);
    }
    if (input.isDraft !== undefined && input.isDraft !== pr.isDraft) {
      data.isDraft = input.isDraft;
      events.push([input.isDraft ? "converted_to_draft" : "ready_for_review", {}]);
    }
    if (events.length) {
      // compare-and-set on what we read: a concurrent change makes this one fail cleanly
      const r = await tx.pullRequest.updateMany({ where: { id: pr.id, updatedAt: pr.updatedAt }, data });
      if (r.count === 0) throw new AppError("CONFLICT", "the pull request changed meanwhile; reload and try again");
      for (const [type, d] of events) await recordPullEvent(tx, pr.id, type, d, actor.user.id);
      const changes = {
        ...(data.title !== undefined ? { title: { from: pr.title } } : {}),
        ...(data.body !== undefined ? { body: { from: pr.body ?? "" } } : {}),
      };
      if (Object.keys(changes).length) await emitPullRequestEvent(tx, pr.repoId, "edited", actor.user, pr.id, { changes });
      if (data.isDraft !== undefined)
        await emitPullRequestEvent(tx, pr.repoId, data.isDraft ? "converted_to_draft" : "ready_for_review", actor.user, pr.id);
      if (data.isDraft === true) await clearAutoMerge(tx, pr.repoId, pr.id, "the pull request was converted to a draft", actor.user.id);
      // ready for review starts the AI review (docs/ai.md "AI review"), enqueued once this commits
      if (data.isDraft === false) aiRun = await createAiReviewRun(tx, pr, "ready_for_review", actor.user.id);
    }
    return pullViewById(tx, pr.id);
  });
  if (aiRun) await enqueueAiReview(db, aiRun);
  return view;
}

/** pulls.close {prId} → pull request (state closed, closedAt set). PRECONDITION_FAILED unless open. */
export async function closePullRequest(db: Db, caller: Actor | null, repo: Repo, prId: string): Promise<PullView> {
  const { actor, pr } = await loadForChange(db, caller, repo, prId);
  if (pr.state !== "open") throw new AppError("PRECONDITION_FAILED", `pull request #${pr.number} is ${pr.state}, not open`);
  return inTransaction(db, async (tx) => {
    const r = await tx.pullRequest.updateMany({ where: { id: pr.id, state: "open" }, data: { state: "closed", closedAt: new Date() } });
    if (r.count === 0) throw new AppError("CONFLICT", "the pull request changed meanwhile; reload and try again");
    await recordPullEvent(tx, pr.id, "closed", {}, actor.user.id);
    await emitPullRequestEvent(tx, pr.repoId, "closed", actor.user, pr.id);
    await enqueuePullNotification(tx, pr.repoId, pr.id, actor.user.id, "state_change");
    await clearAutoMerge(tx, pr.repoId, pr.id, "the pull request was closed", actor.user.id);
    return pullViewById(tx, pr.id);
  });
}

/**
 * pulls.reopen {prId} → pull request (state open, closedAt cleared). Only a closed, unmerged pull
 * request whose source branch still exists (PRECONDITION_FAILED naming the reason); CONFLICT when
 * another open pull request now has the same source → target. When the branch moved while the
 * pull request was closed, the head follows it (event pushed / force_pushed, as a push would).
 */
export async function reopenPullRequest(db: Db, caller: Actor | null, repo: Repo, prId: string): Promise<PullView> {
  const { actor, pr } = await loadForChange(db, caller, repo, prId);
  if (pr.state !== "closed")
    throw new AppError("PRECONDITION_FAILED", `pull request #${pr.number} is ${pr.state}: only a closed pull request can be reopened`);
  const source = await db.repository.findUnique({
    where: { id: pr.sourceRepoId },
    select: { name: true, owner: { select: { username: true } } },
  });
  const tip = source ? await resolveCommit(repoGitDir(source.owner.username, source.name), `refs/heads/${pr.sourceBranch}`) : null;
  if (pr.sourceDeleted || !tip)
    throw new AppError(
      "PRECONDITION_FAILED",
      `the source branch "${pr.sourceBranch}" no longer exists, so pull request #${pr.number} cannot be reopened`,
    );
  await inTransaction(db, async (tx) => {
    const other = await tx.pullRequest.findFirst({
      where: {
        repoId: pr.repoId,
        sourceRepoId: pr.sourceRepoId,
        sourceBranch: pr.sourceBranch,
        targetBranch: pr.targetBranch,
        state: "open",
        id: { not: pr.id },
      },
      select: { number: true },
    });
    if (other) throw new AppError("CONFLICT", `pull request #${other.number} is already open for ${pr.sourceBranch} → ${pr.targetBranch}`);
    const r = await tx.pullRequest.updateMany({ where: { id: pr.id, state: "closed" }, data: { state: "open", closedAt: null } });
    if (r.count === 0) throw new AppError("CONFLICT", "the pull request changed meanwhile; reload and try again");
    await recordPullEvent(tx, pr.id, "reopened", {}, actor.user.id);
    await emitPullRequestEvent(tx, pr.repoId, "reopened", actor.user, pr.id);
    await enqueuePullNotification(tx, pr.repoId, pr.id, actor.user.id, "state_change");
  });
  if (tip !== pr.headSha) await followSourceTip(db, pr.id, tip, actor.user.id);
  return pullViewById(db, pr.id);
}
