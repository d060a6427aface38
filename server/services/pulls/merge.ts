/**
 * pulls.merge and pulls.getConflicts (docs/pulls.md "Merge strategies", "After a
 * merge", "Conflicts").
 *
 * Ordering, so that the database and the refs always agree:
 *   1. mergeability (cached per target tip + head): PRECONDITION_FAILED with its reason;
 *   2. the merge is computed again, for real (the check's merge-tree ran in an object quarantine:
 *      server/git/quarantine.ts), and the new commit is written (unreferenced objects; harmless
 *      if we stop here);
 *   3. services/repos/update-branch.ts `updateBranch` moves the target branch from the tip
 *      checked in 1, in one transaction with the merge's writes: claim the row with a
 *      conditional update (still open, not a draft, same head and target as checked) to merged,
 *      write the "merged" event, restack, close the referenced issues; then, last, the
 *      compare-and-swap. A lost claim (a concurrent merge, close or push to the source) is
 *      PRECONDITION_FAILED; a lost CAS (a push to the target) is CONFLICT "the target branch
 *      moved"; either rolls the transaction back and no ref changed. If the commit of the
 *      transaction fails after the ref moved, updateBranch moves it back (CAS). A pull request from
 *      another repository (a fork) also links, in that transaction, the Git LFS objects its
 *      merged commits point at and the source has (services/lfs/link-merged-objects.ts), so the
 *      base serves them as soon as its branch holds their pointers (auto-merge runs this too).
 *   4. after the commit, updateBranch records the target's move as every branch move is recorded
 *      (`recordBranchUpdates`): the webhooks' `push`, the search index, and — what makes a merge
 *      reach the other pull requests — the `pulls.refreshAfterPush` job of the target branch, so
 *      the open pull requests into it get their mergeability recomputed and, with auto-merge,
 *      their `pulls.autoMerge` job re-queued (a merge may resolve their conflicts or meet their
 *      last requirement). With `deleteBranch`, the source branch is deleted by CAS from the
 *      merged head, with its pull requests marked sourceDeleted in that transaction, which is
 *      that move's whole bookkeeping (`record: false`; its webhooks are queued here).
 * Of N concurrent merges of one pull request exactly one claims the row (row lock on
 * PostgreSQL, the transaction mutex on SQLite) and moves the ref.
 */
import { notifyPull, recordPullEvent } from "./events";
import { emitPullRequestEvent } from "@/server/services/webhooks/domain-events";
import { queuePushEvents } from "@/server/services/webhooks/push-events";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { mergeTree, MergeError } from "@/server/git/merge";
import { commitTree, listRangeCommits, MAX_RANGE_COMMITS, type Identity, type RangeCommit } from "@/server/git/commits";
import { rebaseOnto } from "@/server/git/merge-rebase";
import { getConflictDetails, type ConflictFile, type ConflictKind, type ConflictSide } from "@/server/git/merge-conflicts";
import { mergeTexts } from "@/server/git/text-merge";
import { getConfig } from "@/server/config";
import { atLeast, type AuthorizedRepo } from "@/server/services/repos/access";
import type { Tx } from "@/server/db/transaction";
import { updateBranch } from "@/server/services/repos/update-branch";
import { ZERO_SHA } from "@/lib/sha";
import { loadPull } from "./locate";
import { mergeabilityState, withRequirements } from "./mergeability";
import { branchTips } from "@/server/git/ref-files";
import { closeReferencedIssues, parseClosingRefs, resolveClosingRefs, restackChildren } from "./after-merge";
import { pullViewInclude, toPullView, type PullView } from "./view";
import path from "node:path";
import { enqueuePullNotification } from "@/server/services/notifications/enqueue";
import { linkMergedLfsObjects, mergedLfsOids } from "@/server/services/lfs/link-merged-objects";

export const MERGE_STRATEGIES = ["merge", "squash", "rebase"] as const;
export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

