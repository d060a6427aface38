/**
 * The `issues` and `issue_comment` webhook events of issue activity (GitHub's shapes; docs/api.md
 * "Webhooks"). Every issue change writes its activity entries through one function
 * (services/issues/core.ts `recordActivity`, labels through labels.ts), so the events are derived
 * from those entries there, in the same transaction.
 */
import type { Tx } from "@/server/db/transaction";
import { emitIssueCommentEvent, emitIssuesEvent } from "./domain-events";
import type { Sender } from "./emit-event";
import { userPayload } from "./payloads";

/** One activity entry as recordActivity takes it. */
export interface ActivityEntry {
  action: string;
  field?: string | null;
  oldValue?: string | number | null;
  newValue?: string | number | null;
}

/**
 * Emits, for activity `entries` of issue `issue`: `issues` opened (created), edited (title/body,
 * one event with GitHub's `changes: {title?: {from}, body?: {from}}`), assigned / unassigned
 * (with `assignee`), closed / reopened (a state change), labeled / unlabeled (with `label`), and
 * `issue_comment` created (commented). Other entries (status, priority, dates …) have no
 * GitHub event; nor have project_set / cycle_set (GitHub's `edited` carries only title and body
 * changes, and its project boards report through separate `projects_v2_item` events), which
 * issues/plan-move.ts therefore writes without calling this. Errors: emitWebhookEvent's.
 */
export async function emitIssueActivityEvents(
  tx: Tx,
  issue: { id: string; repoId: string },
  sender: Sender,
  entries: ActivityEntry[],
): Promise<void> {
  const changes: Record<string, { from: string }> = {};
  for (const e of entries) {
    const value = (v: typeof e.newValue) => (v === null || v === undefined ? null : String(v));
    if (e.action === "created") await emitIssuesEvent(tx, issue.repoId, "opened", sender, issue.id);
    else if (e.action === "edited" && (e.field === "title" || e.field === "body")) changes[e.field] = { from: value(e.oldValue) ?? "" };
    else if (e.action === "assigned" || e.action === "unassigned") {
      const id = value(e.action === "assigned" ? e.newValue : e.oldValue);
      const user = id ? await tx.user.findUnique({ where: { id }, select: { id: true, username: true } }) : null;
      await emitIssuesEvent(tx, issue.repoId, e.action, sender, issue.id, { assignee: userPayload(user) });
    } else if (e.action === "status_changed" && e.field === "state")
      await emitIssuesEvent(tx, issue.repoId, e.newValue === "closed" ? "closed" : "reopened", sender, issue.id);
    else if (e.action === "labeled" || e.action === "unlabeled") {
      const name = value(e.action === "labeled" ? e.newValue : e.oldValue);
      const label = name
        ? await tx.label.findFirst({ where: { repoId: issue.repoId, name }, select: { id: true, name: true, color: true } })
        : null;
      await emitIssuesEvent(tx, issue.repoId, e.action, sender, issue.id, {
        label: label ? { id: label.id, name: label.name, color: label.color.replace(/^#/, "") } : { name },
      });
    } else if (e.action === "commented" && e.newValue)
      await emitIssueCommentEvent(tx, issue.repoId, "created", sender, issue.id, String(e.newValue));
  }
  if (Object.keys(changes).length) await emitIssuesEvent(tx, issue.repoId, "edited", sender, issue.id, { changes });
}
