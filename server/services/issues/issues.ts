/**
 * Issue use cases: list, get, create, update and the single-field setters (close, reopen,
 * priority, due date, estimate), due-date lists and estimate totals. One function per procedure;
 * every change and its activity entries commit in one transaction. Rules: issue #3 and
 * docs/issues.md; field shapes: spec "Issue".
 */
import type { Db, Prisma } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { atLeast, permissionOf, type AuthorizedRepo } from "@/server/services/repos/access";
import { dueSoonWindow, overdueWindow, priorityKey, priorityRank, stateForStatus, type PriorityKey } from "@/lib/issues/model";
import {
  conflictOnDuplicate,
  requireActor,
  inTransaction,
  issueById,
  issueByNumber,
  issueViewById,
  recordActivity,
  type ActivityInput,
  type IssueCore,
  type IssueView,
  type Tx,
} from "./core";
import { applyStatus, endOfColumn, statusBeforeClose } from "./status";
import { countsInput, createInput, listInput, updateInput, type CreateIssueInput, type UpdateIssueInput } from "./schemas";
import { getRelationNumbers, type Relations } from "./relations";
import { z } from "zod";
import { countIssuesByState, queryIssues, type IssueFilter, type OrderTerm } from "./query";
import { takeIssueCreation } from "./limits";
import { applyQuery, sortOrder } from "./search";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

/** Newest first, like GitHub's issue list. */
const NEWEST: OrderTerm[] = [{ field: "number", direction: "desc" }];

/**
 * The filter of issues.list (applied in SQL). `project` is a project name, `cycle` a cycle
 * number: unknown ones simply match nothing. overdue/dueSoon (7 days) imply state open (UTC dates).
 */
export function listFilter(repoId: string, f: Omit<z.output<typeof listInput>, "limit" | "offset">, now = new Date()): IssueFilter {
  const out: IssueFilter = { repoId };
  if (f.state) out.state = f.state;
  if (f.status) out.statuses = [f.status];
  if (f.priority) out.priorities = [priorityRank(f.priority)];
  if (f.assignee) out.assigneeIds = [f.assignee];
  if (f.project !== undefined) out.projectName = f.project;
  if (f.cycle !== undefined) out.cycleNumber = f.cycle;
  if (f.labels?.length) out.labelNames = f.labels;
  if ("numbers" in f && f.numbers) out.numbers = f.numbers;
  if ("titleSearch" in f && f.titleSearch) out.titleSearch = f.titleSearch;
  if (f.author !== undefined) out.authorRefs = [{ ids: [], usernames: [f.author] }];
  if (f.overdue || f.dueSoon) {
    if (f.state === "closed") return { repoId, ids: [] };
    out.state = "open";
  }
  if (f.overdue) out.dueBefore = overdueWindow(now).before;
  if (f.dueSoon) {
    const w = dueSoonWindow(7, now);
    out.dueFrom = w.from;
    out.dueTo = w.to;
  }
  return out;
}

/**
 * issues.list: {state?, status?, priority?, assignee? (user id), project? (name), cycle?
 * (number), overdue?, dueSoon? (7 days), limit? (1–100, 20), offset? (0)} → issues newest first,
 * each with author, assignee and labels. Extensions: labels, numbers, q (GitHub-style search,
 * ./search.ts; BAD_REQUEST for a bad qualifier value), author (username), sort. `meId` is the
 * caller (q's @me). One SQL query (./query.ts).
 */
export async function listIssues(db: Db, repo: Repo, raw: z.input<typeof listInput>, meId: string | null = null): Promise<IssueView[]> {
  const input = listInput.parse(raw);
  const { filter, sort } = applyQuery(listFilter(repo.id, input), input.q, meId);
  return queryIssues(db, filter, input.sort || sort ? sortOrder(input.sort ?? sort) : NEWEST, { limit: input.limit, offset: input.offset });
}

/**
 * issues.counts (extension, for list pages): {open, closed} — how many issues match the list
 * filters in each state (overdue and dueSoon imply open, so `closed` is 0 with them). One query.
 */
export async function countIssues(
  db: Db,
  repo: Repo,
  raw: z.input<typeof countsInput>,
  meId: string | null = null,
): Promise<{ open: number; closed: number }> {
  const input = countsInput.parse(raw);
  return countIssuesByState(db, applyQuery(listFilter(repo.id, input), input.q, meId, { ignoreState: true }).filter);
}

/** issues.get: the issue plus `relations` {blocking, blockedBy, related, duplicates, duplicatedBy}. NOT_FOUND. */
export async function getIssue(db: Db, repo: Repo, number: number): Promise<IssueView & { relations: Relations }> {
  const issue = await issueByNumber(db, repo.id, number);
  const [view, relations] = await Promise.all([issueViewById(db, issue), getRelationNumbers(db, issue.id)]);
  return { ...view, relations };
}