export interface MergeOptions {
  /** Default "merge". */
  strategy?: MergeStrategy;
  /** The merge or squash commit's message (ignored by rebase, whose commits keep theirs). */
  message?: string;
  /** Delete the source branch after the merge (same repository only; default false). */
  deleteBranch?: boolean;
  /**
   * Merge although the target branch's merge requirements are unmet (a repository admin, the
   * rule's enforceAdmins off; default false): recorded as a `protection_bypassed` event and a
   * BranchProtectionBypass row.
   */
  bypassRequirements?: boolean;
}

export type MergedPull = PullView & { mergeSha: string; mergeStrategy: MergeStrategy; branchDeleted: boolean };

/** A user as a git identity: display name (or username) and email (or a no-reply address). */
export function identityOf(user: { username: string; name: string | null; email: string | null }): Identity {
  return { name: user.name?.trim() || user.username, email: user.email ?? `${user.username}@users.noreply.svc` };
}

/** GitHub's default squash message: "<title> (#N)", a blank line, "* <subject>" per commit, then Co-authored-by trailers. */
export function squashMessage(title: string, number: number, commits: RangeCommit[], author: Identity, custom?: string): string {
  const coAuthors = new Map<string, string>();
  for (const c of commits) {
    const email = c.authorEmail.toLowerCase();
    if (email !== author.email.toLowerCase() && !coAuthors.has(email))
      coAuthors.set(email, `Co-authored-by: ${c.author} <${c.authorEmail}>`);
  }
  let message = custom ?? `${title} (#${number})\n\n${commits.map((c) => `* ${c.message.split("\n")[0]}`).join("\n")}`;
  const trailers = [...coAuthors.values()].filter((t) => !message.includes(t));
  if (trailers.length) message = `${message.replace(/\s+$/, "")}\n\n${trailers.join("\n")}`;
  return message;
}

/**
 * Merges pull request `prId` of `repo` with `opts.strategy`. `actor` needs write permission
 * (the access table's level; checked again here). Returns the merged pull request, mergeSha
 * (the target branch's new tip), the strategy and whether the source branch was deleted.
 * Errors: NOT_FOUND (no such pull request), FORBIDDEN (also: the target branch's protection,
 * e.g. its push allowlist), PRECONDITION_FAILED (cannot merge: the checkMergeability error, e.g.
 * "merge requirements are not met: 1 approving review required"; or it changed meanwhile), CONFLICT (the target branch moved, or a
 * rebase stopped at a commit: named with its files).
 */
