/** issues.listOverdue and issues.listDueSoon: open issues by due date (UTC calendar dates), earliest due first. */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { dueSoonWindow, overdueWindow } from "@/lib/issues/model";
import type { IssueView } from "./shapes";
import { queryIssues, type OrderTerm } from "./query";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

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
