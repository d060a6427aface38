/**
 * What a push means for pull requests (docs/pulls.md "Pushes"; called by recordBranchUpdates,
 * server/services/repos/update-branch.ts, after every branch move). Before the push answers,
 * for the branches it moved:
 *   - an open pull request whose source (repository + branch) moved gets headSha and
 *     `refs/pull/<number>/head` in its target updated (the commit fetched from a fork first), its
 *     cached mergeability dropped, and an event "pushed" {commits, before, after}, or
 *     "force_pushed" when the old head is not an ancestor of the new one, and the next revision (revisions.ts);
 *     then, when the target
 *     branch's protection rule has dismissStaleApprovals and the push changed the diff, earlier
 *     approvals are dismissed (services/branch-protection/stale-approvals.ts), and the code
 *     owners of files the push made part of the change are requested as reviewers
 *     (services/branch-protection/codeowner-reviewers.ts);
 *     a push by someone without write permission on the target repository disables its
 *     auto-merge (auto-merge.ts), in the head's transaction;
 *   - a pull request (open or closed) whose source branch was deleted gets sourceDeleted = true and
 *     "source_deleted"; when the branch comes back, false again and "source_restored";
 *   - ONE `pulls.refreshAfterPush` job per moved branch with open pull requests into or out of
 *     it (refresh-after-push.ts), whatever their number: the mergeability of every open pull request into or out of that
 *     branch, and "merged outside svc" (an open pull request whose head is now reachable from its
 *     target branch: mergeStrategy "external", mergeSha = the target tip, event "merged").
 * Bounded: ONE query finds the pull requests whose source moved (usually one or none: pull
 * requests into the branch are not read here, one grouped query only tells which moved branches
 * have any); git runs only for those. Each pull request's
 * change is one guarded transaction (nothing happens twice when pushes race).
 */
import { enqueue } from "@/server/jobs";
import { REFRESH_PULLS_AFTER_PUSH } from "@/server/jobs/names";
import type { Db } from "@/server/db";
import { inTransaction } from "@/server/db/transaction";
import { repoGitDir } from "@/server/git/paths";
import { resolveCommit } from "@/server/git/repository";
import { fetchCommit, movePullHead, pullHeadRef, readRef } from "@/server/git/pull-refs";
import { countCommits, isAncestor } from "@/server/git/commits";
import type { RefUpdate } from "@/server/git/push-commands";
import { ZERO_SHA } from "@/lib/sha";
import { recordPullEvent } from "./events";
import { dismissStaleApprovals } from "@/server/services/branch-protection/stale-approvals";
import { requestCodeOwnersAfterPush } from "@/server/services/branch-protection/codeowner-reviewers";
import { emitPullRequestEvent } from "@/server/services/webhooks/domain-events";
import { atLeast } from "@/server/services/repos/access";
import { actAs, clearAutoMerge } from "./auto-merge";
import { ensureRevisions, recordRevision, revisionFactsOnBranch } from "./revisions";
import { enqueuePullNotification } from "@/server/services/notifications/enqueue";

type Affected = Awaited<ReturnType<typeof affectedPulls>>[number];

/** The pull requests whose source is one of `branches` of `repoId` (the ones a push changes at once): one query. */
const affectedSelect = {
  id: true,
  number: true,
  repoId: true,
  sourceRepoId: true,
  sourceBranch: true,
  targetBranch: true,
  state: true,
  headSha: true,
  sourceDeleted: true,
  autoMergeStrategy: true,
  repo: { select: { name: true, owner: { select: { username: true } } } },
  sourceRepo: { select: { name: true, owner: { select: { username: true } } } },
} as const;

async function affectedPulls(db: Db, repoId: string, branches: string[]) {
  return db.pullRequest.findMany({
    where: { sourceRepoId: repoId, sourceBranch: { in: branches }, state: { in: ["open", "closed"] } },
    select: affectedSelect,
    take: 1000,
  });
}

/**
 * Applies a push of `updates` into repository `repoId` (bare repository `gitDir`) to pull
 * requests. `actorId` is the pusher (null when unknown). Git or database problems of one pull
 * request are logged and do not stop the others. Returns once the heads have moved and the
 * jobs are queued; the mergeability work is the jobs'.
 */
