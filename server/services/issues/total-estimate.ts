/** issues.getTotalEstimate: the story points of a project or cycle. */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { assertProjectCycle } from "./references";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

/**
 * issues.getTotalEstimate {projectId?, cycleId?} → total story points (a number) of the
 * repository's issues in that project/cycle, over ALL states (open and closed: the scope of the
 * work, as Linear's cycle scope counts). Issues without an estimate count 0. NOT_FOUND for
 * unknown project/cycle ids.
 */
export async function getTotalEstimate(db: Db, repo: Repo, filter: { projectId?: string; cycleId?: string }): Promise<number> {
  await assertProjectCycle(db, repo.id, filter.projectId, filter.cycleId);
  const sum = await db.issue.aggregate({
    where: {
      repoId: repo.id,
      ...(filter.projectId ? { projectId: filter.projectId } : {}),
      ...(filter.cycleId ? { cycleId: filter.cycleId } : {}),
    },
    _sum: { estimate: true },
  });
  return sum._sum.estimate ?? 0;
}
