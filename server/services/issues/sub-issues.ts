/**
 * Sub-issues: a parent in the same repository (numbers are per repository) and no cycles: an
 * issue's descendant can't become its parent. Activity parent_set and parent_removed on the child.
 */
import { type Tx, inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { subIssueProgress, type PriorityKey } from "@/lib/issues/model";
import { issueByNumber, issueViewById, recordActivity } from "./core";
import type { IssueView } from "./shapes";
import { queryIssues } from "./query";
import { createIssue } from "./create-issue";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

/** Ids of `issueId`'s ancestors, nearest first (one query per level; bounded by depth). */
async function ancestors(tx: Tx, issueId: string): Promise<string[]> {
  const out: string[] = [];
  let current: string | null = issueId;
  for (let depth = 0; current && depth < 10_000; depth++) {
    const row: { parentId: string | null } | null = await tx.issue.findUnique({ where: { id: current }, select: { parentId: true } });
    current = row?.parentId ?? null;
    if (current) out.push(current);
  }
  return out;
}

/**
 * issues.setParent: makes #number a sub-issue of #parentNumber → the issue. BAD_REQUEST for a
 * self parent or when #parentNumber is #number's descendant (a cycle). Activity parent_set
 * (oldValue the previous parent's number).
 */
export async function setParent(db: Db, actor: Actor, repo: Repo, number: number, parentNumber: number): Promise<IssueView> {
  if (number === parentNumber) throw new AppError("BAD_REQUEST", "an issue cannot be its own parent");
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    const parent = await issueByNumber(tx, repo.id, parentNumber);
    if ((await ancestors(tx, parent.id)).includes(issue.id)) {
      throw new AppError("BAD_REQUEST", `#${parentNumber} is a sub-issue of #${number}; making it the parent would create a cycle`);
    }
    if (issue.parentId === parent.id) return issueViewById(tx, issue);
    const old = issue.parentId ? await tx.issue.findUnique({ where: { id: issue.parentId }, select: { number: true } }) : null;
    await tx.issue.update({ where: { id: issue.id }, data: { parentId: parent.id } });
    await recordActivity(tx, issue, actor, [
      { action: "parent_set", field: "parent", oldValue: old?.number ?? null, newValue: parentNumber },
    ]);
    return issueViewById(tx, issue);
  });
}

/** issues.removeParent → the issue; activity parent_removed. Without a parent: unchanged. */
export async function removeParent(db: Db, actor: Actor, repo: Repo, number: number): Promise<IssueView> {
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    if (!issue.parentId) return issueViewById(tx, issue);
    const old = await tx.issue.findUnique({ where: { id: issue.parentId }, select: { number: true } });
    await tx.issue.update({ where: { id: issue.id }, data: { parentId: null } });
    await recordActivity(tx, issue, actor, [{ action: "parent_removed", field: "parent", oldValue: old?.number ?? null }]);
    return issueViewById(tx, issue);
  });
}

/** issues.getSubIssues → the direct sub-issues (full issues), by number ascending. */
export async function getSubIssues(db: Db, repo: Repo, number: number): Promise<IssueView[]> {
  const issue = await issueByNumber(db, repo.id, number);
  return queryIssues(db, { repoId: repo.id, parentId: issue.id }, [{ field: "number", direction: "asc" }]);
}

/** issues.getSubIssueProgress → {total, completed (closed), percentage (integer 0–100, 0 when none)}. */
export async function getSubIssueProgress(db: Db, repo: Repo, number: number) {
  const issue = await issueByNumber(db, repo.id, number);
  const groups = await db.issue.groupBy({ by: ["state"], where: { parentId: issue.id }, _count: { _all: true } });
  const total = groups.reduce((s, g) => s + g._count._all, 0);
  const completed = groups.find((g) => g.state === "closed")?._count._all ?? 0;
  return subIssueProgress(total, completed);
}

/** issues.createSubIssue {parentNumber, title, body?, priority?} → the new issue (as issues.create with parentNumber). */
export function createSubIssue(
  db: Db,
  actor: Actor | null,
  repo: Repo,
  input: { parentNumber: number; title: string; body?: string; priority?: PriorityKey },
): Promise<IssueView> {
  return createIssue(db, actor, repo, input);
}
