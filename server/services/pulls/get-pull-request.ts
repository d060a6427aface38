/**
 * pulls.get {repoId, number} (spec "Pull request router"): the pull request with author and
 * labels, plus (extensions) requestedReviewers (a count), sourceRepo {owner, name} when the
 * source is another repository (a fork), mergedBy, mergeSha, mergeStrategy, sourceDeleted, and
 * the spec's `stack` when the source branch belongs to a stack of the target repository.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { stackOfBranch, type StackView } from "@/server/services/stacks/stacks";
import { pullUserSelect, pullViewInclude, toPullView, type PullUser, type PullView } from "./view";

export interface PullDetailView extends PullView {
  requestedReviewers: number;
  sourceRepoId: string;
  sourceRepo: { owner: string; name: string } | null;
  mergedBy: PullUser | null;
  mergeSha: string | null;
  mergeStrategy: string | null;
  sourceDeleted: boolean;
  stack?: StackView;
}

/** The pull request `number` of `repo`. NOT_FOUND "pull request #N not found". */
export async function getPullRequest(db: Db, repo: { id: string }, number: number): Promise<PullDetailView> {
  const row = await db.pullRequest.findUnique({
    where: { repoId_number: { repoId: repo.id, number } },
    include: {
      ...pullViewInclude,
      mergedBy: { select: pullUserSelect },
      sourceRepo: { select: { name: true, owner: { select: { username: true } } } },
      _count: { select: { reviewRequests: true } },
    },
  });
  if (!row) throw new AppError("NOT_FOUND", `${`pull request #${number}`} not found`);
  const stack = row.sourceRepoId === row.repoId ? await stackOfBranch(db, row.repoId, row.sourceBranch) : null;
  return {
    ...toPullView(row),
    requestedReviewers: row._count.reviewRequests,
    sourceRepoId: row.sourceRepoId,
    sourceRepo: row.sourceRepoId === row.repoId ? null : { owner: row.sourceRepo.owner.username, name: row.sourceRepo.name },
    mergedBy: row.mergedBy,
    mergeSha: row.mergeSha,
    mergeStrategy: row.mergeStrategy,
    sourceDeleted: row.sourceDeleted,
    ...(stack ? { stack } : {}),
  };
}
