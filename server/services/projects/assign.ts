/**
 * Putting issues into projects and cycles from their pages (beyond the spec, which sets them
 * only through issues.create; docs/issues.md "Projects and cycles (spec: not shown; minimal)").
 * An issue is in at most one project and one cycle: adding it to another moves it. A move writes
 * one `project_set` / `cycle_set` activity entry (issues/plan-move.ts); a call that changes
 * nothing writes none.
 */
import { inTransaction, type Tx } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { issueByNumber, issueViewById } from "@/server/services/issues/core";
import { moveIssuesToPlan, type PlanIssue } from "@/server/services/issues/plan-move";
import type { IssueView } from "@/server/services/issues/shapes";

type Repo = Pick<AuthorizedRepo, "id">;
type Kind = "project" | "cycle";

async function assertOwned(db: Db, repo: Repo, kind: Kind, id: string): Promise<void> {
  const found =
    kind === "project"
      ? await db.project.findFirst({ where: { id, repoId: repo.id }, select: { id: true } })
      : await db.cycle.findFirst({ where: { id, repoId: repo.id }, select: { id: true } });
  if (!found) throw new AppError("NOT_FOUND", `${kind} not found`);
}

/** Issue #number with its project and cycle; NOT_FOUND as issueByNumber. */
async function planIssue(tx: Tx, repo: Repo, number: number): Promise<PlanIssue> {
  const issue = await tx.issue.findUnique({
    where: { repoId_number: { repoId: repo.id, number } },
    select: { id: true, projectId: true, cycleId: true },
  });
  if (!issue) await issueByNumber(tx, repo.id, number); // throws NOT_FOUND with the usual wording
  return issue!;
}

/**
 * projects.addIssue {projectId, number} / cycles.addIssue {cycleId, number} → the issue, now in
 * that project or cycle (moved from another one). NOT_FOUND for an unknown issue, or a project /
 * cycle of another repository.
 */
export async function addIssueTo(db: Db, actor: Actor, repo: Repo, kind: Kind, id: string, number: number): Promise<IssueView> {
  await assertOwned(db, repo, kind, id);
  return inTransaction(db, async (tx) => {
    const issue = await planIssue(tx, repo, number);
    await moveIssuesToPlan(tx, actor, repo.id, kind, [issue], id);
    return issueViewById(tx, { id: issue.id, repoId: repo.id });
  });
}

/**
 * projects.removeIssue {projectId, number} / cycles.removeIssue {cycleId, number} → the issue,
 * out of that project or cycle. Removing an issue that is not in it changes nothing. NOT_FOUND as
 * for addIssueTo.
 */
export async function removeIssueFrom(db: Db, actor: Actor, repo: Repo, kind: Kind, id: string, number: number): Promise<IssueView> {
  await assertOwned(db, repo, kind, id);
  return inTransaction(db, async (tx) => {
    const issue = await planIssue(tx, repo, number);
    if ((kind === "project" ? issue.projectId : issue.cycleId) === id) await moveIssuesToPlan(tx, actor, repo.id, kind, [issue], null);
    return issueViewById(tx, { id: issue.id, repoId: repo.id });
  });
}
