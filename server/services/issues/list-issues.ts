/**
 * issues.list and issues.counts: the list filters (applied in SQL, ./query.ts) plus the
 * GitHub-style search query (./search.ts).
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { dueSoonWindow, overdueWindow, priorityRank } from "@/lib/issues/model";
import type { IssueView } from "./shapes";
import { countsInput, listInput } from "./schemas";
import { countIssuesByState, queryIssues, type IssueFilter, type OrderTerm } from "./query";
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