export async function updatePullsAfterPush(
  db: Db,
  repoId: string,
  gitDir: string,
  updates: RefUpdate[],
  actorId: string | null = null,
): Promise<void> {
  const moved = new Map<string, RefUpdate>();
  for (const u of updates) if (u.ref.startsWith("refs/heads/")) moved.set(u.ref.slice("refs/heads/".length), u);
  if (moved.size === 0) return;
  const pulls = await affectedPulls(db, repoId, [...moved.keys()]);
  for (const pr of pulls) {
    try {
      await applyToPull(db, repoId, gitDir, moved, pr, actorId);
    } catch (e) {
      console.error(`updating pull request ${pr.id} after a push failed`, e);
    }
  }
  // everything else in the background (after the commits above: enqueue never runs inside a
  // transaction): one job per moved branch that open pull requests come from or go into (one
  // indexed query finds the targets: a row per branch, not per pull request), one pending per
  // (repository, branch) — a burst of pushes refreshes once, from the tips current when it runs
  const targets = await db.pullRequest.groupBy({
    by: ["targetBranch"],
    where: { repoId, state: "open", targetBranch: { in: [...moved.keys()] } },
  });
  const branches = new Set([...targets.map((t) => t.targetBranch), ...pulls.filter((p) => p.state === "open").map((p) => p.sourceBranch)]);
  for (const branch of branches) {
    await enqueue(REFRESH_PULLS_AFTER_PUSH, { repoId, branch, actorId }, { singletonKey: `${repoId}:${branch}` }).catch((e) =>
      console.error(`queueing the pull request refresh after a push to ${repoId}:${branch} failed`, e),
    );
  }
}

async function applyToPull(
  db: Db,
  repoId: string,
  gitDir: string,
  moved: Map<string, RefUpdate>,
  pr: Affected,
  actorId: string | null,
): Promise<void> {
  const targetGitDir = repoGitDir(pr.repo.owner.username, pr.repo.name);
  const sourceMove = pr.sourceRepoId === repoId ? moved.get(pr.sourceBranch) : undefined;
  if (!sourceMove) return;
  if (sourceMove.newSha === ZERO_SHA) {
    if (!pr.sourceDeleted) await setSourceDeleted(db, pr.id, true, sourceMove.oldSha, actorId);
    return;
  }
  if (pr.sourceDeleted) await setSourceDeleted(db, pr.id, false, sourceMove.newSha, actorId);
  if (pr.state !== "open" || sourceMove.newSha === pr.headSha) return;
  const disable = pr.autoMergeStrategy ? await autoMergeDisableReason(db, pr.repoId, actorId) : null;
  if (await moveHead(db, pr, targetGitDir, gitDir, sourceMove.newSha, actorId, disable)) {
    await dismissStaleApprovals(db, targetGitDir, pr, sourceMove.newSha);
    await requestCodeOwnersAfterPush(db, targetGitDir, pr, pr.headSha, sourceMove.newSha, actorId);
  }
}

/**
 * Why a push by `actorId` to the head of a pull request into `repoId` disables its auto-merge
 * (GitHub's rule: a push by someone without write permission on the base repository, e.g. to a
 * fork's branch), or null when the pusher may write there. An unknown pusher (null) disables it.
 */
async function autoMergeDisableReason(db: Db, repoId: string, actorId: string | null): Promise<string | null> {
  const as = actorId ? await actAs(db, actorId, repoId) : null;
  if (as && atLeast(as.repo.permission, "write")) return null;
  return as
    ? `@${as.actor.user.username}, who has no write permission, pushed to the head branch`
    : "a push to the head branch by someone without write permission";
}

async function setSourceDeleted(db: Db, id: string, deleted: boolean, sha: string, actorId: string | null): Promise<void> {
  await inTransaction(db, async (tx) => {
    const r = await tx.pullRequest.updateMany({ where: { id, sourceDeleted: !deleted }, data: { sourceDeleted: deleted } });
    if (r.count === 0) return;
    if (deleted) await tx.pullRequestMergeability.deleteMany({ where: { pullRequestId: id } });
    await recordPullEvent(tx, id, deleted ? "source_deleted" : "source_restored", { sha }, actorId);
  });
}

/**
 * Points pull request `pr` at `newSha`: fetch from the source repository when it is a fork,
 * move refs/pull/N/head by compare-and-swap, then headSha, mergeability and the event in one
 * transaction guarded on the old headSha — with the next revision (revisions.ts; its merge base
 * and patch id computed before the transaction) — with auto-merge disabled for `disableAutoMerge` (the
 * reason) when given. False when another push got there first.
 */
