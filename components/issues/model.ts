/**
 * Pure helpers of the issue pages (no React, no database): the list's URL filters, in-memory
 * filtering/paging of a repository's issues, view filters from URL filters, activity entries as
 * sentences, and board reordering anchors. Unit-tested in test/unit/ui-issues.test.ts.
 */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import { DEFAULT_STATUSES, PRIORITIES, STATUS_KEYS, PRIORITY_KEYS, isDueSoon, isOverdue, stateForStatus, statusDef } from "@/server/services/issues/model";

type Outputs = inferRouterOutputs<AppRouter>["issues"];
export type Issue = Outputs["list"][number];
export type IssueDetail = Outputs["get"];
export type Label = Outputs["listLabels"][number];
export type Comment = Outputs["comments"][number];
export type Activity = Outputs["getActivity"][number];
export type Template = Outputs["listTemplates"][number];
export type SavedView = Outputs["listViews"][number];
export type ViewFilters = SavedView["filters"];
export type Grouped = Outputs["listGroupedByStatus"];

export { DEFAULT_STATUSES as STATUSES, PRIORITIES, STATUS_KEYS, PRIORITY_KEYS };

export const PAGE_SIZE = 25;
/** "Due soon" on the list: open and due within the next 7 days (as the API's default). */
export const DUE_SOON_DAYS = 7;

export function statusLabel(key: string): string {
  return statusDef(key)?.label ?? key;
}

export function priorityLabel(key: string): string {
  return PRIORITIES.find((p) => p.key === key)?.label ?? key;
}

// ---- list filters in the URL ----

export interface ListFilters {
  state: "open" | "closed";
  status?: string;
  priority?: string;
  /** Only "me" (the signed-in user). */
  assignee?: "me";
  label?: string;
  due?: "overdue" | "due_soon";
  page: number;
}

type Query = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Reads the list filters from a page's searchParams; unknown values are ignored. */
export function parseListFilters(q: Query): ListFilters {
  const status = first(q.status);
  const priority = first(q.priority);
  const label = first(q.label)?.trim();
  const due = first(q.due);
  const page = Number.parseInt(first(q.page) ?? "1", 10);
  const f: ListFilters = { state: first(q.state) === "closed" ? "closed" : "open", page: Number.isFinite(page) && page > 0 ? Math.min(page, 10_000) : 1 };
  if (status && STATUS_KEYS.includes(status)) {
    f.status = status;
    // a status implies its state: "Done" issues are closed
    f.state = stateForStatus(status);
  }
  if (priority && (PRIORITY_KEYS as readonly string[]).includes(priority)) f.priority = priority;
  if (first(q.assignee) === "me") f.assignee = "me";
  if (label) f.label = label;
  if (due === "overdue" || due === "due_soon") f.due = due;
  return f;
}

