/**
 * The lowest layer of the issue services, which every use-case file may import and which imports
 * none of them: the lookups of one issue (by number, by id, as its API
 * view), the activity writer and the signed-in check. The API shapes are in ./shapes.ts, list
 * reads in ./query.ts.
 */
import type { Db, Prisma } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Tx } from "@/server/db/transaction";
import type { Actor } from "@/server/auth/actor";
import type { ActivityAction } from "@/lib/issues/model";
import { queryIssues } from "./query";
import type { IssueView } from "./shapes";
import { notifyIssueActivity } from "@/server/services/notifications/issue-activity";
import { emitIssueActivityEvents } from "@/server/services/webhooks/issue-events";

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
    // issues and pull requests share one number space: say which it is
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

/** Appends activity entries for one issue, and their webhook events (services/webhooks/issue-events.ts); call inside the transaction that made the change. */
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
  await emitIssueActivityEvents(tx, issue, actor?.user ?? null, entries);
  await notifyIssueActivity(tx, issue, actor?.user.id ?? null, entries);
}

/** The signed-in actor, or UNAUTHORIZED (read-level writes such as create and addComment on public repositories). */
export function requireActor(actor: Actor | null): Actor {
  if (!actor) throw new AppError("UNAUTHORIZED", "sign in or send a token to do this");
  return actor;
}
