/**
 * Projects (spec: "not shown"; kept minimal, so issue filters are real): {id, repoId, name,
 * createdAt}, names unique per repository case-insensitively (CONFLICT). The list and the project
 * page add exact issue counts from one SQL query (./progress.ts).
 */
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { conflictOnDuplicate } from "@/server/db/prisma-errors";
import { countsOf, type IssueCounts } from "./progress";

export interface ProjectView {
  id: string;
  repoId: string;
  name: string;
  createdAt: string;
}

/** A project with its issues counted: {…project, issues: {total, open, done, canceled}}. */
export interface ProjectWithProgress extends ProjectView {
  issues: IssueCounts;
}

const view = (p: { id: string; repoId: string; name: string; createdAt: Date }): ProjectView => ({
  id: p.id,
  repoId: p.repoId,
  name: p.name,
  createdAt: p.createdAt.toISOString(),
});

/** projects.create {name} → the project. CONFLICT for a taken name. */
export async function createProject(db: Db, repo: Pick<AuthorizedRepo, "id">, name: string): Promise<ProjectView> {
  return view(
    await inTransaction(db, (tx) =>
      conflictOnDuplicate(
        tx.project.create({ data: { repoId: repo.id, name, nameLower: name.toLowerCase() } }),
        `a project named "${name}" exists`,
      ),
    ),
  );
}

/**
 * projects.list → projects by name (case-insensitively), each with `issues` counted
 * (extension). Two queries whatever the number of projects: the projects, and one GROUP BY over
 * their issues.
 */
export async function listProjects(db: Db, repo: Pick<AuthorizedRepo, "id">): Promise<ProjectWithProgress[]> {
  const [rows, counts] = await Promise.all([
    db.project.findMany({ where: { repoId: repo.id }, orderBy: { nameLower: "asc" } }),
    countsOf(db, repo.id, "projectId"),
  ]);
  return rows.map((p) => ({ ...view(p), issues: counts.get(p.id) ?? countsOf.empty() }));
}

/** projects.get {projectId} → the project with its issue counts. NOT_FOUND "project not found" (also for another repository's project). */
export async function getProject(db: Db, repo: Pick<AuthorizedRepo, "id">, projectId: string): Promise<ProjectWithProgress> {
  const [row, counts] = await Promise.all([
    db.project.findFirst({ where: { id: projectId, repoId: repo.id } }),
    countsOf(db, repo.id, "projectId", projectId),
  ]);
  if (!row) throw new AppError("NOT_FOUND", "project not found");
  return { ...view(row), issues: counts.get(row.id) ?? countsOf.empty() };
}
