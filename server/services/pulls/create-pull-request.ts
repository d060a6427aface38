/**
 * pulls.create (spec "Pull request router"; rules: docs/pulls.md "Records and timeline"):
 *   - both branches must exist; `headSha` must be the source branch's tip (else CONFLICT "the
 *     branch moved"); `baseSha` must be a commit of the target repository;
 *   - the same repository and branch on both sides is refused (BAD_REQUEST);
 *   - an open pull request for the same source (repository + branch) → target is CONFLICT
 *     naming it (#N);
 *   - permission, as GitHub decides it: read access to the target repository (the access row) and
 *     read access to the source repository (a fork in the same fork network: the target's fork,
 *     its parent, or a sibling fork). Opening a pull request moves no branch; whoever can read both
 *     sides may propose the change. Unreadable sources answer NOT_FOUND like any repository;
 *   - the number comes from Repository.nextIssueNumber (shared with issues), incremented in the
 *     creating transaction; the target gets `refs/pull/<number>/head` at headSha (for a fork, the
 *     commit is first fetched from the fork's bare repository); timeline event "opened" and
 *     revision 1 (revisions.ts).
 *   - a non-draft pull request gets an AI review run (spec Events 2; ai-review.ts), written in the
 *     creating transaction and enqueued once it commits.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { authorizeRepo, type AuthorizedRepo } from "@/server/services/repos/access";
import { sameForkNetwork } from "@/server/services/repos/fork";
import { requireActor } from "@/server/services/issues/core";
import { inTransaction } from "@/server/db/transaction";
import { branchNameProblem } from "@/server/git/refs";
import { resolveCommit } from "@/server/git/repository";
import { deletePullHead, fetchCommit, movePullHead, pullHeadRef, readRef } from "@/server/git/pull-refs";
import { hasCommit } from "@/server/git/commits";
import { createPullInput, type CreatePullInput } from "./schemas";
import { recordPullEvent } from "./events";
import { codeOwnerReviewers } from "@/server/services/branch-protection/codeowner-reviewers";
import { writeTeamRequests } from "./team-reviewers";
import { emitPullRequestEvent } from "@/server/services/webhooks/domain-events";
import { pullViewById, type PullView } from "./view";
import { createAiReviewRun, enqueueAiReview } from "./ai-review";
import { recordRevision, revisionFacts } from "./revisions";
import { enqueuePullNotification } from "@/server/services/notifications/enqueue";

/** The branch tip, or BAD_REQUEST naming the branch and repository. */
async function branchTip(repo: Pick<AuthorizedRepo, "gitDir" | "owner" | "name">, branch: string, field: string): Promise<string> {
  const problem = branchNameProblem(branch);
  if (problem) throw new AppError("BAD_REQUEST", `${field}: ${problem}`);
  const tip = await resolveCommit(repo.gitDir, `refs/heads/${branch}`);
  if (!tip) throw new AppError("BAD_REQUEST", `${field}: branch "${branch}" does not exist in ${repo.owner}/${repo.name}`);
  return tip;
}

/** The source repository of a create: the target itself, or a readable repository of its fork network. */
async function sourceRepository(db: Db, actor: Actor, target: AuthorizedRepo, sourceRepoId: string | undefined): Promise<AuthorizedRepo> {
  if (!sourceRepoId || sourceRepoId === target.id) return target;
  const source = await authorizeRepo(db, actor, { repoId: sourceRepoId }, "read");
  if (!(await sameForkNetwork(db, source.id, target.id))) {
    throw new AppError(
      "BAD_REQUEST",
      `${source.owner}/${source.name} is not a fork of ${target.owner}/${target.name} (nor its parent or a sibling fork)`,
    );
  }
  return source;
}

/**
 * Opens a pull request in `repo` (the target, read-authorized) for `caller`. Errors:
 * UNAUTHORIZED anonymous; BAD_REQUEST bad input, unknown branch, same branch, unrelated source;
 * NOT_FOUND unreadable source; CONFLICT branch moved or an open pull request exists.
 */
