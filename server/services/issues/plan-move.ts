/**
 * Moving issues into, between and out of projects and cycles, with their activity: the one writer
 * of Issue.projectId / Issue.cycleId after creation (issues.bulkUpdate, which the board's drops and
 * the issue list's bulk bar send, and projects/cycles.addIssue / removeIssue, which the issue
 * sidebar and the project and cycle pages send). Each issue whose project or cycle changes gets one
 * `project_set` / `cycle_set` entry {field, oldValue: old name, newValue: new name}, null for none
 * (docs/issues.md "Activity log"); an issue already there gets none. GitHub's `issues` webhook has
 * no action for these moves (services/webhooks/issue-events.ts), so no event is emitted.
 */
import type { Tx } from "@/server/db/transaction";
import type { Actor } from "@/server/auth/actor";
import { cycleActivityName } from "@/lib/issues/model";

export type PlanKind = "project" | "cycle";

/** An issue with its current project and cycle ids. */
export interface PlanIssue {
  id: string;
  projectId: string | null;
  cycleId: string | null;
}

/** Display names of projects or cycles `ids` of repository `repoId`: one query. */
async function namesOf(tx: Tx, repoId: string, kind: PlanKind, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  if (kind === "project") {
    const rows = await tx.project.findMany({ where: { repoId, id: { in: ids } }, select: { id: true, name: true } });
    return new Map(rows.map((r) => [r.id, r.name]));
  }
  const rows = await tx.cycle.findMany({ where: { repoId, id: { in: ids } }, select: { id: true, number: true, name: true } });
  return new Map(rows.map((r) => [r.id, cycleActivityName(r)]));
}

/**
 * Puts `issues` (of repository `repoId`) into project / cycle `to` (null: out of their current
 * one), inside the caller's transaction, and records one activity entry per issue that moved.
 * `to` must already be checked to belong to the repository. Three statements whatever the number
 * of issues (names, the update, the entries). Returns how many issues moved.
 */
export async function moveIssuesToPlan(
  tx: Tx,
  actor: Actor,
  repoId: string,
  kind: PlanKind,
  issues: PlanIssue[],
  to: string | null,
): Promise<number> {
  const column = kind === "project" ? "projectId" : "cycleId";
  const moved = issues.filter((i) => i[column] !== to);
  if (!moved.length) return 0;
  const names = await namesOf(tx, repoId, kind, [...new Set([...moved.map((i) => i[column]), to].filter((id): id is string => !!id))]);
  const name = (id: string | null) => (id ? (names.get(id) ?? null) : null);
  await tx.issue.updateMany({ where: { id: { in: moved.map((i) => i.id) } }, data: { [column]: to } });
  await tx.issueActivity.createMany({
    data: moved.map((i) => ({
      repoId,
      issueId: i.id,
      action: `${kind}_set`,
      field: kind,
      oldValue: name(i[column]),
      newValue: name(to),
      actorId: actor.user.id,
    })),
  });
  return moved.length;
}