/**
 * BAD_REQUEST unless `userId` is a user who can read the repository (issue #3: assignees must
 * be able to read it).
 */
export async function assertCanRead(tx: Tx | Db, repo: Repo, userId: string): Promise<void> {
  const user = await tx.user.findUnique({
    where: { id: userId },
    select: { id: true, isAdmin: true, collaborations: { where: { repoId: repo.id }, select: { role: true } } },
  });
  if (!user) throw new AppError("BAD_REQUEST", `assignee ${userId} does not exist`);
  if (permissionOf(repo, user, user.collaborations[0]?.role ?? null) === "none") {
    throw new AppError("BAD_REQUEST", "the assignee cannot read this repository");
  }
}

/** Label ids for names (case-insensitive). Unknown names: BAD_REQUEST naming them, or skipped when `skipUnknown`. */
export async function labelIdsByName(tx: Tx | Db, repoId: string, names: string[], skipUnknown = false): Promise<string[]> {
  if (!names.length) return [];
  const lower = [...new Set(names.map((n) => n.trim().toLowerCase()))];
  const found = await tx.label.findMany({ where: { repoId, nameLower: { in: lower } }, select: { id: true, nameLower: true } });
  const missing = lower.filter((n) => !found.some((f) => f.nameLower === n));
  if (missing.length && !skipUnknown)
    throw new AppError("BAD_REQUEST", `unknown label${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`);
  return found.map((f) => f.id);
}

/**
 * Fields that place an issue in the team's plan or change other issues: a caller with only read
 * permission (or a repo:read token) files into triage and may not set them (issue #6 item 3;
 * docs/issues.md "Triage"). They are refused, not kept as a proposal: whoever accepts the issue
 * sets them.
 */
export const TRIAGE_REFUSED_FIELDS = ["status", "assigneeId", "parentNumber", "project", "cycle", "estimate"] as const;

/** FORBIDDEN naming the fields a read-only caller may not set on a new issue, if any are given. */
function assertTriageInput(input: Partial<Record<(typeof TRIAGE_REFUSED_FIELDS)[number], unknown>>): void {
  const given = TRIAGE_REFUSED_FIELDS.filter((f) => input[f] !== undefined && input[f] !== null);
  if (given.length) {
    throw new AppError(
      "FORBIDDEN",
      `setting ${given.join(", ")} needs write permission; issues you file go to triage, where a maintainer plans them`,
    );
  }
}

/**
 * issues.create. Status: backlog for callers with write permission (an explicit `status` may
 * override), triage for callers with only read permission, who may not set status, assignee,
 * parent, project, cycle or estimate (FORBIDDEN, see TRIAGE_REFUSED_FIELDS). `templateId` fills title/body/labels/priority where the input leaves them out.
 * `labels` are label names of the repository (BAD_REQUEST for unknown ones). `project` (name),
 * `cycle` (number), `parentNumber` and `templateId` must exist (NOT_FOUND). The number comes from
 * Repository.nextIssueNumber, incremented in the same transaction as the insert. Activity:
 * created (+ parent_set for a sub-issue).
 */
