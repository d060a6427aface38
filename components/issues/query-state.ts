/**
 * The issue list's state as a GitHub-style search query (docs/issues.md "Search"): the search box,
 * the filter and sort menus, the Open/Closed tabs and saved views all read and write one `q` string
 * (in the URL as `?q=`), so they always agree. Pure (no React, no database); unit-tested in
 * test/unit/issue-query-state.test.ts. Syntax: lib/issues/search-query.ts.
 */
import { stateForStatus } from "@/lib/issues/model";
import {
  emptyFilters,
  formatIssueQuery,
  parseIssueQuery,
  quoteValue,
  type IssueQueryFilters,
  type IssueSort,
  type NoField,
} from "@/lib/issues/search-query";
import type { SavedView, ViewFilters } from "./model";

/** What the box holds when the URL says nothing: GitHub's default list. */
export const DEFAULT_QUERY = "is:open";

type Query = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The query of the older URL filters (?state=closed&status=todo&priority=high&label=bug&
 * assignee=me&due=overdue|due_soon), so old links keep working; null when none is present.
 */
export function legacyQuery(query: Query): string | null {
  const keys = ["state", "status", "priority", "label", "assignee", "due"];
  if (!keys.some((k) => first(query[k]))) return null;
  const f = emptyFilters();
  const status = first(query.status);
  const parsedStatus = status ? parseIssueQuery(`status:${quoteValue(status)}`).filters.statuses : [];
  f.state = parsedStatus.length ? stateForStatus(parsedStatus[0]) : first(query.state) === "closed" ? "closed" : "open";
  f.statuses = parsedStatus;
  const priority = first(query.priority);
  if (priority) f.priorities = parseIssueQuery(`priority:${quoteValue(priority)}`).filters.priorities;
  const label = first(query.label)?.trim();
  if (label) f.labels = [[label]];
  if (first(query.assignee) === "me") f.assignees = ["@me"];
  const due = first(query.due);
  if (due === "overdue") f.due = "overdue";
  if (due === "due_soon") f.due = "soon";
  return formatIssueQuery(f);
}

/** The sort key of a view's {field, direction}, when the query language has one. */
export function sortOfView(sort: SavedView["sort"]): IssueSort | undefined {
  if (!sort) return undefined;
  const asc = sort.direction === "asc";
  switch (sort.field) {
    case "number":
    case "createdAt":
      return asc ? "created-asc" : "created-desc";
    case "updatedAt":
      return asc ? "updated-asc" : "updated-desc";
    case "priority":
      return asc ? "priority" : "priority-asc";
    case "dueDate":
      return asc ? "due-asc" : "due-desc";
    default:
      return undefined;
  }
}

/** A view's {field, direction} for a sort key (created-desc, the default, is null). */
export function viewSortOf(sort: IssueSort | undefined): SavedView["sort"] {
  switch (sort) {
    case "created-asc":
      return { field: "createdAt", direction: "asc" };
    case "updated-desc":
      return { field: "updatedAt", direction: "desc" };
    case "updated-asc":
      return { field: "updatedAt", direction: "asc" };
    case "priority":
      return { field: "priority", direction: "asc" };
    case "priority-asc":
      return { field: "priority", direction: "desc" };
    case "due-asc":
      return { field: "dueDate", direction: "asc" };
    case "due-desc":
      return { field: "dueDate", direction: "desc" };
    default:
      return null;
  }
}

/**
 * The search box text of a saved view: its `q` (extension) when the list page saved it,
 * otherwise its spec filters written as qualifiers (assignee ids as the viewer's @me or the id).
 */
export function queryOfView(view: Pick<SavedView, "filters" | "sort">, meId: string | null): string {
  const f = view.filters;
  if (f.q !== undefined) {
    const parsed = parseIssueQuery(f.q);
    const sort = parsed.filters.sort ?? sortOfView(view.sort);
    return formatIssueQuery({ ...parsed.filters, sort }, parsed.text);
  }
  const out = emptyFilters();
  out.statuses = f.status ?? [];
  out.priorities = f.priority ?? [];
  if (f.labels?.length) out.labels = [f.labels];
  out.assignees = (f.assignee ?? []).map((id) => (id === meId ? "@me" : id));
  if (f.dueDate === "overdue") out.due = "overdue";
  if (f.dueDate === "due_soon") out.due = "soon";
  if (f.dueDate === "no_date") out.no = ["due"];
  out.sort = sortOfView(view.sort);
  return formatIssueQuery(out);
}

