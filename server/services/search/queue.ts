/**
 * Queues a refresh of one branch's semantic index (the `search.indexRepo` job; handler in
 * server/jobs/handlers.ts). Kept apart from the search itself so the push path loads nothing more.
 */
import { enqueue } from "@/server/jobs";
import { SEARCH_INDEX_REPO } from "@/server/jobs/names";

/** Queues a refresh of (repo, branch); at most one waiting per index. Never throws (logs). */
export async function queueIndexRefresh(repoId: string, branch: string): Promise<void> {
  await enqueue(SEARCH_INDEX_REPO, { repoId, branch }, { singletonKey: `${repoId}:${branch}` }).catch((e) =>
    console.error(`queueing the search index of ${repoId}:${branch} failed`, e),
  );
}
