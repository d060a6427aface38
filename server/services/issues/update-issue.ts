/**
 * Changes to one issue's own fields: issues.update and the single-field setters (status, close,
 * reopen, priority, due date, estimate). Unchanged fields write nothing; every change and its
 * activity entries commit in one transaction; status changes follow the state coupling in
 * ./status.ts. Rules: docs/issues.md; field shapes: spec "Issue".
 */
import { type Tx, inTransaction } from "@/server/db/transaction";
import { z } from "zod";
import type { Db, Prisma } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { priorityKey, priorityRank, type PriorityKey } from "@/lib/issues/model";
import { issueById, issueByNumber, issueViewById, recordActivity, type ActivityInput, type IssueCore } from "./core";
import type { IssueView } from "./shapes";
import { applyStatus, statusBeforeClose } from "./status";
import { updateInput, type UpdateIssueInput } from "./schemas";
import { assertCanRead } from "./references";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

/**
 * Writes the changed fields of `input` to `issue` with their activity entries, in the caller's
 * transaction: shared by update, the setters and issues.bulkUpdate. NOT_FOUND for an assignee who
 * cannot read the repository.
 */
export async function applyFields(tx: Tx, actor: Actor, repo: Repo, issue: IssueCore, input: z.output<typeof updateInput>): Promise<void> {
  const data: Prisma.IssueUncheckedUpdateInput = {};
  const log: ActivityInput[] = [];
  if (input.title !== undefined && input.title !== issue.title) {
    data.title = input.title;
    log.push({ action: "edited", field: "title", oldValue: issue.title, newValue: input.title });
  }
  if (input.body !== undefined && (input.body ?? null) !== issue.body) {
    data.body = input.body;
    log.push({ action: "edited", field: "body", oldValue: issue.body, newValue: input.body });
  }
  if (input.priority !== undefined && priorityRank(input.priority) !== issue.priority) {
    data.priority = priorityRank(input.priority);
    log.push({ action: "priority_changed", field: "priority", oldValue: priorityKey(issue.priority), newValue: input.priority });
  }
  if (input.dueDate !== undefined && input.dueDate !== issue.dueDate) {
    data.dueDate = input.dueDate;
    log.push(
      input.dueDate === null
        ? { action: "due_date_cleared", field: "dueDate", oldValue: issue.dueDate }
        : { action: "due_date_set", field: "dueDate", oldValue: issue.dueDate, newValue: input.dueDate },
    );
  }
  if (input.estimate !== undefined && input.estimate !== issue.estimate) {
    data.estimate = input.estimate;
    log.push({ action: "estimate_set", field: "estimate", oldValue: issue.estimate, newValue: input.estimate });
  }
  if (input.assigneeId !== undefined && input.assigneeId !== issue.assigneeId) {
    if (input.assigneeId) await assertCanRead(tx, repo, input.assigneeId);
    data.assigneeId = input.assigneeId;
    if (issue.assigneeId) log.push({ action: "unassigned", field: "assignee", oldValue: issue.assigneeId });
    if (input.assigneeId) log.push({ action: "assigned", field: "assignee", oldValue: issue.assigneeId, newValue: input.assigneeId });
  }
  if (log.length) {
    await tx.issue.update({ where: { id: issue.id }, data });
    await recordActivity(tx, issue, actor, log);
  }
  if (input.status !== undefined) await applyStatus(tx, actor, issue, input.status);
}

/**
 * issues.update {issueId, title?, body?, status?, priority?, dueDate? (null clears), estimate?
 * (null clears), assigneeId? (null unassigns)} → the issue. Unchanged fields write nothing; each
 * changed field writes its activity (title/body: `edited`). Status follows the state coupling.
 */
export async function updateIssue(db: Db, actor: Actor, repo: Repo, issueId: string, raw: UpdateIssueInput): Promise<IssueView> {
  const input = updateInput.parse(raw);
  return inTransaction(db, async (tx) => {
    const issue = await issueById(tx, repo.id, issueId);
    await applyFields(tx, actor, repo, issue, input);
    return issueViewById(tx, issue);
  });
}

/** Runs one field change on issue #number in a transaction and returns the issue. */
async function change(db: Db, actor: Actor, repo: Repo, number: number, fields: z.output<typeof updateInput>): Promise<IssueView> {
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    await applyFields(tx, actor, repo, issue, fields);
    return issueViewById(tx, issue);
  });
}

/** issues.updateStatus {number, status} → the issue (state coupling; activity status_changed). */
export async function updateStatus(db: Db, actor: Actor, repo: Repo, number: number, status: string): Promise<IssueView> {
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    await applyStatus(tx, actor, issue, status);
    return issueViewById(tx, issue);
  });
}

/** issues.close: open → closed with status done, closedAt set. Already closed: unchanged. */
export async function closeIssue(db: Db, actor: Actor, repo: Repo, number: number): Promise<IssueView> {
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    if (issue.state === "open") await applyStatus(tx, actor, issue, "done");
    return issueViewById(tx, issue);
  });
}

/**
 * issues.reopen: closed → open, back to the status it had before closing (statusBeforeClose:
 * from the activity log, backlog when unknown), closedAt cleared; the move is recorded
 * as status_changed (status and state) like any other. Already open: unchanged.
 */
export async function reopenIssue(db: Db, actor: Actor, repo: Repo, number: number): Promise<IssueView> {
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    if (issue.state === "closed") await applyStatus(tx, actor, issue, await statusBeforeClose(tx, issue.id));
    return issueViewById(tx, issue);
  });
}

/** issues.updatePriority → the issue; activity priority_changed. */
export const updatePriority = (db: Db, actor: Actor, repo: Repo, number: number, priority: PriorityKey) =>
  change(db, actor, repo, number, { priority });
/** issues.setDueDate (YYYY-MM-DD, UTC date) → the issue; activity due_date_set. */
export const setDueDate = (db: Db, actor: Actor, repo: Repo, number: number, dueDate: string) =>
  change(db, actor, repo, number, { dueDate });
/** issues.clearDueDate → the issue; activity due_date_cleared. */
export const clearDueDate = (db: Db, actor: Actor, repo: Repo, number: number) => change(db, actor, repo, number, { dueDate: null });
/** issues.setEstimate (story points ≥ 0) → the issue; activity estimate_set. */
export const setEstimate = (db: Db, actor: Actor, repo: Repo, number: number, estimate: number) =>
  change(db, actor, repo, number, { estimate });
/** issues.clearEstimate → the issue; activity estimate_set with newValue null. */
export const clearEstimate = (db: Db, actor: Actor, repo: Repo, number: number) => change(db, actor, repo, number, { estimate: null });