/** The query string (with "?", or "") for `filters` with `patch` applied; page resets unless patched. */
export function listQuery(filters: ListFilters, patch: Partial<Record<keyof ListFilters, string | number | undefined>> = {}): string {
  const merged: Record<string, string | number | undefined> = { ...filters, page: undefined, ...patch };
  const p = new URLSearchParams();
  for (const key of ["state", "status", "priority", "assignee", "label", "due", "page"] as const) {
    const v = merged[key];
    if (v === undefined || v === "") continue;
    if (key === "state" && v === "open") continue;
    if (key === "page" && Number(v) <= 1) continue;
    p.set(key, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** True when any filter other than state/page is set. */
export function hasFilters(f: ListFilters): boolean {
  return Boolean(f.status || f.priority || f.assignee || f.label || f.due);
}

/** The issues.list / issues.counts inputs for a list page's URL filters (the API does the filtering). */
export interface ListInputs {
  /** Filters shared by issues.list and issues.counts (no state, no paging). */
  filters: { status?: string; priority?: (typeof PRIORITY_KEYS)[number]; assignee?: string; labels?: string[]; overdue?: boolean; dueSoon?: boolean };
  state: "open" | "closed";
  limit: number;
  offset: number;
  /** True when nothing can match (assigned to "me" while signed out): skip the queries. */
  empty: boolean;
}

/** Maps the list's URL filters to API inputs; `me` is the signed-in user's id. Pages hold PAGE_SIZE issues. */
export function listInputs(f: ListFilters, me: string | null): ListInputs {
  const filters: ListInputs["filters"] = {};
  if (f.status) filters.status = f.status;
  if (f.priority) filters.priority = f.priority as (typeof PRIORITY_KEYS)[number]; // parseListFilters keeps only known keys
  if (f.assignee === "me" && me) filters.assignee = me;
  if (f.label) filters.labels = [f.label];
  if (f.due === "overdue") filters.overdue = true;
  if (f.due === "due_soon") filters.dueSoon = true;
  return { filters, state: f.state, limit: PAGE_SIZE, offset: (f.page - 1) * PAGE_SIZE, empty: f.assignee === "me" && !me };
}

/** Page count for `total` matching issues (at least 1), and the requested page clamped to it. */
export function pagesFor(total: number, page: number): { page: number; pageCount: number } {
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return { page: Math.min(Math.max(1, page), pageCount), pageCount };
}

/** Flattens listGroupedByStatus into one list. */
export function flattenGrouped(grouped: Grouped): Issue[] {
  return Object.values(grouped).flat() as Issue[];
}

/**
 * A saved view's filters from the list's URL filters. The list's open/closed toggle becomes the
 * statuses of that state when no status is chosen (views filter by status, not state).
 */
export function viewFiltersFrom(f: ListFilters, me: string | null): ViewFilters {
  const out: ViewFilters = {};
  if (f.status) out.status = [f.status];
  else out.status = STATUS_KEYS.filter((k) => stateForStatus(k) === f.state);
  if (f.priority) out.priority = [f.priority as (typeof PRIORITY_KEYS)[number]];
  if (f.assignee === "me" && me) out.assignee = [me];
  if (f.label) out.labels = [f.label];
  if (f.due) out.dueDate = f.due;
  return out;
}

/** "Status: Todo, In Progress · Labels: bug" — a short description of a view's filters. */
export function describeViewFilters(filters: ViewFilters, meId: string | null): string {
  const parts: string[] = [];
  if (filters.status?.length) parts.push(`Status: ${filters.status.map(statusLabel).join(", ")}`);
  if (filters.priority?.length) parts.push(`Priority: ${filters.priority.map(priorityLabel).join(", ")}`);
  if (filters.assignee?.length) parts.push(`Assignee: ${filters.assignee.map((a) => (a === meId ? "me" : "someone")).join(", ")}`);
  if (filters.labels?.length) parts.push(`Labels: ${filters.labels.join(", ")}`);
  if (filters.dueDate) parts.push({ overdue: "Overdue", due_soon: "Due soon", no_date: "No due date" }[filters.dueDate]);
  return parts.join(" · ") || "All issues";
}

// ---- due dates ----

export type DueState = "overdue" | "soon" | "later" | "none";

export function dueState(issue: { state: string; dueDate: string | null }, now = new Date()): DueState {
  if (!issue.dueDate) return "none";
  if (isOverdue(issue, now)) return "overdue";
  if (isDueSoon(issue, DUE_SOON_DAYS, now)) return "soon";
  return "later";
}

/** "21 Nov" this year, "21 Nov 2027" otherwise (UTC calendar date). */
export function formatDueDate(date: string, now = new Date()): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  const sameYear = d.getUTCFullYear() === now.getUTCFullYear();
  return d.toLocaleDateString("en-GB", { day: "numeric", month: "short", ...(sameYear ? {} : { year: "numeric" }), timeZone: "UTC" });
}

// ---- activity as sentences ----

export interface Sentence {
  /** Username of the actor, or "someone" for a deleted user. */
  actor: string;
  /** What they did, e.g. "changed status from Backlog to In Progress". */
  text: string;
}

/** Relation types as an activity entry's `field` names them; blocked_by and duplicated_by are how the target issue records them. */
const RELATION_TEXT: Record<string, string> = { blocks: "blocks", blocked_by: "blocked by", relates_to: "is related to", duplicates: "duplicates", duplicated_by: "duplicated by" };
const RELATION_ADDED: Record<string, string> = { blocks: "marked this as blocking", blocked_by: "marked this as blocked by", duplicates: "marked this as a duplicate of", duplicated_by: "marked this as duplicated by", relates_to: "marked this as related to" };

/**
 * One activity entry as a sentence. `users` maps user ids to usernames (assignee entries store
 * ids). Returns null for entries the timeline shows otherwise (comments) or does not show.
 */
export function activitySentence(a: Activity, users: Record<string, string> = {}): Sentence | null {
  const actor = a.actor?.username ?? "someone";
  const user = (id: string | null) => (id ? (users[id] ?? "a user") : "nobody");
  const s = (text: string): Sentence => ({ actor, text });
  switch (a.action) {
    case "created":
      return s(a.newValue === "triage" ? "opened this issue in Triage" : `created this issue in ${statusLabel(a.newValue ?? "backlog")}`);
    case "status_changed":
      if (a.field === "state") return a.newValue === "closed" ? s("closed this issue") : s("reopened this issue");
      return s(`changed status from ${statusLabel(a.oldValue ?? "")} to ${statusLabel(a.newValue ?? "")}`);
    case "priority_changed":
      return s(`changed priority from ${priorityLabel(a.oldValue ?? "none")} to ${priorityLabel(a.newValue ?? "none")}`);
    case "assigned":
      return a.newValue && a.newValue === a.actor?.id ? s("self-assigned this") : s(`assigned ${user(a.newValue)}`);
    case "unassigned":
      return a.oldValue && a.oldValue === a.actor?.id ? s("removed their assignment") : s(`unassigned ${user(a.oldValue)}`);
    case "labeled":
      return s(`added the ${a.newValue} label`);
    case "unlabeled":
      return s(`removed the ${a.oldValue ?? a.newValue} label`);
    case "due_date_set":
      return s(a.oldValue ? `changed the due date from ${formatDueDate(a.oldValue)} to ${formatDueDate(a.newValue ?? "")}` : `set the due date to ${formatDueDate(a.newValue ?? "")}`);
    case "due_date_cleared":
      return s("removed the due date");
    case "estimate_set":
      if (a.newValue === null) return s("removed the estimate");
      return s(a.oldValue ? `changed the estimate from ${a.oldValue} to ${a.newValue} points` : `set the estimate to ${a.newValue} points`);
    case "parent_set":
      return s(`made this a sub-issue of #${a.newValue}`);
    case "parent_removed":
      return s(`removed this from parent #${a.oldValue}`);
    case "relation_added":
      return s(`${RELATION_ADDED[a.field ?? ""] ?? "marked this as related to"} #${a.newValue}`);
    case "relation_removed":
      return s(`removed the relation "${RELATION_TEXT[a.field ?? ""] ?? a.field} #${a.newValue ?? a.oldValue}"`);
    case "edited":
      return a.field === "title" ? s(`changed the title from "${a.oldValue ?? ""}" to "${a.newValue ?? ""}"`) : s("edited the description");
    default:
      return null;
  }
}

export interface TimelineEvent {
  entry: Activity;
  /** For an open/closed flip: the status change written with it (shown in the same line). */
  status?: Activity;
}

/**
 * Activity entries (newest first, as the API returns them) → events oldest first, with a status
 * change and the open/closed flip it caused (same transaction: same actor and time) as one event,
 * and without what the timeline shows otherwise (comments) or not at all (creation outside triage).
 */
export function timelineEvents(activity: Activity[]): TimelineEvent[] {
  const oldestFirst = [...activity].reverse().filter((a) => a.action !== "commented" && !(a.action === "created" && a.newValue !== "triage"));
  const sameChange = (a: Activity, b: Activity) => a.createdAt === b.createdAt && (a.actor?.id ?? null) === (b.actor?.id ?? null);
  const out: TimelineEvent[] = [];
  const used = new Set<string>();
  for (const a of oldestFirst) {
    if (used.has(a.id)) continue;
    if (a.action === "status_changed" && a.field === "status") {
      const flip = oldestFirst.find((b) => !used.has(b.id) && b.action === "status_changed" && b.field === "state" && sameChange(a, b));
      if (flip) {
        used.add(flip.id);
        out.push({ entry: flip, status: a });
        continue;
      }
    }
    if (a.action === "status_changed" && a.field === "state") {
      const status = oldestFirst.find((b) => !used.has(b.id) && b.action === "status_changed" && b.field === "status" && sameChange(a, b));
      if (status) used.add(status.id);
      out.push(status ? { entry: a, status } : { entry: a });
      continue;
    }
    out.push({ entry: a });
  }
  return out;
}

/** The sentence of a timeline event: a flip with its status reads "closed this issue as Done". */
export function eventSentence(e: TimelineEvent, users: Record<string, string> = {}): Sentence | null {
  const s = activitySentence(e.entry, users);
  if (!s || !e.status?.newValue) return s;
  const label = statusLabel(e.status.newValue);
  return { actor: s.actor, text: e.entry.newValue === "closed" ? `closed this issue as ${label}` : `reopened this issue in ${label}` };
}

// ---- board ----

/** The move anchor for an issue dropped at `index` of `column` (the column's numbers without it). */
export function moveAnchor(column: number[], index: number): { beforeNumber?: number; afterNumber?: number } {
  if (column.length === 0) return {};
  if (index <= 0) return { beforeNumber: column[0] };
  return { afterNumber: column[Math.min(index, column.length) - 1] };
}

// ---- URLs ----

const enc = encodeURIComponent;
export function issuesUrl(owner: string, repo: string, sub: "" | "new" | "board" | "triage" = ""): string {
  return `/${enc(owner)}/${enc(repo)}/issues${sub ? `/${sub}` : ""}`;
}
export function issueUrl(owner: string, repo: string, number: number): string {
  return `/${enc(owner)}/${enc(repo)}/issues/${number}`;
}
