/**
 * The repository id of an issue, for the repo tier's locator (server/api/trpc.ts
 * `repoProcedureBy`). The other entities' locators sit with their use cases: commentRepoId in
 * ./comments.ts, labelRepoId in ./labels.ts, templateRepoId in ./templates.ts, viewRepoId in ./views.ts.
 */
import type { Db } from "@/server/db";

/** The repository id of issue `id` (one query), or null when there is no such issue. */
export async function issueRepoId(db: Db, id: string): Promise<string | null> {
  return (await db.issue.findUnique({ where: { id }, select: { repoId: true } }))?.repoId ?? null;
}