export async function createPullRequest(db: Db, caller: Actor | null, repo: AuthorizedRepo, raw: CreatePullInput): Promise<PullView> {
  const actor = requireActor(caller);
  const input = createPullInput.parse(raw);
  const source = await sourceRepository(db, actor, repo, input.sourceRepoId);
  if (source.id === repo.id && input.sourceBranch === input.targetBranch) {
    throw new AppError("BAD_REQUEST", "the source and target are the same branch: choose another branch to compare");
  }
  const [sourceTip, targetTip] = await Promise.all([
    branchTip(source, input.sourceBranch, "sourceBranch"),
    branchTip(repo, input.targetBranch, "targetBranch"),
  ]);
  if (sourceTip !== input.headSha) {
    throw new AppError(
      "CONFLICT",
      `the branch moved: ${input.sourceBranch} is at ${sourceTip}, not ${input.headSha}; reload and try again`,
    );
  }
  if (!(await hasCommit(repo.gitDir, input.baseSha)))
    throw new AppError("BAD_REQUEST", `baseSha ${input.baseSha} is not a commit of ${repo.owner}/${repo.name}`);
  if (source.id !== repo.id) await fetchCommit(repo.gitDir, source.gitDir, input.headSha);
  // CODEOWNERS at the target tip: its owners of the changed paths are requested as reviewers
  const owners = await codeOwnerReviewers(db, repo, targetTip, input.headSha, actor.user.id);
  // revision 1's merge base and patch id: git work before the transaction
  const facts = await revisionFacts(repo.gitDir, targetTip, input.headSha);

  let written: { number: number; sha: string } | null = null;
  let aiRun: string | null = null;
  try {
    const view = await inTransaction(db, async (tx) => {
      // the counter first: on PostgreSQL its row lock orders concurrent creators in this
      // repository, so the duplicate check below sees the previous creator's row
      const counter = await tx.repository.update({
        where: { id: repo.id },
        data: { nextIssueNumber: { increment: 1 } },
        select: { nextIssueNumber: true },
      });
      const number = counter.nextIssueNumber - 1;
      const existing = await tx.pullRequest.findFirst({
        where: {
          repoId: repo.id,
          sourceRepoId: source.id,
          sourceBranch: input.sourceBranch,
          targetBranch: input.targetBranch,
          state: "open",
        },
        select: { number: true },
      });
      if (existing) {
        const from = source.id === repo.id ? input.sourceBranch : `${source.owner}:${input.sourceBranch}`;
        throw new AppError("CONFLICT", `pull request #${existing.number} is already open for ${from} → ${input.targetBranch}`);
      }
      const created = await tx.pullRequest.create({
        data: {
          repoId: repo.id,
          number,
          title: input.title,
          body: input.body ?? null,
          isDraft: input.isDraft ?? false,
          sourceRepoId: source.id,
          sourceBranch: input.sourceBranch,
          targetBranch: input.targetBranch,
          headSha: input.headSha,
          baseSha: input.baseSha,
          authorId: actor.user.id,
        },
        select: { id: true },
      });
      await recordPullEvent(
        tx,
        created.id,
        "opened",
        { headSha: input.headSha, baseSha: input.baseSha, isDraft: input.isDraft ?? false },
        actor.user.id,
      );
      await recordRevision(tx, created.id, input.headSha, facts, actor.user.id, false);
      for (const reviewer of owners.users) {
        await tx.pullRequestReviewRequest.create({ data: { pullRequestId: created.id, reviewerId: reviewer.id } });
        await recordPullEvent(tx, created.id, "review_requested", { reviewer, codeOwner: true }, null);
      }
      await emitPullRequestEvent(tx, repo.id, "opened", actor.user, created.id);
      await writeTeamRequests(tx, repo.id, created.id, owners.teams, null, true, false);
      await enqueuePullNotification(tx, repo.id, created.id, actor.user.id, "opened");
      // The number is ours (the counter row is locked until commit); a ref left by a rolled-back
      // attempt with this number is replaced by compare-and-swap from whatever it holds.
      const ref = pullHeadRef(number);
      const old = await readRef(repo.gitDir, ref);
      if (!(await movePullHead(repo.gitDir, number, input.headSha, old))) throw new AppError("CONFLICT", `${ref} changed meanwhile; retry`);
      written = { number, sha: input.headSha };
      if (!(input.isDraft ?? false))
        aiRun = await createAiReviewRun(tx, { id: created.id, headSha: input.headSha }, "opened", actor.user.id);
      return pullViewById(tx, created.id);
    });
    if (aiRun) await enqueueAiReview(db, aiRun);
    return view;
  } catch (e) {
    // nothing half-done: the row rolled back, so the ref goes too (if it still is ours)
    const w = written as { number: number; sha: string } | null;
    if (w) await deletePullHead(repo.gitDir, w.number, w.sha).catch(() => false);
    throw e;
  }
}
