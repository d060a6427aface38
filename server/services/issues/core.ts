/**
 * Shared machinery of the issue services: the transaction helper, the one select every issue
 * read uses (author, assignee, labels, parent number and sub-issue counts in a constant number
 * of queries), the API shapes (spec "Issue", dates as ISO strings, dueDate as YYYY-MM-DD), the
 * activity writer and lookups by number.
 */
import type { Db, Prisma } from "@/server/db";
import { AppError, notFound } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { priorityKey, type ActivityAction, type PriorityKey } from "./model";

export type Tx = Prisma.TransactionClient;

/**
 * Runs `fn` in one interactive transaction. Generous waits: on SQLite the adapter serialises
 * transactions (a mutex), on PostgreSQL they queue for a pool connection and for row locks, so
 * 200 concurrent creates must be able to wait their turn.
 */
export function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(fn, { maxWait: 60_000, timeout: 60_000 });
}

/** Maps a unique-constraint violation (P2002) to CONFLICT with `message`. */
export async function conflictOnDuplicate<T>(work: Promise<T>, message: string): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if ((e as { code?: string }).code === "P2002") throw new AppError("CONFLICT", message);
    throw e;
  }
}

export const userSelect = { id: true, username: true, name: true } as const;
export const labelSelect = { id: true, name: true, color: true, description: true } as const;

export interface UserRef {
  id: string;
  username: string;
  name: string | null;
}
export interface LabelView {
  id: string;
  name: string;
  color: string;
  description: string | null;
}

/** The columns and relations an issue view needs; Prisma batches each relation (no N+1). */
export const issueSelect = {
  id: true, number: true, title: true, body: true, state: true, status: true, priority: true, dueDate: true,
  estimate: true, projectId: true, cycleId: true, authorId: true, assigneeId: true, createdAt: true,
  updatedAt: true, closedAt: true,
  author: { select: userSelect },
  assignee: { select: userSelect },
  parent: { select: { number: true } },
  labels: { select: { label: { select: labelSelect } } },
  _count: { select: { children: true } },
} as const satisfies Prisma.IssueSelect;

export type IssueRow = Prisma.IssueGetPayload<{ select: typeof issueSelect }>;

/** An issue as the API returns it (spec "Issue"; absent optional fields are null). */
export interface IssueView {
  id: string;
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  status: string;
  priority: PriorityKey;
  /** YYYY-MM-DD */
  dueDate: string | null;
  estimate: number | null;
  parentNumber: number | null;
  projectId: string | null;
  cycleId: string | null;
  authorId: string | null;
  author: UserRef | null;
  assigneeId: string | null;
  assignee: UserRef | null;
  labels: LabelView[];
  /** number of direct sub-issues */
  subIssueCount: number;
  /** percentage (0–100) of direct sub-issues that are closed */
  subIssueProgress: number;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

/**
 * Shapes rows for the API. `closedChildren` maps issue id → closed sub-issue count (one groupBy
 * for the whole page, see `hydrate`).
 */
export function toIssueView(row: IssueRow, closedChildren: Map<string, number>): IssueView {
  const total = row._count.children;
  const done = closedChildren.get(row.id) ?? 0;
  return {
    id: row.id,
    number: row.number,
    title: row.title,
    body: row.body,
    state: row.state as "open" | "closed",
    status: row.status,
    priority: priorityKey(row.priority),
    dueDate: row.dueDate,
    estimate: row.estimate,
    parentNumber: row.parent?.number ?? null,
    projectId: row.projectId,
    cycleId: row.cycleId,
    authorId: row.authorId,
    author: row.author,
    assigneeId: row.assigneeId,
    assignee: row.assignee,
    labels: row.labels.map((l) => l.label).sort((a, b) => a.name.localeCompare(b.name)),
    subIssueCount: total,
    subIssueProgress: total === 0 ? 0 : Math.floor((done * 100) / total),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
  };
}

/** Closed sub-issue counts for the rows that have sub-issues: at most one query. */
export async function hydrate(db: Db | Tx, rows: IssueRow[]): Promise<IssueView[]> {
  const parents = rows.filter((r) => r._count.children > 0).map((r) => r.id);
  const closed = new Map<string, number>();
  if (parents.length) {
    const groups = await db.issue.groupBy({ by: ["parentId"], where: { parentId: { in: parents }, state: "closed" }, _count: { _all: true } });
    for (const g of groups) if (g.parentId) closed.set(g.parentId, g._count._all);
  }
  return rows.map((r) => toIssueView(r, closed));
}

/** Issues matching `where`, shaped, in `orderBy` order. Constant query count whatever the page size. */
export async function findIssues(db: Db | Tx, args: { where: Prisma.IssueWhereInput; orderBy: Prisma.IssueOrderByWithRelationInput[]; take?: number; skip?: number }): Promise<IssueView[]> {
  const rows = await db.issue.findMany({ ...args, select: issueSelect });
  return hydrate(db, rows);
}

/** One issue view by id (after a change). */
export async function issueViewById(db: Db | Tx, id: string): Promise<IssueView> {
  const row = await db.issue.findUniqueOrThrow({ where: { id }, select: issueSelect });
  return (await hydrate(db, [row]))[0];
}

/** The columns rule checks need. */
export const issueCore = {
  id: true, repoId: true, number: true, title: true, body: true, state: true, status: true, priority: true,
  dueDate: true, estimate: true, parentId: true, assigneeId: true, authorId: true, boardPosition: true, closedAt: true,
} as const;
export type IssueCore = Prisma.IssueGetPayload<{ select: typeof issueCore }>;

/** Issue #number of the repository, or NOT_FOUND "issue #n not found". */
export async function issueByNumber(db: Db | Tx, repoId: string, number: number): Promise<IssueCore> {
  const issue = await db.issue.findUnique({ where: { repoId_number: { repoId, number } }, select: issueCore });
  if (!issue) throw notFound(`issue #${number}`);
  return issue;
}

export async function issueById(db: Db | Tx, repoId: string, id: string): Promise<IssueCore> {
  const issue = await db.issue.findFirst({ where: { id, repoId }, select: issueCore });
  if (!issue) throw notFound("issue");
  return issue;
}

export interface ActivityInput {
  action: ActivityAction;
  field?: string | null;
  oldValue?: string | number | null;
  newValue?: string | number | null;
}

const str = (v: string | number | null | undefined) => (v === null || v === undefined ? null : String(v));

/** Appends activity entries for one issue; call inside the transaction that made the change. */
export async function recordActivity(tx: Tx, issue: { id: string; repoId: string }, actor: Actor | null, entries: ActivityInput[]): Promise<void> {
  if (!entries.length) return;
  await tx.issueActivity.createMany({
    data: entries.map((e) => ({
      repoId: issue.repoId,
      issueId: issue.id,
      action: e.action,
      field: e.field ?? null,
      oldValue: str(e.oldValue),
      newValue: str(e.newValue),
      actorId: actor?.user.id ?? null,
    })),
  });
}

/** The signed-in actor, or UNAUTHORIZED (read-level writes such as create and addComment on public repositories). */
export function requireActor(actor: Actor | null): Actor {
  if (!actor) throw new AppError("UNAUTHORIZED", "sign in or send a token to do this");
  return actor;
}