export async function mergePullRequest(
  db: Db,
  actor: Actor,
  repo: AuthorizedRepo,
  prId: string,
  opts: MergeOptions = {},
): Promise<MergedPull> {
  if (!atLeast(repo.permission, "write")) throw new AppError("FORBIDDEN", "merging needs write permission on the repository");
  const strategy = opts.strategy ?? "merge";
  // one query: the row, what the response shows (author, labels) and what the message needs
  const pr = await db.pullRequest.findFirst({
    where: { id: prId, repoId: repo.id },
    include: {
      ...pullViewInclude,
      author: { select: { id: true, username: true, name: true, email: true } },
      sourceRepo: { select: { owner: { select: { username: true } } } },
    },
  });
  if (!pr) throw new AppError("NOT_FOUND", "pull request not found");
  const state = await withRequirements(db, repo, pr, await mergeabilityState(db, repo, pr), repo.permission);
  const bypassed = state.canBypassRequirements && opts.bypassRequirements === true ? state.requirements.filter((r) => !r.satisfied) : [];
  if ((!state.canMerge && bypassed.length === 0) || !state.targetTip)
    throw new AppError("PRECONDITION_FAILED", `cannot merge: ${state.error ?? "not mergeable"}`);
  const tip = state.targetTip;
  // the commit list (squash message, closing keywords) is read while the merge is computed
  const commitsP = listRangeCommits(repo.gitDir, tip, pr.headSha, MAX_RANGE_COMMITS, { topoOrder: true, maxMessageChars: 65536 }).then(
    (r) => r.commits,
  );
  commitsP.catch(() => {});
  const merger = identityOf(actor.user);
  const author = pr.author ? identityOf(pr.author) : merger;

  let newSha: string;
  try {
    if (strategy === "rebase") {
      const r = await rebaseOnto(repo.gitDir, {
        targetTip: tip,
        head: pr.headSha,
        committer: merger,
        workRoot: path.join(getConfig().dataDir, "tmp", "merge"),
      });
      if ("conflict" in r)
        throw new AppError(
          "CONFLICT",
          `cannot rebase: commit ${r.conflict.commit.slice(0, 12)} does not apply on ${pr.targetBranch} (conflicts in ${r.conflict.paths.join(", ") || "the tree"}); use merge or squash, or rebase the branch yourself`,
        );
      if (r.sha === tip)
        throw new AppError(
          "PRECONDITION_FAILED",
          `cannot merge: nothing to rebase: every commit of the head is already on ${pr.targetBranch}`,
        );
      newSha = r.sha;
    } else {
      // merge-tree again, for real: the mergeability check's merge was quarantined and is gone
      const [merged, commits] = await Promise.all([mergeTree(repo.gitDir, tip, pr.headSha), commitsP]);
      if (merged.conflicts.length)
        throw new AppError(
          "PRECONDITION_FAILED",
          `cannot merge: the merge has conflicts in ${merged.conflicts.length} file${merged.conflicts.length === 1 ? "" : "s"}`,
        );
      newSha =
        strategy === "squash"
          ? await commitTree(repo.gitDir, {
              tree: merged.tree,
              parents: [tip],
              author,
              committer: merger,
              message: squashMessage(pr.title, pr.number, commits, author, opts.message),
            })
          : await commitTree(repo.gitDir, {
              tree: merged.tree,
              parents: [tip, pr.headSha],
              author: merger,
              committer: merger,
              message:
                opts.message ?? `Merge pull request #${pr.number} from ${pr.sourceRepo.owner.username}/${pr.sourceBranch}\n\n${pr.title}`,
            });
    }
  } catch (e) {
    if (e instanceof MergeError) throw new AppError("PRECONDITION_FAILED", `cannot merge: ${e.message}`);
    throw e;
  }

  const commits = await commitsP;
  // Git LFS: the objects a fork's pull request brings, linked to the base in the merge's transaction (docs/lfs.md "Forks")
  // (the git walk only when the source has any LFS object: one indexed lookup spares it for the rest)
  const sourceHasLfs =
    pr.sourceRepoId !== repo.id &&
    (await db.lfsRepoObject.findFirst({ where: { repoId: pr.sourceRepoId }, select: { oid: true } })) !== null;
  const lfsOids = sourceHasLfs ? await mergedLfsOids(repo.gitDir, newSha, tip) : [];
  const refs = parseClosingRefs([pr.title, pr.body ?? "", ...commits.map((c) => c.message)]);
  const targets = await resolveClosingRefs(db, actor, repo, refs);
  const now = new Date();
  await updateBranch(
    db,
    actor,
    repo,
    {
      ref: `refs/heads/${pr.targetBranch}`,
      oldSha: tip,
      newSha,
      reason: `merge pull request #${pr.number} (${strategy})`,
      pullMerge: { number: pr.number },
    },
    {
      conflictMessage: `the target branch "${pr.targetBranch}" moved while merging; check mergeability again and retry`,
      writes: async (tx) => {
        const claimed = await tx.pullRequest.updateMany({
          where: { id: pr.id, state: "open", isDraft: false, headSha: pr.headSha, targetBranch: pr.targetBranch, sourceDeleted: false },
          data: { state: "merged", mergedAt: now, updatedAt: now, mergedById: actor.user.id, mergeSha: newSha, mergeStrategy: strategy },
        });
        if (claimed.count !== 1)
          throw new AppError(
            "PRECONDITION_FAILED",
            "cannot merge: the pull request changed meanwhile (merged, closed or pushed to); check mergeability again",
          );
        await recordPullEvent(
          tx,
          pr.id,
          "merged",
          { strategy, mergeSha: newSha, targetBranch: pr.targetBranch, headSha: pr.headSha, baseTip: tip },
          actor.user.id,
        );
        if (bypassed.length) {
          const requirements = bypassed.map((r) => r.message);
          const kinds = [...new Set(bypassed.map((r) => r.kind))];
          const pattern = state.rule?.pattern ?? pr.targetBranch;
          await recordPullEvent(tx, pr.id, "protection_bypassed", { requirements, kinds, pattern }, actor.user.id);
          await tx.branchProtectionBypass.create({
            data: {
              repoId: repo.id,
              pattern,
              userId: actor.user.id,
              ref: `refs/heads/${pr.targetBranch}`,
              oldSha: tip,
              newSha,
              rules: JSON.stringify(bypassed.map((r) => r.kind)),
            },
          });
        }
        await linkMergedLfsObjects(tx, repo.id, pr.sourceRepoId, lfsOids);
        await restackChildren(tx, actor, pr, newSha);
        await closeReferencedIssues(tx, actor, `${repo.owner}/${repo.name}#${pr.number}`, targets);
        await emitPullRequestEvent(tx, repo.id, "closed", actor.user, pr.id);
        await enqueuePullNotification(tx, repo.id, pr.id, actor.user.id, "state_change");
      },
    },
  );
  const branchDeleted = opts.deleteBranch === true ? await deleteSourceBranch(db, actor, repo, pr) : false;
  if (branchDeleted)
    await queuePushEvents(db, actor.user, repo, [{ ref: `refs/heads/${pr.sourceBranch}`, oldSha: pr.headSha, newSha: ZERO_SHA }]).catch(
      (e) => console.error("merge: webhook delete events failed", e),
    );
  const view = toPullView({ ...pr, state: "merged", mergedAt: now, updatedAt: now });
  return { ...view, mergeSha: newSha, mergeStrategy: strategy, branchDeleted };
}

