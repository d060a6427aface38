/**
 * The issue tracker's vocabulary and pure rules (no database): statuses and their categories,
 * priorities, activity actions, due-date windows (UTC calendar dates), board positions and
 * sub-issue progress. Unit-tested in test/unit/issues-model.test.ts. Rules: the spec and
 * docs/issues.md.
 */

/** Workflow categories, Linear-style. completed and canceled mean state "closed". */
export type StatusCategory = "triage" | "backlog" | "unstarted" | "started" | "completed" | "canceled";

export interface StatusDef {
  /** The value stored on issues and accepted by updateStatus, e.g. "in_progress". */
  key: string;
  label: string;
  category: StatusCategory;
  /** Column order on the board, 0-based. */
  order: number;
  /** #rrggbb, for the UI. */
  color: string;
}

/** Every repository's statuses, the same for all (not customisable; docs/issues.md "Statuses, categories and state"). */
export const DEFAULT_STATUSES: readonly StatusDef[] = [
  { key: "triage", label: "Triage", category: "triage", order: 0, color: "#f59e0b" },
  { key: "backlog", label: "Backlog", category: "backlog", order: 1, color: "#9ca3af" },
  { key: "todo", label: "Todo", category: "unstarted", order: 2, color: "#6b7280" },
  { key: "in_progress", label: "In Progress", category: "started", order: 3, color: "#3b82f6" },
  { key: "in_review", label: "In Review", category: "started", order: 4, color: "#8b5cf6" },
  { key: "done", label: "Done", category: "completed", order: 5, color: "#22c55e" },
  { key: "canceled", label: "Canceled", category: "canceled", order: 6, color: "#ef4444" },
];
export const STATUS_KEYS = DEFAULT_STATUSES.map((s) => s.key);

export function statusDef(key: string): StatusDef | undefined {
  return DEFAULT_STATUSES.find((s) => s.key === key);
}

/** The state a status implies: closed for completed/canceled categories, open otherwise. */
export function stateForStatus(key: string): "open" | "closed" {
  const category = statusDef(key)?.category;
  return category === "completed" || category === "canceled" ? "closed" : "open";
}

/** Priorities in order, most urgent first. Stored as their index (0 urgent … 4 none). */
export const PRIORITIES = [
  { key: "urgent", label: "Urgent" },
  { key: "high", label: "High" },
  { key: "medium", label: "Medium" },
  { key: "low", label: "Low" },
  { key: "none", label: "No priority" },
] as const;
export type PriorityKey = (typeof PRIORITIES)[number]["key"];
export const PRIORITY_KEYS = PRIORITIES.map((p) => p.key) as [PriorityKey, ...PriorityKey[]];

export function priorityRank(key: PriorityKey): number {
  return PRIORITY_KEYS.indexOf(key);
}
export function priorityKey(rank: number): PriorityKey {
  return PRIORITY_KEYS[rank] ?? "none";
}

/**
 * Spec "Activity entry" action values, plus `edited` (title/body changes) and `project_set` /
 * `cycle_set` (moves between projects and cycles, old → new name, null for none; docs/issues.md).
 */
export const ACTIVITY_ACTIONS = [
  "created",
  "status_changed",
  "priority_changed",
  "assigned",
  "unassigned",
  "labeled",
  "unlabeled",
  "due_date_set",
  "due_date_cleared",
  "estimate_set",
  "parent_set",
  "parent_removed",
  "relation_added",
  "relation_removed",
  "commented",
  "edited",
  "project_set",
  "cycle_set",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/**
 * How a cycle is named in activity entries: "Cycle 3", or "Cycle 3 · Sprint name" when it has a
 * name (the number is what issues.create and the cycle pages use, the name what people read).
 */
export function cycleActivityName(cycle: { number: number; name: string | null }): string {
  return cycle.name ? `Cycle ${cycle.number} · ${cycle.name}` : `Cycle ${cycle.number}`;
}

export const RELATION_TYPES = ["blocks", "relates_to", "duplicates"] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

// ---- due dates (UTC calendar dates as YYYY-MM-DD text) ----

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Normalises an ISO date ("2026-03-01") or date-time ("2026-03-01T10:00:00Z", taken in UTC) to
 * YYYY-MM-DD; null when it is not a real calendar date.
 */
export function normalizeDueDate(value: string): string | null {
  const m = DATE_RE.exec(value);
  if (m) {
    const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
    return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3] ? value : null;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString().slice(0, 10);
}

/** Today's UTC date as YYYY-MM-DD. */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** `date` (YYYY-MM-DD) plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Overdue: open and due strictly before today (UTC). Returns the `dueDate < before` bound. */
export function overdueWindow(now: Date = new Date()): { before: string } {
  return { before: utcToday(now) };
}

/** Due soon: open and due in [today, today + days] (UTC), today included. */
export function dueSoonWindow(days: number, now: Date = new Date()): { from: string; to: string } {
  const from = utcToday(now);
  return { from, to: addDays(from, days) };
}

export function isOverdue(issue: { state: string; dueDate: string | null }, now: Date = new Date()): boolean {
  return issue.state === "open" && issue.dueDate !== null && issue.dueDate < overdueWindow(now).before;
}

export function isDueSoon(issue: { state: string; dueDate: string | null }, days: number, now: Date = new Date()): boolean {
  const w = dueSoonWindow(days, now);
  return issue.state === "open" && issue.dueDate !== null && issue.dueDate >= w.from && issue.dueDate <= w.to;
}

// ---- board positions ----

/** Cards per page of a board column (issues.board / issues.boardColumn `limit`): default and maximum (docs/issues.md "Board"). */
export const BOARD_PAGE_DEFAULT = 50;
export const BOARD_PAGE_MAX = 100;

/** Gap between neighbours when a column is appended to or renumbered. */
export const POSITION_STEP = 1024;
const MIN_GAP = 1e-6;

/**
 * A position strictly between `prev` and `next` (either may be null: the column's start or
 * end). Returns null when the gap is too small and the column must be renumbered first.
 */
export function positionBetween(prev: number | null, next: number | null): number | null {
  if (prev === null && next === null) return POSITION_STEP;
  if (prev === null) return next! - POSITION_STEP;
  if (next === null) return prev + POSITION_STEP;
  if (next - prev < MIN_GAP) return null;
  const mid = (prev + next) / 2;
  return mid > prev && mid < next ? mid : null;
}

/** Positions after renumbering a column of `count` issues: STEP, 2·STEP, … */
export function renumberedPositions(count: number): number[] {
  return Array.from({ length: count }, (_, i) => (i + 1) * POSITION_STEP);
}

// ---- sub-issues ----

/** {total, completed, percentage}: completed = closed sub-issues; integer percentage 0–100, 0 when none. */
export function subIssueProgress(total: number, completed: number): { total: number; completed: number; percentage: number } {
  return { total, completed, percentage: total === 0 ? 0 : Math.floor((completed * 100) / total) };
}
