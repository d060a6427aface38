/**
 * The kanban board's catalogue and whole-board read: the statuses (columns) and priorities, and
 * listGroupedByStatus (every status key, issues by persisted board position). The paged board is
 * ./board-page.ts, drag and drop ./move-issue.ts.
 */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { DEFAULT_STATUSES, PRIORITIES, type PriorityKey, type StatusDef } from "@/lib/issues/model";
import type { IssueView } from "./shapes";
import { queryIssues } from "./query";
import { assertProjectCycle } from "./references";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

/** issues.statuses → [{key, label, category, order, color}] in board order. */
export function listStatuses(): StatusDef[] {
  return DEFAULT_STATUSES.map((s) => ({ ...s }));
}

/** issues.priorities → [{key, label, order}] most urgent first ("none" last). */
export function listPriorities(): { key: PriorityKey; label: string; order: number }[] {
  return PRIORITIES.map((p, order) => ({ key: p.key, label: p.label, order }));
}

/**
 * issues.listGroupedByStatus {projectId?, cycleId?} → {[status]: issues} with every status key
 * (empty lists too), each list ordered by board position (then number). All states are included
 * (done/canceled columns hold closed issues). NOT_FOUND for unknown project/cycle ids. A constant
 * number of queries.
 */
export async function listGroupedByStatus(
  db: Db,
  repo: Repo,
  filter: { projectId?: string; cycleId?: string },
): Promise<Record<string, IssueView[]>> {
  await assertProjectCycle(db, repo.id, filter.projectId, filter.cycleId);
  const issues = await queryIssues(db, { repoId: repo.id, projectId: filter.projectId, cycleId: filter.cycleId }, [
    { field: "status", direction: "asc" },
    { field: "boardPosition", direction: "asc" },
    { field: "number", direction: "asc" },
  ]);
  const out: Record<string, IssueView[]> = {};
  for (const s of DEFAULT_STATUSES) out[s.key] = [];
  for (const issue of issues) (out[issue.status] ??= []).push(issue);
  return out;
}
