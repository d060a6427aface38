/**
 * Pure helpers of the issue pages (no React, no database): list paging, activity entries as
 * sentences, and board reordering anchors (the list's search query: ./query-state.ts). Unit-tested in test/unit/ui-issues.test.ts.
 */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import { DEFAULT_STATUSES, PRIORITIES, STATUS_KEYS, PRIORITY_KEYS, isDueSoon, isOverdue, statusDef } from "@/lib/issues/model";

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

// ---- the list (its query state: ./query-state.ts) ----

/** Page count for `total` matching issues (at least 1), and the requested page clamped to it. */
export function pagesFor(total: number, page: number): { page: number; pageCount: number } {
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return { page: Math.min(Math.max(1, page), pageCount), pageCount };
}

/** Flattens listGroupedByStatus into one list. */
export function flattenGrouped(grouped: Grouped): Issue[] {
  return Object.values(grouped).flat() as Issue[];
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
const RELATION_TEXT: Record<string, string> = {
  blocks: "blocks",
  blocked_by: "blocked by",
  relates_to: "is related to",
  duplicates: "duplicates",
  duplicated_by: "duplicated by",
};
const RELATION_ADDED: Record<string, string> = {
  blocks: "marked this as blocking",
  blocked_by: "marked this as blocked by",
  duplicates: "marked this as a duplicate of",
  duplicated_by: "marked this as duplicated by",
  relates_to: "marked this as related to",
};

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
      if (a.field === "pull_request") return s(`closed this issue by merging ${a.newValue ?? "a pull request"}`);
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
      return s(
        a.oldValue
          ? `changed the due date from ${formatDueDate(a.oldValue)} to ${formatDueDate(a.newValue ?? "")}`
          : `set the due date to ${formatDueDate(a.newValue ?? "")}`,
      );
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
    case "project_set":
    case "cycle_set":
      return s(planMoveText(a.action === "project_set" ? "project " : "", a.oldValue, a.newValue));
    case "edited":
      return a.field === "title" ? s(`changed the title from "${a.oldValue ?? ""}" to "${a.newValue ?? ""}"`) : s("edited the description");
    default:
      return null;
  }
}

/**
 * GitHub's and Linear's wording for a project or cycle move: "added this to project X", "moved
 * this from project X to project Y", "removed this from project X". `prefix` is "project " for
 * projects and "" for cycles, whose stored names already read "Cycle 3" (cycleActivityName).
 */
function planMoveText(prefix: string, from: string | null, to: string | null): string {
  if (from && to) return `moved this from ${prefix}${from} to ${prefix}${to}`;
  if (to) return `added this to ${prefix}${to}`;
  return from ? `removed this from ${prefix}${from}` : `removed this from its ${prefix ? "project" : "cycle"}`;
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
  const oldestFirst = [...activity]
    .reverse()
    .filter((a) => a.action !== "commented" && !(a.action === "created" && a.newValue !== "triage"));
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
