/**
 * Swimlanes of the board (docs/ui.md "Issues", Board, "Rows"): a second grouping that splits the
 * grouped board (./board-group.ts) into horizontal lanes, each with the same columns, kept in the
 * URL as `?rows=`. Pure (no React): which lanes there are, which cards each cell shows, and the one
 * issues.bulkUpdate patch a drop sends (column and lane field together). Unit-tested in
 * test/unit/ui-board-lanes.test.ts.
 */
import type { Issue } from "./model";
import {
  GROUP_FIELDS,
  NONE,
  fillGroups,
  groupIssues,
  groupKeys,
  regroup,
  type Group,
  type GroupContext,
  type GroupField,
} from "./board-group";

/** "Rows": no lanes, or lanes by one of the grouping fields. */
export const ROW_FIELDS = ["none", ...GROUP_FIELDS] as const;
export type RowField = (typeof ROW_FIELDS)[number];

/** Fields whose values are a fixed set: their empty lanes are shown (others' are hidden). */
const FIXED: readonly GroupField[] = ["status", "priority"];

/** `?rows=` as lanes: a grouping field other than the columns' `group`; anything else is "none". */
export function parseRows(v: unknown, group: GroupField): RowField {
  const s = Array.isArray(v) ? v[0] : v;
  return s !== group && ROW_FIELDS.includes(s as RowField) ? (s as RowField) : "none";
}

/** The board's query string for columns `group` and rows `rows` ("" for status without lanes, the defaults). */
export function boardQuery(group: GroupField, rows: RowField): string {
  const q = new URLSearchParams();
  if (group !== "status") q.set("group", group);
  if (rows !== "none" && rows !== group) q.set("rows", rows);
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** One lane: its key and title, how many issues it holds, and its cells (the board's columns). */
export interface Lane {
  key: string;
  label: string;
  count: number;
  cells: Group[];
}

/**
 * `issues` in lanes by `rows` (in the order of ./board-group.ts `groupKeys`; a card with several
 * labels is in each of their lanes), each lane holding every column of `cols` (the columns are
 * the same in every lane: computed from all `issues`). Empty lanes are left out unless `rows` is a
 * fixed set (status, priority). Cards keep the order of `issues`.
 */
export function laneIssues(issues: Issue[], rows: GroupField, cols: GroupField, ctx: GroupContext): Lane[] {
  const colKeys = groupKeys(issues, cols, ctx);
  return groupIssues(issues, rows, ctx)
    .filter((lane) => lane.issues.length > 0 || FIXED.includes(rows))
    .map((lane) => ({ key: lane.key, label: lane.label, count: lane.issues.length, cells: fillGroups(lane.issues, colKeys, cols) }));
}

/** One field's change in a drop: grouping `field`, from column/lane key `from` to `to`. */
export interface Move {
  field: GroupField;
  from: string;
  to: string;
  /** The title of `to` (an assignee's username, shown before the server answers). */
  toLabel: string;
}

/** issues.bulkUpdate's `patch` (the fields a drop may change). */
export interface DropPatch {
  status?: string;
  priority?: Issue["priority"];
  assigneeId?: string | null;
  projectId?: string | null;
  cycleId?: string | null;
  addLabels?: string[];
  removeLabels?: string[];
}

/**
 * The issues.bulkUpdate patch of a drop of `issue` that makes `moves` (the column's and the
 * lane's; a move with `from === to` changes nothing), or null when nothing changes. "none" clears
 * assignee, project and cycle; for labels the `from` label is removed and the `to` label added
 * (unless the card has it already).
 */
export function dropPatch(issue: Issue, moves: Move[]): DropPatch | null {
  const patch: DropPatch = {};
  for (const { field, from, to } of moves) {
    if (from === to) continue;
    const value = to === NONE ? null : to;
    if (field === "status") patch.status = to;
    else if (field === "priority") patch.priority = to as Issue["priority"];
    else if (field === "assignee") patch.assigneeId = value;
    else if (field === "project") patch.projectId = value;
    else if (field === "cycle") patch.cycleId = value;
    else {
      if (value && !issue.labels.some((l) => l.id === value)) patch.addLabels = [value];
      if (from !== NONE) patch.removeLabels = [from];
    }
  }
  return Object.keys(patch).length ? patch : null;
}

/** The card `issue` as it looks after `moves` (./board-group.ts `regroup` for each), shown before the server answers. */
export function applyMoves(issue: Issue, moves: Move[], ctx: GroupContext): Issue {
  return moves.reduce((card, m) => regroup(card, m.field, m.from, m.to, m.toLabel, ctx), issue);
}