/**
 * Deletes the merged pull request's source branch when it is in the same repository, is not the
 * default branch, and still points at the merged head (CAS delete through `updateBranch`, not
 * recorded as a push). In the same transaction, the pull request and the open ones from that
 * branch are marked sourceDeleted with a `source_deleted` event (live notices after the commit).
 * Returns whether it was deleted; a branch that moved or is gone is left alone (false).
 */
async function deleteSourceBranch(
  db: Db,
  actor: Actor,
  repo: AuthorizedRepo,
  pr: { id: string; number: number; repoId: string; sourceRepoId: string; sourceBranch: string; headSha: string },
): Promise<boolean> {
  if (pr.sourceRepoId !== repo.id || pr.sourceBranch === repo.defaultBranch) return false;
  try {
    await updateBranch(
      db,
      actor,
      repo,
      { ref: `refs/heads/${pr.sourceBranch}`, oldSha: pr.headSha, newSha: ZERO_SHA, reason: `delete the merged source of #${pr.number}` },
      { record: false, writes: (tx) => markSourceDeleted(tx, actor, repo.id, pr) },
    );
  } catch (e) {
    // moved meanwhile, or protected (allowDeletion off): the branch stays
    if (e instanceof AppError && (e.code === "CONFLICT" || e.code === "FORBIDDEN")) return false;
    throw e;
  }
  return true;
}

