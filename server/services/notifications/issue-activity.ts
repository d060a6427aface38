/**
 * The notification events of issue activity (docs/notifications.md "Events"): every issue change
 * writes its activity entries through one function (services/issues/core.ts `recordActivity`), so
 * the events are derived from those entries there, next to the webhook events.
 */
import type { Tx } from "@/server/db/transaction";
import type { ActivityEntry } from "@/server/services/webhooks/issue-events";
import { enqueueNotification } from "./enqueue";
import type { NotificationEvent } from "./event";

/**
 * Queues, for activity `entries` of issue `issue` by `actorId`, in transaction `tx` (the jobs
 * commit with it, enqueue.ts): opened (created), comment (commented; anchor `comment-<id>`),
 * assigned (to the new assignee) and state_change (closed / reopened). Other entries notify
 * nobody. One insert per event, no read. Errors: those of enqueueNotification.
 */
export async function notifyIssueActivity(
  tx: Tx,
  issue: { id: string; repoId: string },
  actorId: string | null,
  entries: ActivityEntry[],
): Promise<void> {
  const base = { repoId: issue.repoId, subjectType: "issue", subjectId: issue.id, actorId } as const;
  for (const e of entries) {
    let event: Omit<NotificationEvent, "at" | "repoId" | "subjectType" | "subjectId" | "actorId"> | null = null;
    if (e.action === "created") event = { kind: "opened" };
    else if (e.action === "commented" && e.newValue) event = { kind: "comment", anchor: `comment-${e.newValue}` };
    else if (e.action === "assigned" && e.newValue) event = { kind: "assigned", targetUserIds: [String(e.newValue)] };
    else if (e.action === "status_changed" && e.field === "state") event = { kind: "state_change" };
    if (event) await enqueueNotification(tx, { ...base, ...event });
  }
}
