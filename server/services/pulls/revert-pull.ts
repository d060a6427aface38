/**
 * pulls.revert (docs/pulls.md "Revert"; issue #22 item 12): GitHub's "Revert" button of a merged
 * pull request. Undoes what the merge brought into the target branch in ONE commit on a new
 * branch `revert-<number>-<source branch>` made from the target branch's current tip, then opens
 * a pull request `Revert "<title>"` with body "Reverts #<number>" from it. What is undone:
 *   - merge commit: the merge against its first parent (`git revert -m 1`);
 *   - squash: the squash commit;
 *   - rebase: the whole replayed range (target tip before the merge .. merge tip) in one commit,
 *     the newest change first as `git revert --no-commit <range>` would, so the revert pull
 *     request is one reviewable change like the other two.
 * The tree is computed without a working tree (server/git/revert.ts `revertTree`), first in an
 * object quarantine: a revert that conflicts with later changes of the target branch is CONFLICT
 * with the paths, and nothing is written (no object, branch or pull request).
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { countCommits, commitTree, mergeBase } from "@/server/git/commits";
import { MergeError } from "@/server/git/merge";
import { withObjectQuarantine } from "@/server/git/quarantine";
import { branchTips } from "@/server/git/ref-files";
import { resolveCommit } from "@/server/git/repository";
import { revertTree, treeOf } from "@/server/git/revert";
import { atLeast, type AuthorizedRepo } from "@/server/services/repos/access";
import { updateBranch } from "@/server/services/repos/update-branch";
import { ZERO_SHA } from "@/lib/sha";
import { createPullRequest } from "./create-pull-request";
import { REVERTIBLE } from "./head-branch";
import { loadPull } from "./locate";
import { identityOf } from "./merge";
import type { PullView } from "./view";

/** Names tried for the revert branch: `revert-<n>-<branch>`, then with -2 … -9 (GitHub adds a suffix too). */
const MAX_NAME_TRIES = 9;

/**
 * The commit the target branch was at before the merge: the merge or squash commit's first
 * parent; for a rebase, the tip recorded in the "merged" event (`baseTip`), or for merges
 * recorded before it was, the merge tip minus as many first-parent steps as the head had commits
 * past its fork point (exact unless the rebase dropped commits already upstream).
 */
async function beforeMerge(db: Db, gitDir: string, pr: { id: string; mergeSha: string; mergeStrategy: string; headSha: string }) {
  if (pr.mergeStrategy !== "rebase") return resolveCommit(gitDir, `${pr.mergeSha}^1`);
  const event = await db.pullRequestEvent.findFirst({ where: { pullRequestId: pr.id, type: "merged" }, orderBy: { id: "desc" } });
  const recorded = event ? (JSON.parse(event.data) as { baseTip?: unknown }).baseTip : undefined;
  if (typeof recorded === "string") return resolveCommit(gitDir, recorded);
  const fork = await mergeBase(gitDir, pr.headSha, pr.mergeSha);
  const n = await countCommits(gitDir, pr.headSha, fork ?? undefined);
  return resolveCommit(gitDir, `${pr.mergeSha}~${n}`);
}

/**
 * Reverts merged pull request `prId` of `repo` for `actor` (write permission on the target
 * repository; the access table's level) and returns the new pull request. Errors: FORBIDDEN
 * (below write), PRECONDITION_FAILED (not merged, merged outside svc, the target branch is gone
 * or no longer contains the merge, or the changes are already undone), CONFLICT (the revert
 * conflicts with the target branch — the message lists the files — or no free branch name;
 * nothing written), whatever pulls.create raises (the new branch is deleted again then).
 */
