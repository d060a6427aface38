/**
 * Projects (spec: "not shown"; minimal per issue #3 so issue filters are real): {id, repoId, name,
 * createdAt}, names unique per repository case-insensitively (CONFLICT).
 */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { conflictOnDuplicate, inTransaction } from "@/server/services/issues/core";

export interface ProjectView {
  id: string;
  repoId: string;
  name: string;
  createdAt: string;
}

const view = (p: { id: string; repoId: string; name: string; createdAt: Date }): ProjectView => ({ id: p.id, repoId: p.repoId, name: p.name, createdAt: p.createdAt.toISOString() });

/** projects.create {name} → the project. CONFLICT for a taken name. */
export async function createProject(db: Db, repo: Pick<AuthorizedRepo, "id">, name: string): Promise<ProjectView> {
  return view(await inTransaction(db, (tx) => conflictOnDuplicate(tx.project.create({ data: { repoId: repo.id, name, nameLower: name.toLowerCase() } }), `a project named "${name}" exists`)));
}

/** projects.list → projects by name. */
export async function listProjects(db: Db, repo: Pick<AuthorizedRepo, "id">): Promise<ProjectView[]> {
  return (await db.project.findMany({ where: { repoId: repo.id }, orderBy: { nameLower: "asc" } })).map(view);
}
