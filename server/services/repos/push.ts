/**
 * What happens after a successful `git push` (git smart HTTP receive-pack, server/http/git/smart-http.ts).
 *
 * Today: the repository row's `pushedAt`/`updatedAt` are set, and a repository whose default
 * branch does not exist after the push (typically the first push of a `master` branch into a
 * repository created with `main`) gets HEAD and `defaultBranch` moved to a branch that does.
 *
 * This is THE hook for every later "a branch moved" reaction: pull requests whose source branch
 * is among `updates` get their `headSha` updated and their cached mergeability dropped, merged
 * outside svc or deleted sources are recorded (services/pulls/after-push.ts `updatePullsAfterPush`;
 * ARCHITECTURE.md "Git"), and the semantic search index of the moved branches is refreshed
 * by a job (services/search/after-push.ts). Add further reactions here, not in the HTTP layer.
 */
import type { Db } from "@/server/db";
import { listBranches, setHead } from "@/server/git/repository";
import type { RefUpdate } from "@/server/git/push-commands";
import { ZERO_SHA } from "@/lib/sha";
import { updatePullsAfterPush } from "@/server/services/pulls/after-push";
import { queueSearchIndexAfterPush } from "@/server/services/search/after-push";

/**
 * Records a push into repository `repoId` whose bare repository is `gitDir`. `updates` are the
 * ref changes that took effect (empty when unknown). Never throws for git problems of the
 * default-branch fix-up or of pull request updates (they are logged); database errors of the
 * repository row propagate. `actorId` is the pusher (pull request timeline events name them).
 */
export async function recordPush(
  db: Db,
  repoId: string,
  gitDir: string,
  updates: RefUpdate[] = [],
  actorId: string | null = null,
): Promise<void> {
  const now = new Date();
  const row = await db.repository.update({
    where: { id: repoId },
    data: { pushedAt: now, updatedAt: now },
    select: { defaultBranch: true },
  });
  // pull requests whose source or target moved (services/pulls/after-push.ts); logs its own failures
  await updatePullsAfterPush(
    db,
    repoId,
    gitDir,
    updates.map((u) => ({ ...u, newSha: /^0+$/.test(u.newSha) ? ZERO_SHA : u.newSha })),
    actorId,
  ).catch((e) => console.error("recordPush: pull request update failed", e));
  const defaultBranch = await fixDefaultBranch(db, repoId, gitDir, row.defaultBranch, updates);
  // the semantic index of the moved branches (services/search/after-push.ts); logs its own failures
  await queueSearchIndexAfterPush(db, repoId, defaultBranch, updates);
}

/** Moves HEAD and defaultBranch to a branch that exists when the default one does not; → the default branch after. */
async function fixDefaultBranch(db: Db, repoId: string, gitDir: string, current: string, updates: RefUpdate[]): Promise<string> {
  try {
    const branches = await listBranches(gitDir);
    if (branches.length === 0 || branches.some((b) => b.name === current)) return current;
    const pushed = updates
      .filter((u) => u.ref.startsWith("refs/heads/") && u.newSha !== ZERO_SHA)
      .map((u) => u.ref.slice("refs/heads/".length));
    const pick =
      pushed.find((b) => b === "main") ??
      pushed.find((b) => b === "master") ??
      pushed[0] ??
      branches.find((b) => b.name === "main")?.name ??
      branches.find((b) => b.name === "master")?.name ??
      branches[0].name;
    await setHead(gitDir, pick);
    await db.repository.update({ where: { id: repoId }, data: { defaultBranch: pick } });
    return pick;
  } catch (e) {
    console.error("recordPush: default branch fix-up failed", e);
    return current;
  }
}
