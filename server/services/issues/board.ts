/**
 * The kanban board and triage (issue #3): statuses, priorities, listGroupedByStatus (every
 * status key, issues by persisted board position), updateStatus, move (drag and drop), the triage
 * queue and its accept / reject. Status changes follow the state coupling in ./status.ts.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import {
  DEFAULT_STATUSES,
  PRIORITIES,
  positionBetween,
  priorityRank,
  renumberedPositions,
  POSITION_STEP,
  type PriorityKey,
  type StatusDef,
} from "@/lib/issues/model";
import { inTransaction, issueByNumber, issueViewById, recordActivity, type IssueView, type Tx } from "./core";
import { applyStatus } from "./status";
import { assertProjectCycle } from "./issues";
import { queryIssues } from "./query";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

/** issues.statuses → [{key, label, category, order, color}] in board order. */
export function listStatuses(): StatusDef[] {
  return DEFAULT_STATUSES.map((s) => ({ ...s }));
}

/** issues.priorities → [{key, label, order}] most urgent first ("none" last). */
export function listPriorities(): { key: PriorityKey; label: string; order: number }[] {
  return PRIORITIES.map((p, order) => ({ key: p.key, label: p.label, order }));
}

/**
 * issues.listGroupedByStatus {projectId?, cycleId?} → {[status]: issues} with every status key
 * (empty lists too), each list ordered by board position (then number). All states are included
 * (done/canceled columns hold closed issues). NOT_FOUND for unknown project/cycle ids. A constant
 * number of queries.
 */
export async function listGroupedByStatus(
  db: Db,
  repo: Repo,
  filter: { projectId?: string; cycleId?: string },
): Promise<Record<string, IssueView[]>> {
  await assertProjectCycle(db, repo.id, filter.projectId, filter.cycleId);
  const issues = await queryIssues(db, { repoId: repo.id, projectId: filter.projectId, cycleId: filter.cycleId }, [
    { field: "status", direction: "asc" },
    { field: "boardPosition", direction: "asc" },
    { field: "number", direction: "asc" },
  ]);
  const out: Record<string, IssueView[]> = {};
  for (const s of DEFAULT_STATUSES) out[s.key] = [];
  for (const issue of issues) (out[issue.status] ??= []).push(issue);
  return out;
}

/** issues.updateStatus {number, status} → the issue (state coupling; activity status_changed). */
export async function updateStatus(db: Db, actor: Actor, repo: Repo, number: number, status: string): Promise<IssueView> {
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    await applyStatus(tx, actor, issue, status);
    return issueViewById(tx, issue);
  });
}

/** Renumbers a column STEP, 2·STEP, … in its current order (rare: only when a gap is exhausted). */
async function renumberColumn(tx: Tx, repoId: string, status: string): Promise<void> {
  const rows = await tx.issue.findMany({
    where: { repoId, status },
    orderBy: [{ boardPosition: "asc" }, { number: "asc" }],
    select: { id: true },
  });
  const positions = renumberedPositions(rows.length);
  for (let i = 0; i < rows.length; i++) await tx.issue.update({ where: { id: rows[i].id }, data: { boardPosition: positions[i] } });
}

/** The position for placing an issue before/after `anchor` in `status`, excluding `movingId`; null = renumber first. */
async function placement(
  tx: Tx,
  repoId: string,
  status: string,
  movingId: string,
  anchor: { position: number; side: "before" | "after" },
): Promise<number | null> {
  if (anchor.side === "before") {
    const prev = await tx.issue.findFirst({
      where: { repoId, status, id: { not: movingId }, boardPosition: { lt: anchor.position } },
      orderBy: { boardPosition: "desc" },
      select: { boardPosition: true },
    });
    return positionBetween(prev?.boardPosition ?? null, anchor.position);
  }
  const next = await tx.issue.findFirst({
    where: { repoId, status, id: { not: movingId }, boardPosition: { gt: anchor.position } },
    orderBy: { boardPosition: "asc" },
    select: { boardPosition: true },
  });
  return positionBetween(anchor.position, next?.boardPosition ?? null);
}

/**
 * issues.move {number, status, beforeNumber? | afterNumber?} → the issue (extension for the board's
 * drag and drop). Puts #number in column `status` directly before (above) #beforeNumber or after
 * #afterNumber, or at the end when neither is given. The anchor must be in that column
 * (BAD_REQUEST) and must not be the moved issue. A status change follows the state coupling and
 * writes status_changed; a reorder within a column writes no activity.
 */
