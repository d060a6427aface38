/**
 * Reading the activity log (spec "Activity entry"): {id, issueNumber, action, field?, oldValue?,
 * newValue?, actor, createdAt}, newest first. Values are strings (numbers, dates and keys as
 * text); actor is {id, username, name} or null for a deleted user. Three queries per call.
 */
import type { Db, Prisma } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { issueByNumber } from "./core";
import { userSelect, type UserRef } from "./shapes";

export interface ActivityEntry {
  id: string;
  issueNumber: number;
  action: string;
  field: string | null;
  oldValue: string | null;
  newValue: string | null;
  actor: UserRef | null;
  createdAt: string;
}

const select = {
  id: true,
  action: true,
  field: true,
  oldValue: true,
  newValue: true,
  createdAt: true,
  issue: { select: { number: true } },
  actor: { select: userSelect },
} as const satisfies Prisma.IssueActivitySelect;

async function entries(db: Db, where: Prisma.IssueActivityWhereInput, limit: number): Promise<ActivityEntry[]> {
  const rows = await db.issueActivity.findMany({ where, orderBy: { id: "desc" }, take: limit, select });
  return rows.map((r) => ({
    id: String(r.id),
    issueNumber: r.issue.number,
    action: r.action,
    field: r.field,
    oldValue: r.oldValue,
    newValue: r.newValue,
    actor: r.actor,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** issues.getActivity {number, limit? (1–200, 50)} → entries of the issue, newest first. NOT_FOUND. */
export async function getActivity(db: Db, repo: Pick<AuthorizedRepo, "id">, number: number, limit = 50): Promise<ActivityEntry[]> {
  const issue = await issueByNumber(db, repo.id, number);
  return entries(db, { issueId: issue.id }, limit);
}

/** issues.getRepoActivity {limit? (1–200, 50)} → entries of every issue of the repository, newest first. */
export function getRepoActivity(db: Db, repo: Pick<AuthorizedRepo, "id">, limit = 50): Promise<ActivityEntry[]> {
  return entries(db, { repoId: repo.id }, limit);
}
