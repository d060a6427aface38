/**
 * Repository ids of issue-tracker entities, for the repo tier's locators (server/api/trpc.ts
 * `repoProcedureBy`): each answers the entity's repository id, or null, in one query.
 */
import type { Db } from "@/server/db";
export { commentRepoId } from "./comments";
export { labelRepoId } from "./labels";
export { templateRepoId } from "./templates";
export { viewRepoId } from "./views";

export async function issueRepoId(db: Db, id: string): Promise<string | null> {
  return (await db.issue.findUnique({ where: { id }, select: { repoId: true } }))?.repoId ?? null;
}
