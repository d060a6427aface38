/**
 * The inbox's "Ready to merge" (inbox.ts, list readyToMerge) as the merge box decides it: of the
 * SQL list's candidates (the caller's open, non-draft pull requests with an approval that counts
 * and no pending review request), those with no conflicts known and every branch protection
 * requirement of their target branch satisfied (branch-protection/pull-requirements.ts
 * `pullsRequirements`, the function pulls.checkMergeability uses). Conflicts and "behind by" come
 * from the mergeability cache (PullRequestMergeability) when it was computed for the current
 * head; with no such row nothing is known, so neither blocks (the merge box checks again). Only
 * the newest READY_CANDIDATES_MAX candidates are evaluated (docs/pulls.md "Inbox").
 */
import type { Db } from "@/server/db";
import { branchTips } from "@/server/git/ref-files";
import { repoGitDir } from "@/server/git/paths";
import { pullsRequirements } from "@/server/services/branch-protection/pull-requirements";

/** How many candidates (newest activity first) are evaluated for the list and its count. */
export const READY_CANDIDATES_MAX = 500;

/** The fields of a candidate row the evaluation reads. */
export interface ReadyCandidate {
  id: string;
  repoId: string;
  repoOwner: string;
  repoName: string;
  authorId: string | null;
  targetBranch: string;
  headSha: string;
}

/**
 * The candidates of `rows` that are ready to merge, in their order. Queries: the cache rows (one),
 * then `pullsRequirements`' (rules, reviews, collaborators, statuses per repository requiring
 * checks); git only for targets whose rule requires code owner review.
 */
export async function readyOnly<R extends ReadyCandidate>(db: Db, rows: R[]): Promise<R[]> {
  if (rows.length === 0) return rows;
  const cache = await db.pullRequestMergeability.findMany({
    where: { pullRequestId: { in: rows.map((r) => r.id) } },
    select: { pullRequestId: true, headSha: true, conflicts: true, behindBy: true },
  });
  const known = new Map(cache.map((c) => [c.pullRequestId, c]));
  const current = (r: R) => {
    const c = known.get(r.id);
    return c && c.headSha === r.headSha ? c : null;
  };
  const open = rows.filter((r) => (current(r)?.conflicts ?? "[]") === "[]");
  const byId = new Map(open.map((r) => [r.id, r]));
  const requirements = await pullsRequirements(
    db,
    open.map((r) => ({
      id: r.id,
      repoId: r.repoId,
      authorId: r.authorId,
      targetBranch: r.targetBranch,
      headSha: r.headSha,
      behindBy: current(r)?.behindBy ?? 0,
    })),
    async (pr) => {
      const row = byId.get(pr.id)!;
      const gitDir = repoGitDir(row.repoOwner, row.repoName);
      const tips = await branchTips(gitDir, [pr.targetBranch]).catch(() => null);
      return { gitDir, targetTip: tips?.get(pr.targetBranch) ?? null };
    },
  );
  return open.filter((r) => requirements.get(r.id)!.requirements.every((q) => q.satisfied));
}
