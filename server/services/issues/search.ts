/**
 * The `q` search of issues.list / issues.counts: a parsed query
 * (lib/issues/search-query.ts) applied to a list filter, AND-ed with the other inputs, and the `sort`
 * keys as ORDER BY terms. Pure; the SQL is built by ./query.ts in the list's single statement.
 */
import { AppError } from "@/server/errors";
import { dueSoonWindow, overdueWindow, priorityRank } from "@/lib/issues/model";
import type { IssueFilter, OrderTerm, UserRefs } from "./query";
import { parseIssueQuery, searchPhrases, type IssueQueryFilters, type IssueSort } from "@/lib/issues/search-query";

/** Matches nothing (a contradiction such as is:open with state closed). */
const none = (repoId: string): IssueFilter => ({ repoId, ids: [] });

/** Users of a qualifier: "@me" → the caller's id (nobody when signed out), other names as usernames. */
export function userRefs(names: string[], meId: string | null): UserRefs {
  return {
    ids: names.includes("@me") && meId ? [meId] : [],
    usernames: names.filter((n) => n !== "@me"),
  };
}

const intersect = <T>(a: T[] | undefined, b: T[]): T[] => (a ? a.filter((x) => b.includes(x)) : b);

/**
 * `filter` narrowed by the query's filters (AND). `ignoreState`: issues.counts counts both
 * states whatever is:open/closed says. due:overdue / due:soon imply open, like the overdue and
 * dueSoon inputs. Pure.
 */
export function applyQueryFilters(
  filter: IssueFilter,
  q: IssueQueryFilters,
  text: string,
  meId: string | null,
  opts: { ignoreState?: boolean; now?: Date } = {},
): IssueFilter {
  const out: IssueFilter = { ...filter };
  const state = opts.ignoreState ? undefined : q.state;
  if (state) {
    if (out.state && out.state !== state) return none(filter.repoId);
    out.state = state;
  }
  if (q.statuses.length) out.statuses = intersect(out.statuses, q.statuses);
  if (q.priorities.length) out.priorities = intersect(out.priorities, q.priorities.map(priorityRank));
  if ((q.statuses.length && !out.statuses?.length) || (q.priorities.length && !out.priorities?.length)) return none(filter.repoId);
  if (q.labels.length) out.labelGroups = [...(out.labelGroups ?? []), ...q.labels.map((g) => g.map((l) => l.toLowerCase()))];
  if (q.assignees.length) out.assigneeRefs = [...(out.assigneeRefs ?? []), userRefs(q.assignees, meId)];
  if (q.authors.length) out.authorRefs = [...(out.authorRefs ?? []), userRefs(q.authors, meId)];
  if (q.projects.length)
    out.projectNames = intersect(
      out.projectNames,
      q.projects.map((p) => p.toLowerCase()),
    );
  if (q.cycles.length) out.cycleNumbers = intersect(out.cycleNumbers, q.cycles);
  if (q.no.includes("assignee")) out.noAssignee = true;
  if (q.no.includes("label")) out.noLabel = true;
  if (q.no.includes("project")) out.noProject = true;
  if (q.no.includes("cycle")) out.noCycle = true;
  if (q.no.includes("due")) out.noDueDate = true;
  if (q.due) {
    if (out.state === "closed" && !opts.ignoreState) return none(filter.repoId);
    out.state = "open";
    if (q.due === "overdue") out.dueBefore = overdueWindow(opts.now).before;
    else {
      const w = dueSoonWindow(7, opts.now);
      out.dueFrom = w.from;
      out.dueTo = w.to;
    }
  }
  const phrases = searchPhrases(text);
  if (phrases.length) out.text = phrases;
  return out;
}

/**
 * `filter` narrowed by the search text `q` (parseIssueQuery), or `filter` unchanged when q is
 * absent. BAD_REQUEST listing the problems when a qualifier has a bad value (never a 500).
 * Returns the query's sort too.
 */
export function applyQuery(
  filter: IssueFilter,
  q: string | undefined,
  meId: string | null,
  opts: { ignoreState?: boolean; now?: Date } = {},
): { filter: IssueFilter; sort?: IssueSort } {
  if (q === undefined) return { filter };
  const parsed = parseIssueQuery(q);
  if (parsed.errors.length) throw new AppError("BAD_REQUEST", `q: ${parsed.errors.join("; ")}`);
  return { filter: applyQueryFilters(filter, parsed.filters, parsed.text, meId, opts), sort: parsed.filters.sort };
}

/**
 * ORDER BY terms of a sort key (pure): created = number (same order, indexed), priority = most
 * urgent first, due = nulls last; ties by number descending (newest first).
 */
export function sortOrder(sort: IssueSort | undefined): OrderTerm[] {
  const tie: OrderTerm = { field: "number", direction: "desc" };
  switch (sort) {
    case "created-asc":
      return [{ field: "number", direction: "asc" }];
    case "updated-desc":
      return [{ field: "updatedAt", direction: "desc" }, tie];
    case "updated-asc":
      return [{ field: "updatedAt", direction: "asc" }, tie];
    case "priority":
      return [{ field: "priority", direction: "asc" }, tie];
    case "priority-asc":
      return [{ field: "priority", direction: "desc" }, tie];
    case "due-asc":
      return [{ field: "dueDate", direction: "asc", nullsLast: true }, tie];
    case "due-desc":
      return [{ field: "dueDate", direction: "desc", nullsLast: true }, tie];
    default:
      return [tie];
  }
}
