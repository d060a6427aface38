/**
 * pulls.checkMergeability (spec: {canMerge, conflicts, behindBy, aheadBy, error?}, plus
 * {requirements, canBypassRequirements}; docs/pulls.md "Mergeability"). Reasons a pull request
 * cannot merge, checked in this order:
 * merged, closed, draft, target branch gone, source branch gone (sourceDeleted or the branch
 * missing from the source repository), nothing to merge (the target already contains the head),
 * unrelated histories, conflicts; then the unmet merge requirements of a protected target
 * branch (`withRequirements`; not cached: database reads only). A draft is still checked like an open pull request, so its
 * answer carries the real counts and conflicts (the merge box shows them next to "Ready for
 * review"), with canMerge false and the draft reason as `error` (issue #22 item 4). The git part (merge-tree + rev-list) is cached in
 * PullRequestMergeability per (target tip, head): polling while neither moves costs two ref
 * lookups (read from the ref files) and a lookup in this process's memory of recent answers (else
 * one indexed read). The cache row is written after the answer is returned.
 */
import { notifyPull } from "./events";
import type { Db } from "@/server/db";
import { isForeignKeyViolation, isUniqueViolation } from "@/server/db/prisma-errors";
import { getConfig } from "@/server/config";
import { readRows } from "@/server/db/read";
import { boolOf } from "@/server/db/raw";
import type { PullRequest } from "@/generated/prisma/client";
import { branchTips } from "@/server/git/ref-files";
import { checkMerge, MergeError, type MergeCheck } from "@/server/git/merge";
import { repoGitDir } from "@/server/git/paths";
import type { AuthorizedRepo, Permission } from "@/server/services/repos/access";
import { pullRequirements } from "@/server/services/branch-protection/pull-requirements";
import { describeUnmet, type Requirement } from "@/server/services/branch-protection/requirements";
import type { ProtectionRule } from "@/server/services/branch-protection/rules";
import { inTransaction } from "@/server/db/transaction";
import { autoMergeView, type AutoMergeView } from "./auto-merge";

export interface Mergeability {
  canMerge: boolean;
  /** Conflicting paths (git's order), empty unless the merge conflicts. */
  conflicts: string[];
  /** Commits on the target branch not on the head. */
  behindBy: number;
  /** Commits on the head not on the target branch. */
  aheadBy: number;
  /** Why canMerge is false (absent when it is true). */
  error?: string;
}

/** What a merge needs besides the answer: the target tip the answer was computed for. */
export interface MergeabilityState extends Mergeability {
  /** The target branch's tip (null when the branch is gone). */
  targetTip: string | null;
}

/** The bare repository of the pull request's source (the target's own when not a fork). */
async function sourceGitDir(
  db: Db,
  repo: Pick<AuthorizedRepo, "id" | "gitDir">,
  pr: Pick<PullRequest, "sourceRepoId">,
): Promise<string | null> {
  if (pr.sourceRepoId === repo.id) return repo.gitDir;
  const src = await db.repository.findUnique({
    where: { id: pr.sourceRepoId },
    select: { name: true, owner: { select: { username: true } } },
  });
  return src ? repoGitDir(src.owner.username, src.name) : null;
}

/**
 * The last answers of this process, per pull request id, keyed like the table by
 * "<target tip> <head>": an answer is a pure function of those two commits, so a remembered one
 * is never wrong, only possibly stale-keyed (then it is simply not used). Bounded (LRU).
 */
const RECENT_MAX = 5000;
const recent = new Map<string, { key: string; answer: Mergeability }>();
function remember(id: string, key: string, answer: Mergeability): void {
  recent.delete(id);
  recent.set(id, { key, answer });
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
}

/**
 * Remembers `answer` for pull request `id` at (`targetTip`, `headSha`) in this process, as a
 * check would (the after-push job, refresh-after-push.ts, computes many at once).
 */
export function rememberMergeability(id: string, targetTip: string, headSha: string, answer: Mergeability): void {
  remember(id, `${targetTip} ${headSha}`, answer);
}

/** Forgets the remembered answers (of one pull request, or all): benchmarks measuring a cache miss. */
export function forgetMergeability(pullRequestId?: string): void {
  if (pullRequestId) recent.delete(pullRequestId);
  else recent.clear();
}

type CacheRow = {
  baseTip: string;
  headSha: string;
  canMerge: unknown;
  conflicts: string;
  aheadBy: unknown;
  behindBy: unknown;
  error: string | null;
};
const CACHE_COLUMNS = `"baseTip", "headSha", "canMerge", "conflicts", "aheadBy", "behindBy", "error"`;
const CACHE_SQL = {
  sqlite: `SELECT ${CACHE_COLUMNS} FROM "PullRequestMergeability" WHERE "pullRequestId" = ?`,
  postgresql: `SELECT ${CACHE_COLUMNS} FROM "PullRequestMergeability" WHERE "pullRequestId" = $1`,
};

