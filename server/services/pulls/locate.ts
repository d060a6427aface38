/**
 * Finding pull requests: the repository of a pull request id, for the repo tier's
 * locator (server/api/trpc.ts `repoProcedureBy`), and loading one inside an authorized repository.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AuthorizedRepo } from "@/server/services/repos/access";

/** The target repository id of pull request `id`, or null when there is none. One query. */
export async function pullRepoId(db: Db, id: string): Promise<string | null> {
  return (await db.pullRequest.findUnique({ where: { id }, select: { repoId: true } }))?.repoId ?? null;
}

/** The pull request row `id` of `repo`. Errors: NOT_FOUND "pull request not found". */
export async function loadPull(db: Db, repo: Pick<AuthorizedRepo, "id">, id: string) {
  const pr = await db.pullRequest.findFirst({ where: { id, repoId: repo.id } });
  if (!pr) throw new AppError("NOT_FOUND", "pull request not found");
  return pr;
}

/** The pull request `number` of `repo`. Errors: NOT_FOUND "pull request #N not found". */
export async function loadPullByNumber(db: Db, repo: Pick<AuthorizedRepo, "id">, number: number) {
  const pr = await db.pullRequest.findUnique({ where: { repoId_number: { repoId: repo.id, number } } });
  if (!pr) throw new AppError("NOT_FOUND", `pull request #${number} not found`);
  return pr;
}