export async function revertPullRequest(db: Db, actor: Actor, repo: AuthorizedRepo, prId: string): Promise<PullView> {
  if (!atLeast(repo.permission, "write")) throw new AppError("FORBIDDEN", "reverting needs write permission on the repository");
  const pr = await loadPull(db, repo, prId);
  if (pr.state !== "merged") throw new AppError("PRECONDITION_FAILED", "only a merged pull request can be reverted");
  if (!pr.mergeSha || !REVERTIBLE.has(pr.mergeStrategy ?? ""))
    throw new AppError("PRECONDITION_FAILED", "this pull request was merged outside svc: revert its commits with git");
  const merged = { ...pr, mergeSha: pr.mergeSha, mergeStrategy: pr.mergeStrategy! };
  const gitDir = repo.gitDir;
  const onto = (await branchTips(gitDir, [pr.targetBranch])).get(pr.targetBranch);
  if (!onto) throw new AppError("PRECONDITION_FAILED", `the target branch "${pr.targetBranch}" no longer exists`);
  const before = await beforeMerge(db, gitDir, merged);
  if (!before) throw new AppError("PRECONDITION_FAILED", "the commit before the merge is no longer in the repository");
  const committer = identityOf(actor.user);
  const input = { onto, reverted: merged.mergeSha, before, committer };

  let tree: string;
  try {
    // first in a quarantine: a conflicted revert leaves nothing behind
    const check = await withObjectQuarantine(gitDir, (env) => revertTree(gitDir, input, env));
    if (check.conflicts.length) {
      const n = check.conflicts.length;
      const listed = check.conflicts.slice(0, 10).join(", ") + (n > 10 ? ` and ${n - 10} more` : "");
      throw new AppError(
        "CONFLICT",
        `this pull request cannot be reverted automatically: undoing it conflicts with later changes of ${pr.targetBranch} in ${n} file${n === 1 ? "" : "s"} (${listed}); revert it locally with git revert`,
      );
    }
    tree = (await revertTree(gitDir, input)).tree;
  } catch (e) {
    if (e instanceof MergeError) throw new AppError("PRECONDITION_FAILED", `cannot revert: ${e.message}`);
    throw e;
  }
  if (tree === (await treeOf(gitDir, onto)))
    throw new AppError("PRECONDITION_FAILED", `nothing to revert: ${pr.targetBranch} no longer has these changes`);

  const range = merged.mergeStrategy === "rebase" ? `commits ${before}..${merged.mergeSha}` : `commit ${merged.mergeSha}`;
  const title = `Revert "${pr.title}"`.slice(0, 256);
  const sha = await commitTree(gitDir, {
    tree,
    parents: [onto],
    author: committer,
    committer,
    message: `${title}\n\nThis reverts ${range}${merged.mergeStrategy === "merge" ? `, reversing\nchanges made to ${before}` : ""}.\n`,
  });

  const branch = await freeBranchName(gitDir, `revert-${pr.number}-${pr.sourceBranch}`);
  const ref = `refs/heads/${branch}`;
  await updateBranch(
    db,
    actor,
    repo,
    { ref, oldSha: ZERO_SHA, newSha: sha, reason: `revert pull request #${pr.number}` },
    { conflictMessage: `a branch named "${branch}" was created meanwhile; try again` },
  );
  try {
    return await createPullRequest(db, actor, repo, {
      title,
      body: `Reverts #${pr.number}`,
      sourceBranch: branch,
      targetBranch: pr.targetBranch,
      headSha: sha,
      baseSha: onto,
    });
  } catch (e) {
    await updateBranch(db, actor, repo, { ref, oldSha: sha, newSha: ZERO_SHA, reason: "undo: revert pull request failed" }).catch(() => {});
    throw e;
  }
}

/** `name`, or `name-2` … `name-9`, whichever branch does not exist. Errors: CONFLICT when all do. */
async function freeBranchName(gitDir: string, name: string): Promise<string> {
  const names = [name, ...Array.from({ length: MAX_NAME_TRIES - 1 }, (_, i) => `${name}-${i + 2}`)];
  const taken = await branchTips(gitDir, names);
  const free = names.find((n) => !taken.has(n));
  if (!free) throw new AppError("CONFLICT", `the branches ${name} … ${names.at(-1)} exist already: delete old revert branches first`);
  return free;
}
