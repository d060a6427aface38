/** repos.delete: the row, its bare repository, and its forks detached first. */
import type { Db } from "@/server/db";
import * as git from "@/server/git/repository";
import type { AuthorizedRepo } from "./access";
import { detachForks } from "./fork";
import { scheduleLfsGc } from "@/server/services/lfs/gc-objects";

/**
 * Deletes the repository row (cascading) and its bare repository on disk. Its forks are detached
 * first (they get their own copy of every object they borrow: ./fork.ts `detachForks`), so
 * they keep working; their forkedFromId becomes null. Notification subscriptions and unsent
 * notification emails name the repository without a foreign key (they outlive no row of it:
 * docs/notifications.md); they go in the same transaction as the row.
 * Its Git LFS references go with the row
 * (cascade); an `lfs.gc` run is then queued to delete objects no repository references any more
 * (docs/lfs.md "Garbage collection"; best effort: the daily run catches a failed enqueue).
 */
export async function deleteRepository(db: Db, repo: AuthorizedRepo): Promise<void> {
  await detachForks(db, repo.id);
  await db.$transaction([
    db.notificationSubscription.deleteMany({ where: { repoId: repo.id } }),
    db.notificationEmail.deleteMany({ where: { repoId: repo.id } }),
    db.repository.delete({ where: { id: repo.id } }),
  ]);
  await git.removeRepository(repo.gitDir);
  await scheduleLfsGc().catch((e: unknown) => console.error("queueing lfs.gc after a repository deletion failed", e));
}
