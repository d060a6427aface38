/**
 * Status changes and their coupling to state (docs/issues.md "Statuses"):
 *   status in category completed/canceled → state closed, closedAt set;
 *   any other status → state open, closedAt cleared;
 *   the issue goes to the end of its new board column.
 * Every change writes `status_changed` (field "status") and, when the state flips, a second
 * `status_changed` with field "state" (open ↔ closed), in the caller's transaction.
 */
import type { Actor } from "@/server/auth/actor";
import { POSITION_STEP, STATUS_KEYS, stateForStatus } from "@/lib/issues/model";
import { recordActivity, type IssueCore } from "./core";
import type { Tx } from "@/server/db/transaction";

/** Position after the last issue of the column (repoId, status): one indexed query. */
export async function endOfColumn(tx: Tx, repoId: string, status: string): Promise<number> {
  const last = await tx.issue.findFirst({ where: { repoId, status }, orderBy: { boardPosition: "desc" }, select: { boardPosition: true } });
  return (last?.boardPosition ?? 0) + POSITION_STEP;
}

/**
 * Moves `issue` to status `to` with the state coupling above. No-op (false) when already there.
 * `position` overrides the end-of-column placement (issues.move).
 */
export async function applyStatus(tx: Tx, actor: Actor | null, issue: IssueCore, to: string, position?: number): Promise<boolean> {
  if (issue.status === to) {
    if (position !== undefined) await tx.issue.update({ where: { id: issue.id }, data: { boardPosition: position } });
    return false;
  }
  const state = stateForStatus(to);
  const boardPosition = position ?? (await endOfColumn(tx, issue.repoId, to));
  const stateChanged = state !== issue.state;
  await tx.issue.update({
    where: { id: issue.id },
    data: { status: to, state, boardPosition, ...(stateChanged ? { closedAt: state === "closed" ? new Date() : null } : {}) },
  });
  await recordActivity(tx, issue, actor, [
    { action: "status_changed", field: "status", oldValue: issue.status, newValue: to },
    ...(stateChanged ? [{ action: "status_changed" as const, field: "state", oldValue: issue.state, newValue: state }] : []),
  ]);
  Object.assign(issue, { status: to, state, boardPosition });
  return true;
}

/** The open statuses (state "open"): where a reopened issue may return to. */
const OPEN_STATUSES = STATUS_KEYS.filter((k) => stateForStatus(k) === "open");

/**
 * The status an issue had before it was last closed (reopen returns it there), read
 * from the activity log: the newest `status_changed` (field "status") entry whose old value is an
 * open status is the closing move, because every later move was closed → closed (a move back to
 * open would itself be newer). So done → canceled → reopen returns to the status before done.
 * "backlog" when the log has none (e.g. the issue was created closed). One indexed query.
 */
export async function statusBeforeClose(tx: Tx, issueId: string): Promise<string> {
  const closing = await tx.issueActivity.findFirst({
    where: { issueId, action: "status_changed", field: "status", oldValue: { in: OPEN_STATUSES } },
    orderBy: { id: "desc" },
    select: { oldValue: true },
  });
  return closing?.oldValue ?? "backlog";
}
