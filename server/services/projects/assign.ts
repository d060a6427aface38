/**
 * Putting issues into projects and cycles from their pages (beyond the spec, which sets them
 * only through issues.create; docs/issues.md "Projects and cycles (spec: not shown; minimal)").
 * An issue is in at most one project and one cycle: adding it to another moves it. No activity
 * entry is written (the spec's activity actions have none for projects or cycles).
 */
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { issueByNumber, issueViewById } from "@/server/services/issues/core";
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

/**
 * projects.addIssue {projectId, number} / cycles.addIssue {cycleId, number} → the issue, now in
 * that project or cycle (moved from another one). NOT_FOUND for an unknown issue, or a project /
 * cycle of another repository.
 */
export async function addIssueTo(db: Db, repo: Repo, kind: Kind, id: string, number: number): Promise<IssueView> {
  await assertOwned(db, repo, kind, id);
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    await tx.issue.update({ where: { id: issue.id }, data: kind === "project" ? { projectId: id } : { cycleId: id } });
    return issueViewById(tx, { id: issue.id, repoId: repo.id });
  });
}

/**
 * projects.removeIssue {projectId, number} / cycles.removeIssue {cycleId, number} → the issue,
 * out of that project or cycle. Removing an issue that is not in it changes nothing. NOT_FOUND as
 * for addIssueTo.
 */
export async function removeIssueFrom(db: Db, repo: Repo, kind: Kind, id: string, number: number): Promise<IssueView> {
  await assertOwned(db, repo, kind, id);
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    if (kind === "project") await tx.issue.updateMany({ where: { id: issue.id, projectId: id }, data: { projectId: null } });
    else await tx.issue.updateMany({ where: { id: issue.id, cycleId: id }, data: { cycleId: null } });
    return issueViewById(tx, { id: issue.id, repoId: repo.id });
  });
}