/**
 * What createView / updateView get for a search query: `filters.q` (the whole query, so the view
 * is exactly the list) plus the spec's fields it can express (status, priority, a single label
 * group, due date), for API clients that read views; the sort as {field, direction}.
 */
export function viewFromQuery(q: string): { filters: ViewFilters; sort: SavedView["sort"] } {
  const { filters: f } = parseIssueQuery(q);
  const filters: ViewFilters = { q: q.trim() };
  if (f.statuses.length) filters.status = f.statuses;
  if (f.priorities.length) filters.priority = f.priorities;
  if (f.labels.length === 1) filters.labels = f.labels[0];
  if (f.due === "overdue") filters.dueDate = "overdue";
  else if (f.due === "soon") filters.dueDate = "due_soon";
  else if (f.no.includes("due")) filters.dueDate = "no_date";
  return { filters, sort: viewSortOf(f.sort) };
}

/** The same query in canonical form (for "is this view modified?"). */
export function normalizeQuery(q: string): string {
  const p = parseIssueQuery(q);
  return formatIssueQuery(p.filters, p.text.replace(/\s+/g, " "));
}

/** Keys the filter menus edit. */
export type MenuField = "statuses" | "priorities" | "labels" | "assignees" | "authors";

/** The values a menu shows as checked (labels: every label named in any group). */
export function menuValues(q: string, field: MenuField): string[] {
  const f = parseIssueQuery(q).filters;
  return field === "labels" ? [...new Set(f.labels.flat())] : (f[field] as string[]);
}

/**
 * `q` with one menu's values replaced (labels become one any-of group; an empty list removes
 * the qualifier), keeping the rest of the query, free text included. Also sets no:assignee /
 * no:label when `none` is given.
 */
export function withMenuValues(q: string, field: MenuField, values: string[], none = false): string {
  const p = parseIssueQuery(q);
  const f: IssueQueryFilters = { ...p.filters };
  if (field === "labels") f.labels = values.length ? [values] : [];
  else (f as unknown as Record<MenuField, string[]>)[field] = values;
  const noField: NoField | null = field === "labels" ? "label" : field === "assignees" ? "assignee" : null;
  if (noField) f.no = none ? [...new Set([...f.no, noField])] : f.no.filter((n) => n !== noField);
  return formatIssueQuery(f, p.text);
}

/** `q` with another state (undefined: both) — the Open/Closed tabs. */
export function withState(q: string, state: "open" | "closed" | undefined): string {
  const p = parseIssueQuery(q);
  return formatIssueQuery({ ...p.filters, state }, p.text);
}

/** `q` with another sort (undefined: default newest). */
export function withSort(q: string, sort: IssueSort | undefined): string {
  const p = parseIssueQuery(q);
  return formatIssueQuery({ ...p.filters, sort: sort === "created-desc" ? undefined : sort }, p.text);
}

/** True when `q` narrows more than by state and order (so "Clear filters" has something to clear). */
export function hasQueryFilters(q: string): boolean {
  const p = parseIssueQuery(q);
  return formatIssueQuery({ ...p.filters, state: undefined, sort: undefined }, p.text) !== "";
}

/** `q` without anything but its state (Clear filters keeps the Open/Closed tab). */
export function clearedQuery(q: string): string {
  const state = parseIssueQuery(q).filters.state;
  return state ? `is:${state}` : "";
}

/**
 * Which empty state the list shows when a page has no rows: the repository has no issue at all,
 * nothing matches filters, or only the state tab is set and that state has none.
 */
export function emptyKind(q: string, repoTotal: number): "no-issues" | "no-closed" | "no-open" | "no-match" {
  if (repoTotal === 0) return "no-issues";
  if (hasQueryFilters(q)) return "no-match";
  const state = parseIssueQuery(q).filters.state;
  return state === "closed" ? "no-closed" : state === "open" ? "no-open" : "no-match";
}

/** The list URL for a query, a view and a page (defaults left out). */
export function listHref(base: string, opts: { q?: string; view?: string | null; page?: number }): string {
  const p = new URLSearchParams();
  if (opts.view) p.set("view", opts.view);
  if (opts.q !== undefined) p.set("q", opts.q);
  if (opts.page && opts.page > 1) p.set("page", String(opts.page));
  const s = p.toString();
  return s ? `${base}?${s}` : base;
}

export const SORT_OPTIONS: { key: IssueSort; label: string }[] = [
  { key: "created-desc", label: "Newest" },
  { key: "created-asc", label: "Oldest" },
  { key: "updated-desc", label: "Recently updated" },
  { key: "updated-asc", label: "Least recently updated" },
  { key: "priority", label: "Priority" },
  { key: "due-asc", label: "Due date" },
];
