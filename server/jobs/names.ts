/**
 * The job names svc enqueues and the payload each carries (docs/architecture.md "Background jobs").
 * A name is `<service>.<useCase>`; payloads are plain JSON (ids, never rows: a job reads current
 * state when it runs). Handlers are registered in ./handlers.ts.
 */

/** Recompute the cached mergeability of one pull request (svc no longer enqueues it: jobs queued before the upgrade still run). */
export const REFRESH_MERGEABILITY = "pulls.refreshMergeability";
/** After a push to a branch: mergeability of every open pull request into or out of it, in one job (services/pulls/refresh-after-push.ts). */
export const REFRESH_PULLS_AFTER_PUSH = "pulls.refreshAfterPush";

/** Run one AI review of a pull request (a PullRequestAiReview row; services/pulls/run-ai-review.ts). */
export const AI_REVIEW = "pulls.aiReview";
/** Refresh the semantic search index of one branch (after a push; server/services/search/index-repo.ts). */
export const SEARCH_INDEX_REPO = "search.indexRepo";

/** Repository maintenance: `git gc --auto` with a prune grace period (services/repos/maintain-repository.ts). */
export const REPO_MAINTENANCE = "repos.maintenance";
/** The daily sweep: queues REPO_MAINTENANCE for every repository, then itself for the next day. */
export const REPO_MAINTENANCE_SWEEP = "repos.maintenanceSweep";

/** Name → payload type of every svc job. */
export interface JobPayloads {
  /** `prId`: PullRequest.id. Enqueue with `singletonKey: prId` so pushes in a burst refresh once. */
  [REFRESH_MERGEABILITY]: { prId: string };
  /** The branch that moved and the pusher (null when unknown). Enqueue with `singletonKey: "<repoId>:<branch>"`. */
  [REFRESH_PULLS_AFTER_PUSH]: { repoId: string; branch: string; actorId: string | null };
  /** `runId`: PullRequestAiReview.id. Enqueue with `singletonKey: runId` (a re-enqueue of a waiting run is dropped). */
  [AI_REVIEW]: { runId: string };
  /** Enqueue with `singletonKey: "<repoId>:<branch>"` so a burst of pushes refreshes once. */
  [SEARCH_INDEX_REPO]: { repoId: string; branch: string };
  /** Enqueue with `singletonKey: repoId` (a burst of triggers runs once). */
  [REPO_MAINTENANCE]: { repoId: string };
  /** No payload. Enqueue with `singletonKey: "daily"`: one waiting sweep at a time. */
  [REPO_MAINTENANCE_SWEEP]: Record<string, never>;
}

export type JobName = keyof JobPayloads;

/** The payload type for `N`: JobPayloads[N] for svc's names, `unknown` for any other (tests). */
export type PayloadOf<N extends string> = N extends JobName ? JobPayloads[N] : unknown;
