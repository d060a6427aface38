/**
 * After a status or check run is written: the open pull requests of the repository whose head is
 * the commit are told "status" (their pages refresh the merge box; components/pulls/live-updates.tsx),
 * and those with auto-merge get their `pulls.autoMerge` job (services/pulls/run-auto-merge.ts),
 * which merges them when this status was the last requirement.
 */
import { getDb } from "@/server/db";
import { publish, pullChannel } from "@/server/events/bus";
import { queueAutoMerge } from "@/server/services/pulls/auto-merge";

/** Publishes `{type: "status"}` on each open pull request of `repoId` whose head is `sha`, and queues auto-merge. Runs after the commit; never throws. */
export function announceStatusChange(repoId: string, sha: string): void {
  void (async () => {
    const db = await getDb();
    const pulls = await db.pullRequest.findMany({
      where: { repoId, headSha: sha, state: "open" },
      select: { id: true, autoMergeStrategy: true },
    });
    for (const p of pulls) publish(pullChannel(p.id), { type: "status" });
    queueAutoMerge(
      db,
      pulls.filter((p) => p.autoMergeStrategy).map((p) => p.id),
    );
  })().catch((e: unknown) => console.error("status live update failed", e));
}