export async function createIssue(db: Db, caller: Actor | null, repo: Repo, raw: CreateIssueInput): Promise<IssueView> {
  const actor = requireActor(caller);
  const input = createInput.parse(raw);
  const canWrite = atLeast(repo.permission, "write");
  await takeIssueCreation(actor.user.id, repo.permission); // per-user limit (./limits.ts), before any write
  if (!canWrite) assertTriageInput(input);
  return inTransaction(db, async (tx) => {
    const template = input.templateId ? await tx.issueTemplate.findFirst({ where: { id: input.templateId, repoId: repo.id } }) : null;
    if (input.templateId && !template) throw new AppError("NOT_FOUND", "template not found");
    const title = input.title ?? template?.title?.trim();
    if (!title) throw new AppError("BAD_REQUEST", "title is required (the template has no title)");
    const labelIds = input.labels
      ? await labelIdsByName(tx, repo.id, input.labels)
      : await labelIdsByName(tx, repo.id, template ? (JSON.parse(template.labels) as string[]) : [], true);
    const priority: PriorityKey = input.priority ?? (template?.priority as PriorityKey | null) ?? "none";
    const project = input.project
      ? await tx.project.findUnique({
          where: { repoId_nameLower: { repoId: repo.id, nameLower: input.project.toLowerCase() } },
          select: { id: true },
        })
      : null;
    if (input.project && !project) throw new AppError("NOT_FOUND", `${`project "${input.project}"`} not found`);
    const cycle =
      input.cycle !== undefined
        ? await tx.cycle.findUnique({ where: { repoId_number: { repoId: repo.id, number: input.cycle } }, select: { id: true } })
        : null;
    if (input.cycle !== undefined && !cycle) throw new AppError("NOT_FOUND", `${`cycle ${input.cycle}`} not found`);
    const parent = input.parentNumber !== undefined ? await issueByNumber(tx, repo.id, input.parentNumber) : null;
    if (input.assigneeId) await assertCanRead(tx, repo, input.assigneeId);
    const status = canWrite ? (input.status ?? "backlog") : "triage";
    const state = stateForStatus(status);
    // The counter first: on PostgreSQL its row lock orders concurrent creators, so the column end
    // read next already sees the previous creator's issue.
    const counter = await tx.repository.update({
      where: { id: repo.id },
      data: { nextIssueNumber: { increment: 1 } },
      select: { nextIssueNumber: true },
    });
    const boardPosition = await endOfColumn(tx, repo.id, status);
    const created = await tx.issue.create({
      data: {
        repoId: repo.id,
        number: counter.nextIssueNumber - 1,
        title,
        body: input.body ?? template?.body ?? null,
        status,
        state,
        closedAt: state === "closed" ? new Date() : null,
        priority: priorityRank(priority),
        dueDate: input.dueDate ?? null,
        estimate: input.estimate ?? null,
        parentId: parent?.id ?? null,
        projectId: project?.id ?? null,
        cycleId: cycle?.id ?? null,
        authorId: actor.user.id,
        assigneeId: input.assigneeId ?? null,
        boardPosition,
        labels: { create: labelIds.map((labelId) => ({ labelId })) },
      },
      select: { id: true, repoId: true },
    });
    await recordActivity(tx, created, actor, [
      { action: "created", field: "status", newValue: status },
      ...(parent ? [{ action: "parent_set" as const, field: "parent", newValue: parent.number }] : []),
    ]);
    return issueViewById(tx, created);
  });
}

/** Activity entries and data for field changes shared by update and the setters. */
async function applyFields(tx: Tx, actor: Actor, repo: Repo, issue: IssueCore, input: z.output<typeof updateInput>): Promise<void> {
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
 * from the activity log, backlog when unknown; issue #7), closedAt cleared; the move is recorded
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

const DUE_FIRST: OrderTerm[] = [
  { field: "dueDate", direction: "asc" },
  { field: "number", direction: "asc" },
];

/** Paging of the due-date lists (extension): limit 1–100, default 50. */
export interface Page {
  limit?: number;
  offset?: number;
}

/** issues.listOverdue: open issues due before today (UTC), earliest due first. */
export async function listOverdue(db: Db, repo: Repo, page: Page = {}, now = new Date()): Promise<IssueView[]> {
  return queryIssues(db, { repoId: repo.id, state: "open", dueBefore: overdueWindow(now).before }, DUE_FIRST, {
    limit: page.limit ?? 50,
    offset: page.offset ?? 0,
  });
}

/** issues.listDueSoon: open issues due from today to today + days (UTC, inclusive), earliest first. */
export async function listDueSoon(db: Db, repo: Repo, days = 7, page: Page = {}, now = new Date()): Promise<IssueView[]> {
  const w = dueSoonWindow(days, now);
  return queryIssues(db, { repoId: repo.id, state: "open", dueFrom: w.from, dueTo: w.to }, DUE_FIRST, {
    limit: page.limit ?? 50,
    offset: page.offset ?? 0,
  });
}

/** NOT_FOUND unless the project / cycle ids belong to the repository. */
export async function assertProjectCycle(db: Db, repoId: string, projectId?: string, cycleId?: string): Promise<void> {
  const [project, cycle] = await Promise.all([
    projectId ? db.project.findFirst({ where: { id: projectId, repoId }, select: { id: true } }) : true,
    cycleId ? db.cycle.findFirst({ where: { id: cycleId, repoId }, select: { id: true } }) : true,
  ]);
  if (!project) throw new AppError("NOT_FOUND", "project not found");
  if (!cycle) throw new AppError("NOT_FOUND", "cycle not found");
}

/**
 * issues.getTotalEstimate {projectId?, cycleId?} → total story points (a number) of the
 * repository's issues in that project/cycle, over ALL states (open and closed: the scope of the
 * work, as Linear's cycle scope counts). Issues without an estimate count 0. NOT_FOUND for
 * unknown project/cycle ids.
 */
export async function getTotalEstimate(db: Db, repo: Repo, filter: { projectId?: string; cycleId?: string }): Promise<number> {
  await assertProjectCycle(db, repo.id, filter.projectId, filter.cycleId);
  const sum = await db.issue.aggregate({
    where: {
      repoId: repo.id,
      ...(filter.projectId ? { projectId: filter.projectId } : {}),
      ...(filter.cycleId ? { cycleId: filter.cycleId } : {}),
    },
    _sum: { estimate: true },
  });
  return sum._sum.estimate ?? 0;
}

export { conflictOnDuplicate };
