/** repos.delete: the row, its bare repository, and its forks detached first. */
import type { Db } from "@/server/db";
import * as git from "@/server/git/repository";
import type { AuthorizedRepo } from "./access";
import { detachForks } from "./fork";

/**
 * Deletes the repository row (cascading) and its bare repository on disk. Its forks are detached
 * first (they get their own copy of every object they borrow: ./fork.ts `detachForks`), so
 * they keep working; their forkedFromId becomes null.
 */
export async function deleteRepository(db: Db, repo: AuthorizedRepo): Promise<void> {
  await detachForks(db, repo.id);
  await db.repository.delete({ where: { id: repo.id } });
  await git.removeRepository(repo.gitDir);
}