const closedAnswer = (error: string): MergeabilityState => ({
  canMerge: false,
  conflicts: [],
  behindBy: 0,
  aheadBy: 0,
  error,
  targetTip: null,
});

/**
 * Mergeability of pull request `pr` of `repo` (its target repository), with the target tip used.
 * Never throws for a pull request that cannot merge: the reason is `error`. Reads and refreshes
 * the PullRequestMergeability cache.
 */
export async function mergeabilityState(db: Db, repo: Pick<AuthorizedRepo, "id" | "gitDir">, pr: PullRequest): Promise<MergeabilityState> {
  if (pr.state === "merged") return closedAnswer("the pull request is already merged");
  if (pr.state !== "open") return closedAnswer("the pull request is closed");
  const answer = await openMergeability(db, repo, pr);
  return pr.isDraft ? { ...answer, canMerge: false, error: DRAFT_REASON } : answer;
}

/** Why a draft cannot merge (its counts and conflicts are still computed). */
export const DRAFT_REASON = "the pull request is a draft; mark it ready for review first";

/** mergeabilityState of an open pull request, draft or not (the draft rule is applied by the caller). */
async function openMergeability(db: Db, repo: Pick<AuthorizedRepo, "id" | "gitDir">, pr: PullRequest): Promise<MergeabilityState> {
  const sameRepo = pr.sourceRepoId === repo.id;
  const srcDir = sameRepo ? repo.gitDir : await sourceGitDir(db, repo, pr);
  const [targetTips, sourceTips] = await Promise.all([
    branchTips(repo.gitDir, sameRepo ? [pr.targetBranch, pr.sourceBranch] : [pr.targetBranch]),
    sameRepo || !srcDir ? null : branchTips(srcDir, [pr.sourceBranch]),
  ]);
  const targetTip = targetTips.get(pr.targetBranch) ?? null;
  if (!targetTip) return closedAnswer(`the target branch "${pr.targetBranch}" no longer exists`);
  const sourceExists = (sourceTips ?? targetTips).has(pr.sourceBranch);
  if (pr.sourceDeleted || !srcDir || !sourceExists)
    return { ...closedAnswer(`the source branch "${pr.sourceBranch}" was deleted`), targetTip };

  const key = `${targetTip} ${pr.headSha}`;
  const remembered = recent.get(pr.id);
  if (remembered?.key === key) return { ...remembered.answer, conflicts: [...remembered.answer.conflicts], targetTip };
  // polling's hot path after a restart or in another process: one primary-key read (read.ts)
  const [cached] = await readRows<CacheRow>(db, CACHE_SQL[getConfig().provider], [pr.id]);
  if (cached && cached.baseTip === targetTip && cached.headSha === pr.headSha) {
    const answer: MergeabilityState = {
      canMerge: boolOf(cached.canMerge),
      conflicts: JSON.parse(cached.conflicts) as string[],
      behindBy: Number(cached.behindBy),
      aheadBy: Number(cached.aheadBy),
      targetTip,
    };
    if (cached.error) answer.error = cached.error;
    const { targetTip: _t, ...plain } = answer;
    remember(pr.id, key, plain);
    return answer;
  }
  const answer = await computeMergeability(repo.gitDir, targetTip, pr.headSha);
  remember(pr.id, key, answer);
  // the cache write does not delay the answer (it is only a cache: a lost write costs one recheck)
  void saveCache(db, pr.id, targetTip, pr.headSha, answer).catch((e: unknown) => console.error("mergeability cache write failed", e));
  return { ...answer, targetTip };
}

/** The git part: merge-tree (in an object quarantine: checkMerge) and ahead/behind of head into targetTip. */
async function computeMergeability(gitDir: string, targetTip: string, head: string): Promise<Mergeability> {
  try {
    return mergeabilityOf(await checkMerge(gitDir, targetTip, head));
  } catch (e) {
    if (e instanceof MergeError) return mergeabilityOf(e);
    throw e;
  }
}

/**
 * The answer for a merge check (server/git/merge.ts `checkMerge`, or one outcome of
 * merge-batch.ts `checkMerges`): "nothing to merge" when the target contains the head, the
 * conflicts, else mergeable; a MergeError (unrelated histories, a missing
 * commit) is its message as `error`.
 */
export function mergeabilityOf(check: MergeCheck | MergeError): Mergeability {
  if (check instanceof MergeError) return { canMerge: false, conflicts: [], behindBy: 0, aheadBy: 0, error: check.message };
  const base = { conflicts: check.conflicts, behindBy: check.behindBy, aheadBy: check.aheadBy };
  if (check.aheadBy === 0)
    return { ...base, canMerge: false, error: "nothing to merge: the target branch already contains every commit of the head" };
  if (check.conflicts.length) {
    const n = check.conflicts.length;
    return {
      ...base,
      canMerge: false,
      error: `the merge has conflicts in ${n}${check.conflictsTruncated ? "+" : ""} file${n === 1 ? "" : "s"}`,
    };
  }
  return { ...base, canMerge: true };
}

