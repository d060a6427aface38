/**
 * Queuing a notification event (docs/notifications.md): the one call the services make where
 * something happens. Nothing is decided here: the fan-out job (./fan-out.ts, NOTIFY_FAN_OUT),
 * written in the transaction of the change, reads current state and notifies people off the
 * request path.
 */
import type { Db } from "@/server/db";
import type { Tx } from "@/server/db/transaction";
import { enqueue } from "@/server/jobs";
import { NOTIFY_FAN_OUT } from "@/server/jobs/names";
import type { NotificationEvent } from "./event";

/** The largest body carried in an event (64 KiB, event.ts). */
const MAX_BODY = 64 * 1024;

/**
 * Writes the NOTIFY_FAN_OUT job for `event` with `client`: inside a transaction (`inTransaction`'s
 * `tx`) the job is part of it — it exists iff the change commits, also when the process dies right
 * after the commit, and a rollback leaves none (the transactional outbox, server/jobs `enqueue`
 * with `tx`); on the root client it is written at once. This process's worker is woken after the
 * commit. `at` defaults to now; `body` is cut to 64 KiB. One insert, no read.
 * @throws database errors (inside a transaction: the change rolls back with it, as for any of its writes)
 */
export async function enqueueNotification(client: Db | Tx, event: Omit<NotificationEvent, "at"> & { at?: string }): Promise<void> {
  const full: NotificationEvent = {
    ...event,
    at: event.at ?? new Date().toISOString(),
    ...(event.body !== undefined ? { body: event.body.slice(0, MAX_BODY) } : {}),
  };
  await enqueue(NOTIFY_FAN_OUT, { event: full }, { tx: client });
}

/**
 * enqueueNotification for pull request `prId` of repository `repoId`: `kind` by `actorId`, with
 * the optional anchor, body and targets of `extra`. Errors: those of enqueueNotification.
 */
export function enqueuePullNotification(
  client: Db | Tx,
  repoId: string,
  prId: string,
  actorId: string | null,
  kind: NotificationEvent["kind"],
  extra: Pick<NotificationEvent, "anchor" | "body" | "targetUserIds" | "targetTeamIds"> = {},
): Promise<void> {
  return enqueueNotification(client, { repoId, subjectType: "pull_request", subjectId: prId, kind, actorId, ...extra });
}

/** Commit status states and check run conclusions that count as a CI failure (GitHub's failing states). */
const FAILING = new Set(["failure", "error", "timed_out", "action_required", "startup_failure"]);

/**
 * Queues a ci_failed event for commit `sha` of repository `repoId` when `state` (a status state
 * or a completed check run's conclusion) is failing; the job notifies the authors of the open
 * pull requests whose head it is (fan-out.ts). Errors: those of enqueueNotification.
 */
export async function enqueueCiFailure(
  client: Db | Tx,
  repoId: string,
  sha: string,
  state: string | null,
  actorId: string | null,
  body?: string,
): Promise<void> {
  if (!state || !FAILING.has(state)) return;
  await enqueueNotification(client, {
    repoId,
    subjectType: "commit",
    subjectId: sha,
    kind: "ci_failed",
    actorId,
    ...(body ? { body } : {}),
  });
}
