/**
 * Queuing a notification event (docs/notifications.md): the one call the services make where
 * something happens. Nothing is decided or written here: the fan-out job
 * (./fan-out.ts, NOTIFY_FAN_OUT) reads current state and notifies people off the request path.
 */
import type { Db } from "@/server/db";
import type { Tx } from "@/server/db/transaction";
import { afterCommit } from "@/server/db/after-commit";
import { enqueue } from "@/server/jobs";
import { NOTIFY_FAN_OUT } from "@/server/jobs/names";
import type { NotificationEvent } from "./event";

/** The largest body carried in an event (64 KiB, event.ts). */
const MAX_BODY = 64 * 1024;

/** Enqueues not yet stored (settledNotificationEnqueues waits for them). */
const inFlight = new Set<Promise<unknown>>();

/**
 * Queues the NOTIFY_FAN_OUT job for `event` once `client`'s transaction commits (at once on the
 * root client; nothing after a rollback: server/db/after-commit.ts). `at` defaults to now; `body`
 * is cut to 64 KiB. No query and no await: the request pays one enqueue after its commit. A
 * failed enqueue is logged (the event's notifications are lost, the change is not).
 */
export function enqueueNotification(client: Db | Tx, event: Omit<NotificationEvent, "at"> & { at?: string }): void {
  const full: NotificationEvent = {
    ...event,
    at: event.at ?? new Date().toISOString(),
    ...(event.body !== undefined ? { body: event.body.slice(0, MAX_BODY) } : {}),
  };
  afterCommit(client, () => {
    const p = enqueue(NOTIFY_FAN_OUT, { event: full })
      .catch((e) => console.error(`notification ${full.kind} on ${full.subjectType} ${full.subjectId}: queueing failed`, e))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  });
}

/** Resolves once every enqueue started so far is stored (tests and benchmarks drain the queue after it). */
export async function settledNotificationEnqueues(): Promise<void> {
  while (inFlight.size) await Promise.allSettled([...inFlight]);
}

/**
 * enqueueNotification for pull request `prId` of repository `repoId`: `kind` by `actorId`, with
 * the optional anchor, body and targets of `extra`.
 */
export function enqueuePullNotification(
  client: Db | Tx,
  repoId: string,
  prId: string,
  actorId: string | null,
  kind: NotificationEvent["kind"],
  extra: Pick<NotificationEvent, "anchor" | "body" | "targetUserIds" | "targetTeamIds"> = {},
): void {
  enqueueNotification(client, { repoId, subjectType: "pull_request", subjectId: prId, kind, actorId, ...extra });
}

/** Commit status states and check run conclusions that count as a CI failure (GitHub's failing states). */
const FAILING = new Set(["failure", "error", "timed_out", "action_required", "startup_failure"]);

/**
 * Queues a ci_failed event for commit `sha` of repository `repoId` when `state` (a status state
 * or a completed check run's conclusion) is failing; the job notifies the authors of the open
 * pull requests whose head it is (fan-out.ts). No query.
 */
export function enqueueCiFailure(
  client: Db | Tx,
  repoId: string,
  sha: string,
  state: string | null,
  actorId: string | null,
  body?: string,
): void {
  if (!state || !FAILING.has(state)) return;
  enqueueNotification(client, { repoId, subjectType: "commit", subjectId: sha, kind: "ci_failed", actorId, ...(body ? { body } : {}) });
}