/** Marks pull request `pr` and the open ones from its source branch sourceDeleted, with a `source_deleted` event each. */
async function markSourceDeleted(
  tx: Tx,
  actor: Actor,
  repoId: string,
  pr: { id: string; sourceBranch: string; headSha: string },
): Promise<void> {
  const rows = await tx.pullRequest.findMany({
    where: { sourceRepoId: repoId, sourceBranch: pr.sourceBranch, OR: [{ id: pr.id }, { state: "open" }] },
    select: { id: true },
  });
  await tx.pullRequest.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data: { sourceDeleted: true } });
  await tx.pullRequestEvent.createMany({
    data: rows.map((r) => ({
      pullRequestId: r.id,
      type: "source_deleted",
      actorId: actor.user.id,
      data: JSON.stringify({ branch: pr.sourceBranch, headSha: pr.headSha }),
    })),
  });
  for (const r of rows) notifyPull(tx, r.id, "source_deleted", actor.user.id);
}

/** One conflicting file as pulls.getConflicts returns it. */
export interface ConflictFileView {
  path: string;
  /** The target side's text; null when the target lacks the file, it is binary, or over the size budget. */
  ours: string | null;
  /** The source side's text (same nulls). */
  theirs: string | null;
  /** The merge base's text (same nulls). */
  base: string | null;
  isBinary: boolean;
  kind: ConflictKind;
  /** Blob, mode, size and whether the text was cut, per side (null where the side lacks the file). */
  sides: Record<"ours" | "theirs" | "base", Omit<ConflictSide, "content"> | null>;
  /**
   * The three-way merge of the sides with diff3 conflict blocks (`git merge-file -p --diff3`,
   * markers MERGE_MARKER_SIZE long: lib/conflict-regions.ts parses it) — extension, the conflicts
   * view's regions. null unless the file is a text conflict (content or add/add) with every side whole.
   */
  merged: string | null;
}

/** `ConflictFileView.merged` of `f`: null for binary, one-sided, cut or unreadable sides. */
async function mergedText(f: ConflictFile): Promise<string | null> {
  if (f.isBinary || (f.kind !== "content" && f.kind !== "add/add")) return null;
  const sides = [f.ours, f.base, f.theirs];
  if (!f.ours || !f.theirs || sides.some((s) => s && (s.content === null || s.truncated))) return null;
  return (await mergeTexts(f.ours.content!, f.base?.content ?? "", f.theirs.content!)).text;
}

const sideMeta = (s: ConflictSide | null) => (s ? { sha: s.sha, mode: s.mode, size: s.size, truncated: s.truncated } : null);

/**
 * pulls.getConflicts: the files merging the head into the target branch's current tip would
 * conflict on, with the three sides (server/git/merge-conflicts.ts bounds). Errors:
 * PRECONDITION_FAILED when the target branch is gone or the histories are unrelated.
 */
export async function getConflicts(
  db: Db,
  repo: AuthorizedRepo,
  prId: string,
): Promise<{ hasConflicts: boolean; files: ConflictFileView[]; truncated: boolean }> {
  const pr = await loadPull(db, repo, prId);
  const tip = (await branchTips(repo.gitDir, [pr.targetBranch])).get(pr.targetBranch);
  if (!tip) throw new AppError("PRECONDITION_FAILED", `the target branch "${pr.targetBranch}" no longer exists`);
  try {
    const d = await getConflictDetails(repo.gitDir, tip, pr.headSha);
    const files: ConflictFileView[] = [];
    // one git merge-file per text conflict, in turn (at most MAX_CONFLICT_FILES, the sides bounded by MAX_TOTAL_BYTES)
    for (const f of d.files)
      files.push({
        path: f.path,
        ours: f.ours?.content ?? null,
        theirs: f.theirs?.content ?? null,
        base: f.base?.content ?? null,
        isBinary: f.isBinary,
        kind: f.kind,
        sides: { ours: sideMeta(f.ours), theirs: sideMeta(f.theirs), base: sideMeta(f.base) },
        merged: await mergedText(f),
      });
    return { hasConflicts: files.length > 0, files, truncated: d.filesTruncated };
  } catch (e) {
    if (e instanceof MergeError) throw new AppError("PRECONDITION_FAILED", e.message);
    throw e;
  }
}
