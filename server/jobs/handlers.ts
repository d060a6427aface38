/**
 * Registers the handler of every svc job (names.ts) in this process. The server calls it before
 * starting its worker (./server-start.ts); a process that only enqueues (the CLI, a request)
 * does not need it. Handlers live with their service and are imported lazily, so loading the
 * job runner does not load every service.
 */
import { defineJob } from "./index";
import {
  AI_REVIEW,
  REFRESH_MERGEABILITY,
  REFRESH_PULLS_AFTER_PUSH,
  REPO_MAINTENANCE,
  REPO_MAINTENANCE_SWEEP,
  SEARCH_INDEX_REPO,
} from "./names";

/** Registers svc's job handlers (idempotent: a second call replaces them with the same). */
export function registerJobHandlers(): void {
  // after pushes (server/services/pulls/after-push.ts), one per moved branch: the mergeability
  // of every open pull request into or out of it in one batch, merges made outside svc, then a
  // few diffs warmed (refresh-after-push.ts); reads the current tips, so a re-run is harmless
  defineJob(
    REFRESH_PULLS_AFTER_PUSH,
    async ({ repoId, branch, actorId }) => {
      const [{ getDb }, { refreshPullsAfterPush }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/pulls/refresh-after-push"),
      ]);
      await refreshPullsAfterPush(await getDb(), repoId, branch, actorId);
    },
    { retries: 5, backoffMs: 2_000, timeoutMs: 900_000 },
  );
  // the per-pull-request form of the above, enqueued by earlier versions of svc: warm the
  // mergeability cache, then the diff's merge base and per-file counts; a failed diff warm-up is
  // only logged (the page computes the same itself), never a retry
  defineJob(
    REFRESH_MERGEABILITY,
    async ({ prId }) => {
      const [{ getDb }, { refreshMergeability }, { warmPullDiff }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/pulls/mergeability"),
        import("@/server/services/diff/warm-pull-diff"),
      ]);
      const db = await getDb();
      await refreshMergeability(db, prId);
      await warmPullDiff(db, prId).catch((e) => console.error(`warming the diff of pull request ${prId} failed`, e));
    },
    { retries: 5, backoffMs: 2_000, timeoutMs: 120_000 },
  );
  // the AI review of a pull request (docs/ai.md "AI review"): on non-draft creation, ready for
  // review and pulls.triggerAIReview. The handler records its own failures on the run (failed, with
  // the message) and counts attempts itself (run-ai-review.ts MAX_ATTEMPTS): the queue's retries
  // only matter when a run dies mid-way (process crash, restart), and then it runs again
  defineJob(
    AI_REVIEW,
    async ({ runId }) => {
      const [{ getDb }, { runAiReview }] = await Promise.all([import("@/server/db"), import("@/server/services/pulls/run-ai-review")]);
      await runAiReview(await getDb(), runId);
    },
    { retries: 4, backoffMs: 2_000, timeoutMs: 300_000 },
  );
  // after pushes (server/services/repos/update-branch.ts) and stale searches: the semantic index of a
  // branch, chunking only new blobs, then vectors when the repository's engine has an embedding
  // model; a deleted repository is not an error (nothing left to index)
  defineJob(
    SEARCH_INDEX_REPO,
    async ({ repoId, branch }) => {
      const [{ getDb }, { refreshSearchIndex }, { resolveAiEngine }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/search/index-repo"),
        import("@/server/ai/resolve"),
      ]);
      const db = await getDb();
      if (!(await db.repository.findUnique({ where: { id: repoId }, select: { id: true } }))) return;
      const engine = await resolveAiEngine(db, repoId);
      await refreshSearchIndex(db, repoId, branch, engine.kind === "model" ? engine.embedding : undefined);
    },
    { retries: 3, backoffMs: 5_000, timeoutMs: 1_800_000 },
  );
  // repository maintenance (docs/performance.md "Hardening II, item 13"): `git gc --auto` with a
  // prune grace period after every N pushes and daily; a large repository's repack takes minutes
  defineJob(
    REPO_MAINTENANCE,
    async ({ repoId }) => {
      const [{ getDb }, { maintainRepository }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/repos/maintain-repository"),
      ]);
      await maintainRepository(await getDb(), repoId);
    },
    { retries: 2, backoffMs: 60_000, timeoutMs: 2 * 3_600_000 },
  );
  defineJob(
    REPO_MAINTENANCE_SWEEP,
    async () => {
      const [{ getDb }, { sweepRepositories }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/repos/maintain-repository"),
      ]);
      await sweepRepositories(await getDb());
    },
    { retries: 3, backoffMs: 60_000, timeoutMs: 1_800_000 },
  );
}
