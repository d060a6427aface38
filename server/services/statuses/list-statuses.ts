/**
 * A commit's statuses, newest first (issue #23; GitHub's GET …/commits/{ref}/statuses).
 */
import type { Db } from "@/server/db";
import { statusSelect, type CommitStatusRow } from "./create-status";

/**
 * Page `page` (1-based) of `perPage` (1–100) statuses of commit `sha` (a full id) in `repoId`,
 * newest first (highest id first), every context. The caller has authorized the repository.
 */
export async function listCommitStatuses(db: Db, repoId: string, sha: string, page: number, perPage: number): Promise<CommitStatusRow[]> {
  return db.commitStatus.findMany({
    where: { repoId, sha },
    orderBy: { id: "desc" },
    skip: (page - 1) * perPage,
    take: perPage,
    select: statusSelect,
  });
}
