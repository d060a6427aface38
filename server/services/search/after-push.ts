/**
 * What a push means for semantic search (docs/ai.md "Index"; called by recordBranchUpdates,
 * server/services/repos/update-branch.ts): the default branch's index, and any other branch's index made
 * on demand, are refreshed by the `search.indexRepo` job when the push moved that branch.
 * One query; never throws (failures are logged; the next search queues a refresh itself).
 */
import type { Db } from "@/server/db";
import { queueIndexRefresh } from "./queue";

/** Queues index refreshes for the branches `updates` moved (full ref names). */
export async function queueSearchIndexAfterPush(
  db: Db,
  repoId: string,
  defaultBranch: string,
  updates: Array<{ ref: string }>,
): Promise<void> {
  try {
    const moved = [...new Set(updates.filter((u) => u.ref.startsWith("refs/heads/")).map((u) => u.ref.slice("refs/heads/".length)))];
    if (!moved.length) return;
    const indexed = new Set(
      (await db.searchIndex.findMany({ where: { repoId, branch: { in: moved } }, select: { branch: true } })).map((i) => i.branch),
    );
    for (const branch of moved) if (branch === defaultBranch || indexed.has(branch)) await queueIndexRefresh(repoId, branch);
  } catch (e) {
    console.error(`queueing search index refreshes for ${repoId} failed`, e);
  }
}
