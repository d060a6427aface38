/**
 * Shared machinery of the issue services: the transaction helper, the API shapes (spec "Issue",
 * dates as ISO strings, dueDate as YYYY-MM-DD; reads in ./query.ts), the activity writer and
 * lookups by number.
 */
import type { Db, Prisma } from "@/server/db";
import { AppError } from "@/server/errors";
import { trackTransaction } from "@/server/db/after-commit";
import type { Actor } from "@/server/auth/actor";
import type { ActivityAction, PriorityKey } from "@/lib/issues/model";
import { queryIssues } from "./query";

export type Tx = Prisma.TransactionClient;

/**
 * Runs `fn` in one interactive transaction. EVERY write of the issue services goes through here:
 * on SQLite the better-sqlite3 adapter has one connection and serialises transactions with a
 * mutex, but a query outside a transaction runs on that connection even while another request's
 * transaction is open — a write would join that transaction and vanish if it rolls back. Generous
 * waits: on SQLite transactions queue on the mutex, on PostgreSQL for a pool connection and row
 * locks, so 200 concurrent creates must be able to wait their turn. Work registered with
 * `afterCommit(tx, …)` runs after the commit (never after a rollback).
 */
export async function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let committed = () => {};
  const result = await mapPrismaErrors(
    db.$transaction(
      (tx) => {
        committed = trackTransaction(tx); // afterCommit work (server/db/after-commit.ts) runs below, once committed
        return fn(tx);
      },
      { maxWait: 60_000, timeout: 60_000 },
    ),
  );
  committed();
  return result;
}

/**
 * Maps the Prisma errors a concurrent change can cause to AppErrors instead of a 500:
 * P2002 (unique constraint, e.g. the same label added twice at once) → CONFLICT,
 * P2025 (the row vanished, e.g. deleted by another request meanwhile) → NOT_FOUND.
 */
export async function mapPrismaErrors<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "P2002") throw new AppError("CONFLICT", "a concurrent change conflicted with this one; retry");
    if (code === "P2025") throw new AppError("NOT_FOUND", "not found (it was changed or deleted meanwhile)");
    throw e;
  }
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
  /** percentage (0–100, floored) of direct sub-issues that are closed */
  subIssueProgress: number;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  /** Extension (issue #7): who closed it (newest close in the activity log); null when open or unknown */
  closedBy: UserRef | null;
}

/** One issue view (after a change): one query (./query.ts). */
export async function issueViewById(db: Db | Tx, issue: { id: string; repoId: string }): Promise<IssueView> {
  const [view] = await queryIssues(db, { repoId: issue.repoId, ids: [issue.id] }, [{ field: "number", direction: "asc" }]);
  if (!view) throw new AppError("NOT_FOUND", "issue not found");
  return view;
}

/** The columns rule checks need. */
export const issueCore = {
  id: true,
  repoId: true,
  number: true,
  title: true,
  body: true,
  state: true,
  status: true,
  priority: true,
  dueDate: true,
  estimate: true,
  parentId: true,
  assigneeId: true,
  authorId: true,
  boardPosition: true,
  closedAt: true,
} as const;
export type IssueCore = Prisma.IssueGetPayload<{ select: typeof issueCore }>;

/** Issue #number of the repository, or NOT_FOUND "issue #n not found". */
export async function issueByNumber(db: Db | Tx, repoId: string, number: number): Promise<IssueCore> {
  const issue = await db.issue.findUnique({ where: { repoId_number: { repoId, number } }, select: issueCore });
  if (!issue) {
    // issues and pull requests share one number space (issue #8): say which it is
    const pull = await db.pullRequest.findUnique({ where: { repoId_number: { repoId, number } }, select: { id: true } });
    if (pull) throw new AppError("NOT_FOUND", `issue #${number} not found: #${number} is a pull request`);
    throw new AppError("NOT_FOUND", `${`issue #${number}`} not found`);
  }
  return issue;
}

export async function issueById(db: Db | Tx, repoId: string, id: string): Promise<IssueCore> {
  const issue = await db.issue.findFirst({ where: { id, repoId }, select: issueCore });
  if (!issue) throw new AppError("NOT_FOUND", "issue not found");
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
export async function recordActivity(
  tx: Tx,
  issue: { id: string; repoId: string },
  actor: Actor | null,
  entries: ActivityInput[],
): Promise<void> {
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
