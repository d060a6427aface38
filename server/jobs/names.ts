/**
 * The job names svc enqueues and the payload each carries (docs/architecture.md "Background jobs").
 * A name is `<service>.<useCase>`; payloads are plain JSON (ids, never rows: a job reads current
 * state when it runs). Handlers are registered in ./handlers.ts.
 */

/** Recompute the cached mergeability of one pull request (svc no longer enqueues it: jobs queued before the upgrade still run). */
export const REFRESH_MERGEABILITY = "pulls.refreshMergeability";
/** After a push to a branch: mergeability of every open pull request into or out of it, in one job (services/pulls/refresh-after-push.ts). */
export const REFRESH_PULLS_AFTER_PUSH = "pulls.refreshAfterPush";
/** Merge one pull request with auto-merge enabled if its requirements are now met (services/pulls/run-auto-merge.ts). */
export const AUTO_MERGE = "pulls.autoMerge";

/** Run one AI review of a pull request (a PullRequestAiReview row; services/pulls/run-ai-review.ts). */
export const AI_REVIEW = "pulls.aiReview";
/** Refresh the semantic search index of one branch (after a push; server/services/search/index-repo.ts). */
export const SEARCH_INDEX_REPO = "search.indexRepo";

/** Repository maintenance: `git gc --auto` with a prune grace period (services/repos/maintain-repository.ts). */
export const REPO_MAINTENANCE = "repos.maintenance";
/** The daily sweep: queues REPO_MAINTENANCE for every repository, then itself for the next day. */
export const REPO_MAINTENANCE_SWEEP = "repos.maintenanceSweep";

/** Send one webhook delivery (an attempt; a retryable failure queues the next attempt itself: services/webhooks/deliver-webhook.ts). */
export const WEBHOOK_DELIVER = "webhooks.deliver";

/** Queue the lost attempts of pending webhook deliveries, then itself a minute later (services/webhooks/sweep-deliveries.ts). */
export const WEBHOOK_SWEEP = "webhooks.sweep";

/** Emit the `push`/`create`/`delete` webhook events of a push (reads the commit list from git off the push's path: services/webhooks/push-events.ts). */
export const WEBHOOK_PUSH_EVENTS = "webhooks.pushEvents";

/** Work out who is notified of one event and write their notification threads (services/notifications/fan-out.ts). */
export const NOTIFY_FAN_OUT = "notifications.fanOut";
/** Send the notification emails of one event (NotificationEmail rows; services/notifications/email/). */
export const NOTIFY_EMAIL = "notifications.email";
/** The daily digest: one email per user gathering the day's unsent NotificationEmail rows, then itself for the next day. */
export const NOTIFY_DIGEST = "notifications.digest";

/** Delete Git LFS objects no repository references (rows and files; services/lfs/gc-objects.ts); daily runs queue the next. */
export const LFS_GC = "lfs.gc";

/** Name → payload type of every svc job. */
export interface JobPayloads {
  /** `prId`: PullRequest.id. Enqueue with `singletonKey: prId` so pushes in a burst refresh once. */
  [REFRESH_MERGEABILITY]: { prId: string };
  /** The branch that moved and the pusher (null when unknown). Enqueue with `singletonKey: "<repoId>:<branch>"`. */
  [REFRESH_PULLS_AFTER_PUSH]: { repoId: string; branch: string; actorId: string | null };
  /** `prId`: PullRequest.id. Enqueue with `singletonKey: prId` (a burst of statuses and reviews re-evaluates once). */
  [AUTO_MERGE]: { prId: string };
  /** `runId`: PullRequestAiReview.id. Enqueue with `singletonKey: runId` (a re-enqueue of a waiting run is dropped). */
  [AI_REVIEW]: { runId: string };
  /** Enqueue with `singletonKey: "<repoId>:<branch>"` so a burst of pushes refreshes once. */
  [SEARCH_INDEX_REPO]: { repoId: string; branch: string };
  /** Enqueue with `singletonKey: repoId` (a burst of triggers runs once). */
  [REPO_MAINTENANCE]: { repoId: string };
  /** No payload. Enqueue with `singletonKey: "daily"`: one waiting sweep at a time. */
  [REPO_MAINTENANCE_SWEEP]: Record<string, never>;
  /** `deliveryIds`: WebhookDelivery ids (one event's first attempts, or one delivery's retry); `attempt`: 1–5. */
  [WEBHOOK_DELIVER]: { deliveryIds: string[]; attempt: number };
  /** No payload. Enqueue with `singletonKey: "webhooks"`: one waiting sweep at a time. */
  [WEBHOOK_SWEEP]: Record<string, never>;
  /** The repository, the pusher (null when unknown) and the ref updates that took effect. */
  [WEBHOOK_PUSH_EVENTS]: { repoId: string; senderId: string | null; updates: { ref: string; oldSha: string; newSha: string }[] };
  /** One event (services/notifications/event.ts NotificationEvent: ids and small text, no rows). */
  [NOTIFY_FAN_OUT]: { event: import("@/server/services/notifications/event").NotificationEvent };
  /** `emailIds`: NotificationEmail ids of one event; `attempt`: 1–5 (a failed send queues the next attempt itself). */
  [NOTIFY_EMAIL]: { emailIds: string[]; attempt: number };
  /** No payload. Enqueue with `singletonKey: "digest"`: one waiting digest at a time. */
  [NOTIFY_DIGEST]: Record<string, never>;
  /** `daily`: the daily run (singleton "daily", queues the next); false: a run after a deletion (singleton "now"). */
  [LFS_GC]: { daily: boolean };
}

export type JobName = keyof JobPayloads;

/** The payload type for `N`: JobPayloads[N] for svc's names, `unknown` for any other (tests). */
export type PayloadOf<N extends string> = N extends JobName ? JobPayloads[N] : unknown;