/** Writes the cache row; a concurrent writer of the same row wins silently (the answer is the same). */
async function saveCache(db: Db, pullRequestId: string, baseTip: string, headSha: string, m: Mergeability): Promise<void> {
  const data = {
    baseTip,
    headSha,
    canMerge: m.canMerge,
    conflicts: JSON.stringify(m.conflicts),
    aheadBy: m.aheadBy,
    behindBy: m.behindBy,
    error: m.error ?? null,
    checkedAt: new Date(),
  };
  try {
    await inTransaction(db, (tx) =>
      tx.pullRequestMergeability.upsert({ where: { pullRequestId }, create: { pullRequestId, ...data }, update: data }),
    );
  } catch (e) {
    if (!(e instanceof Error && /conflicted|not found/.test(e.message)) && !isUniqueViolation(e) && !isForeignKeyViolation(e)) throw e;
  }
}

/** pulls.checkMergeability's answer: the spec's fields plus the merge requirements (issue #23). */
export interface MergeabilityWithRequirements extends Mergeability {
  /** The requirements of the target branch's protection rule ([] when unprotected): requirements.ts. */
  requirements: Requirement[];
  /**
   * True when only unmet requirements block and the caller may merge past them: a repository
   * admin, the rule's enforceAdmins off (pulls.merge with `bypassRequirements`).
   */
  canBypassRequirements: boolean;
}

/**
 * Adds the merge requirements to a mergeability answer: `canMerge` false while one is unmet, with
 * `error` "merge requirements are not met: …" when nothing else blocks. `permission` is the
 * caller's on the repository (admins may bypass when the rule allows).
 */
export async function withRequirements<M extends MergeabilityState>(
  db: Db,
  repo: Pick<AuthorizedRepo, "id" | "gitDir">,
  pr: PullRequest,
  answer: M,
  permission: Permission,
): Promise<M & { requirements: Requirement[]; canBypassRequirements: boolean; rule: ProtectionRule | null }> {
  if (pr.state !== "open") return { ...answer, requirements: [], canBypassRequirements: false, rule: null };
  const { rule, requirements } = await pullRequirements(db, repo.id, pr, answer.behindBy, {
    gitDir: repo.gitDir,
    targetTip: answer.targetTip,
  });
  const unmet = describeUnmet(requirements);
  if (!unmet) return { ...answer, requirements, canBypassRequirements: false, rule };
  const canBypassRequirements = answer.canMerge && permission === "admin" && rule !== null && !rule.enforceAdmins;
  return {
    ...answer,
    canMerge: false,
    error: answer.canMerge ? `merge requirements are not met: ${unmet}` : answer.error,
    requirements,
    canBypassRequirements,
    rule,
  };
}

/**
 * pulls.checkMergeability: the spec's answer for pull request `pr` of `repo`, with the merge
 * requirements for a caller with `repo.permission` and the pull request's auto-merge (null when
 * not enabled or not open; auto-merge.ts).
 */
export async function checkMergeability(
  db: Db,
  repo: Pick<AuthorizedRepo, "id" | "gitDir" | "permission">,
  pr: PullRequest,
): Promise<MergeabilityWithRequirements & { autoMerge: AutoMergeView | null }> {
  const [state, autoMerge] = await Promise.all([
    mergeabilityState(db, repo, pr).then((m) => withRequirements(db, repo, pr, m, repo.permission)),
    pr.state === "open" ? autoMergeView(db, pr) : null,
  ]);
  const { targetTip: _tip, rule: _rule, ...out } = state;
  return { ...out, autoMerge };
}

/**
 * The `pulls.refreshMergeability` job (server/jobs/handlers.ts), enqueued after pushes by earlier
 * versions of svc (now one `pulls.refreshAfterPush` job per branch, refresh-after-push.ts): checks
 * pull request `prId` again so the cache row is warm before anyone polls. Gone or no longer open
 * → nothing to do. Safe to run twice (jobs are delivered at least once).
 */
export async function refreshMergeability(db: Db, prId: string): Promise<void> {
  const pr = await db.pullRequest.findUnique({
    where: { id: prId },
    include: { repo: { select: { name: true, owner: { select: { username: true } } } } },
  });
  if (!pr || pr.state !== "open") return;
  const { repo, ...row } = pr;
  await mergeabilityState(db, { id: row.repoId, gitDir: repoGitDir(repo.owner.username, repo.name) }, row);
  // open pages re-read the merge box at once (live updates) instead of at their next poll
  notifyPull(db, prId, "mergeability", null);
}