async function moveHead(
  db: Db,
  pr: Affected,
  targetGitDir: string,
  sourceGitDir: string,
  newSha: string,
  actorId: string | null,
  disableAutoMerge: string | null = null,
): Promise<boolean> {
  if (pr.sourceRepoId !== pr.repoId) await fetchCommit(targetGitDir, sourceGitDir, newSha);
  const forced = !(await isAncestor(targetGitDir, pr.headSha, newSha).catch(() => false));
  const commits = await countCommits(targetGitDir, newSha, pr.headSha).catch(() => 0); // commits new to the head
  // git work before the transaction: the new revision's merge base and patch id; a pull request
  // opened before revisions were recorded gets its past ones first, so the numbers follow on
  const facts = await revisionFactsOnBranch(targetGitDir, pr.targetBranch, newSha);
  await ensureRevisions(db, pr.id).catch((e) => console.error(`synthesizing the revisions of pull request ${pr.id} failed`, e));
  const ref = pullHeadRef(pr.number);
  const current = await readRef(targetGitDir, ref);
  if (!(await movePullHead(targetGitDir, pr.number, newSha, current))) return false;
  return inTransaction(db, async (tx) => {
    const r = await tx.pullRequest.updateMany({ where: { id: pr.id, headSha: pr.headSha, state: "open" }, data: { headSha: newSha } });
    if (r.count === 0) return false;
    await tx.pullRequestMergeability.deleteMany({ where: { pullRequestId: pr.id } });
    await recordRevision(tx, pr.id, newSha, facts, actorId, forced);
    await recordPullEvent(tx, pr.id, forced ? "force_pushed" : "pushed", { commits, before: pr.headSha, after: newSha }, actorId);
    await emitPullRequestEvent(tx, pr.repoId, "synchronize", actorId ? { id: actorId } : null, pr.id, {
      before: pr.headSha,
      after: newSha,
    });
    await enqueuePullNotification(tx, pr.repoId, pr.id, actorId, "push");
    // in the same transaction as the new head, so no auto-merge job merges it in between
    if (disableAutoMerge) await clearAutoMerge(tx, pr.repoId, pr.id, disableAutoMerge, null);
    return true;
  });
}

/** Marks `pr` merged outside svc when `head` is reachable from its target branch's tip (read from the ref). */
async function markMergedIfReachable(db: Db, pr: Affected, targetGitDir: string, head: string, actorId: string | null): Promise<void> {
  const tip = await resolveCommit(targetGitDir, `refs/heads/${pr.targetBranch}`);
  if (!tip || !(await isAncestor(targetGitDir, head, tip))) return;
  await markMergedExternally(db, pr.id, head, tip, actorId);
}

/**
 * Records open pull request `id` as merged outside svc (its head `head` is reachable from its
 * target branch's tip `tip`; the caller checked): state "merged", mergeStrategy "external",
 * mergeSha `tip`, mergedAt now, mergedBy null, the cached mergeability dropped and an event
 * "merged" by `actorId` — one transaction guarded on (open, headSha = `head`), so a pull request
 * that moved or closed meanwhile is left alone. Returns whether it was recorded.
 */
export async function markMergedExternally(db: Db, id: string, head: string, tip: string, actorId: string | null): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const now = new Date();
    const r = await tx.pullRequest.updateMany({
      where: { id, state: "open", headSha: head },
      data: { state: "merged", mergedAt: now, mergeSha: tip, mergeStrategy: "external", mergedById: null },
    });
    if (r.count === 0) return false;
    await tx.pullRequestMergeability.deleteMany({ where: { pullRequestId: id } });
    await recordPullEvent(tx, id, "merged", { mergeSha: tip, strategy: "external" }, actorId);
    const { repoId } = await tx.pullRequest.findUniqueOrThrow({ where: { id }, select: { repoId: true } });
    await emitPullRequestEvent(tx, repoId, "closed", actorId ? { id: actorId } : null, id);
    await enqueuePullNotification(tx, repoId, id, actorId, "state_change");
    return true;
  });
}

/**
 * Moves open pull request `id` to its source branch's tip `tip` (pulls.reopen after pushes made
 * while it was closed): the same fetch, ref move, event and merged check as a push.
 */
export async function followSourceTip(db: Db, id: string, tip: string, actorId: string | null): Promise<void> {
  const pr = await db.pullRequest.findUnique({ where: { id }, select: affectedSelect });
  if (!pr || pr.state !== "open") return;
  const targetGitDir = repoGitDir(pr.repo.owner.username, pr.repo.name);
  let head = pr.headSha;
  if (
    tip !== pr.headSha &&
    (await moveHead(db, pr, targetGitDir, repoGitDir(pr.sourceRepo.owner.username, pr.sourceRepo.name), tip, actorId))
  )
    head = tip;
  await markMergedIfReachable(db, pr, targetGitDir, head, actorId);
}