export async function moveIssue(
  db: Db,
  actor: Actor,
  repo: Repo,
  input: { number: number; status: string; beforeNumber?: number; afterNumber?: number },
): Promise<IssueView> {
  const anchorNumber = input.beforeNumber ?? input.afterNumber;
  if (anchorNumber === input.number) throw new AppError("BAD_REQUEST", "an issue cannot be placed next to itself");
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, input.number);
    let position: number | undefined;
    if (anchorNumber !== undefined) {
      const side = input.beforeNumber !== undefined ? "before" : "after";
      let anchor = await issueByNumber(tx, repo.id, anchorNumber);
      if (anchor.status !== input.status) throw new AppError("BAD_REQUEST", `#${anchorNumber} is not in ${input.status}`);
      let pos = await placement(tx, repo.id, input.status, issue.id, { position: anchor.boardPosition, side });
      if (pos === null) {
        await renumberColumn(tx, repo.id, input.status);
        anchor = await issueByNumber(tx, repo.id, anchorNumber);
        pos = await placement(tx, repo.id, input.status, issue.id, { position: anchor.boardPosition, side });
      }
      position = pos ?? anchor.boardPosition + (side === "after" ? POSITION_STEP / 2 : -POSITION_STEP / 2);
    } else if (issue.status === input.status) {
      const last = await tx.issue.findFirst({
        where: { repoId: repo.id, status: input.status, id: { not: issue.id } },
        orderBy: { boardPosition: "desc" },
        select: { boardPosition: true },
      });
      position = (last?.boardPosition ?? 0) + POSITION_STEP;
    }
    await applyStatus(tx, actor, issue, input.status, position);
    return issueViewById(tx, issue);
  });
}

/** issues.listTriage → open issues in triage, oldest first (the queue order). */
export async function listTriage(db: Db, repo: Repo, page: { limit?: number; offset?: number } = {}): Promise<IssueView[]> {
  return queryIssues(db, { repoId: repo.id, state: "open", statuses: ["triage"] }, [{ field: "number", direction: "asc" }], {
    limit: page.limit ?? 50,
    offset: page.offset ?? 0,
  });
}

/**
 * issues.acceptTriage {number, targetStatus? (backlog), priority?} → the issue. PRECONDITION_FAILED
 * unless it is open and in triage; BAD_REQUEST for targetStatus triage. Activity status_changed
 * (+ priority_changed).
 */
export async function acceptTriage(
  db: Db,
  actor: Actor,
  repo: Repo,
  input: { number: number; targetStatus?: string; priority?: PriorityKey },
): Promise<IssueView> {
  const target = input.targetStatus ?? "backlog";
  if (target === "triage") throw new AppError("BAD_REQUEST", "targetStatus must be a status other than triage");
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, input.number);
    if (issue.state !== "open" || issue.status !== "triage")
      throw new AppError("PRECONDITION_FAILED", `#${input.number} is not awaiting triage`);
    if (input.priority !== undefined && priorityRank(input.priority) !== issue.priority) {
      await tx.issue.update({ where: { id: issue.id }, data: { priority: priorityRank(input.priority) } });
      await recordActivity(tx, issue, actor, [
        { action: "priority_changed", field: "priority", oldValue: PRIORITIES[issue.priority]?.key ?? "none", newValue: input.priority },
      ]);
    }
    await applyStatus(tx, actor, issue, target);
    return issueViewById(tx, issue);
  });
}

/**
 * issues.rejectTriage {number, reason} → the issue, closed with status canceled. The reason
 * (required, non-empty: BAD_REQUEST) is recorded as a comment by the caller ("Rejected in triage:
 * <reason>") and its `commented` activity. PRECONDITION_FAILED unless open and in triage.
 */
export async function rejectTriage(db: Db, actor: Actor, repo: Repo, input: { number: number; reason: string }): Promise<IssueView> {
  const reason = input.reason.trim();
  if (!reason) throw new AppError("BAD_REQUEST", "reason is required to reject an issue in triage");
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, input.number);
    if (issue.state !== "open" || issue.status !== "triage")
      throw new AppError("PRECONDITION_FAILED", `#${input.number} is not awaiting triage`);
    const comment = await tx.issueComment.create({
      data: { issueId: issue.id, authorId: actor.user.id, body: `Rejected in triage: ${reason}` },
      select: { id: true },
    });
    await recordActivity(tx, issue, actor, [{ action: "commented", field: "triage_rejection", newValue: comment.id }]);
    await applyStatus(tx, actor, issue, "canceled");
    return issueViewById(tx, issue);
  });
}
