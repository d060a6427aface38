/**
 * Board grouping (docs/issues.md "Board", docs/ui.md "Issues"): the board's columns by status (the
 * paged board, ./board.tsx) or by priority, assignee, label, project or cycle (./board-grouped.tsx),
 * kept in the URL as `?group=` (swimlanes, a second grouping in rows: ./board-lanes.ts). Pure (no React): which columns a grouping has, which cards each shows,
 * what a drop between two columns changes on the card, and the fields quick-add creates with.
 * Unit-tested in test/unit/ui-board-group.test.ts.
 */
import { PRIORITIES, priorityLabel, statusLabel, STATUSES, type Issue } from "./model";

export const GROUP_FIELDS = ["status", "priority", "assignee", "label", "project", "cycle"] as const;
export type GroupField = (typeof GROUP_FIELDS)[number];
export const GROUP_LABELS: Record<GroupField, string> = {
  status: "Status",
  priority: "Priority",
  assignee: "Assignee",
  label: "Label",
  project: "Project",
  cycle: "Cycle",
};

/** The column key of "no value" (no assignee, no label, no project, no cycle). */
export const NONE = "none";

/** `?group=` as a grouping; anything else (missing, unknown, a list) is "status". */
export function parseGroup(v: unknown): GroupField {
  const s = Array.isArray(v) ? v[0] : v;
  return GROUP_FIELDS.includes(s as GroupField) ? (s as GroupField) : "status";
}

/** The repository's labels, projects and cycles, for their columns (those without issues get one too). */
export interface GroupContext {
  labels: { id: string; name: string; color: string; description: string | null }[];
  projects: { id: string; name: string }[];
  /** Loaded only when grouping by cycle. */
  cycles?: { id: string; number: number; name: string | null }[];
}

/** A cycle's column title: its name, or "Cycle N". */
export const cycleLabel = (c: { number: number; name: string | null }) => c.name ?? `Cycle ${c.number}`;

/** One column of a grouped board. */
export interface Group {
  key: string;
  label: string;
  issues: Issue[];
}

/**
 * The column keys and titles of grouping `field` for `issues`, in order: statuses in board order;
 * priorities most urgent first; "No assignee" then the assignees of `issues` by username; "No
 * label" then every label by name; "No project" then every project by name; "No cycle" then every
 * cycle by number.
 */
export function groupKeys(issues: Issue[], field: GroupField, ctx: GroupContext): { key: string; label: string }[] {
  switch (field) {
    case "status":
      return STATUSES.map((s) => ({ key: s.key, label: statusLabel(s.key) }));
    case "priority":
      return PRIORITIES.map((p) => ({ key: p.key, label: priorityLabel(p.key) }));
    case "assignee": {
      const people = new Map<string, string>();
      for (const i of issues) if (i.assignee && i.assigneeId) people.set(i.assigneeId, i.assignee.username);
      const sorted = [...people].sort((a, b) => a[1].localeCompare(b[1])).map(([key, label]) => ({ key, label }));
      return [{ key: NONE, label: "No assignee" }, ...sorted];
    }
    case "label": {
      const labels = [...ctx.labels].sort((a, b) => a.name.localeCompare(b.name)).map((l) => ({ key: l.id, label: l.name }));
      return [{ key: NONE, label: "No label" }, ...labels];
    }
    case "project":
      return [{ key: NONE, label: "No project" }, ...ctx.projects.map((p) => ({ key: p.id, label: p.name }))];
    case "cycle": {
      const cycles = [...(ctx.cycles ?? [])].sort((a, b) => a.number - b.number).map((c) => ({ key: c.id, label: cycleLabel(c) }));
      return [{ key: NONE, label: "No cycle" }, ...cycles];
    }
  }
}

/** The column keys `issue` is in when grouped by `field` (one, or one per label). */
export function keysOf(issue: Issue, field: GroupField): string[] {
  switch (field) {
    case "status":
      return [issue.status];
    case "priority":
      return [issue.priority];
    case "assignee":
      return [issue.assigneeId ?? NONE];
    case "label":
      return issue.labels.length ? issue.labels.map((l) => l.id) : [NONE];
    case "project":
      return [issue.projectId ?? NONE];
    case "cycle":
      return [issue.cycleId ?? NONE];
  }
}

/** `issues` sorted into the columns `keys` of grouping `field` (cards keep the order of `issues`). */
export function fillGroups(issues: Issue[], keys: { key: string; label: string }[], field: GroupField): Group[] {
  const groups = keys.map((k) => ({ ...k, issues: [] as Issue[] }));
  const byKey = new Map(groups.map((g) => [g.key, g]));
  for (const issue of issues) for (const k of keysOf(issue, field)) byKey.get(k)?.issues.push(issue);
  return groups;
}

/**
 * The columns of `issues` grouped by `field`, in the order of `groupKeys` (a card with several
 * labels is in each of their columns). Cards keep the order of `issues`.
 */
export function groupIssues(issues: Issue[], field: GroupField, ctx: GroupContext): Group[] {
  return fillGroups(issues, groupKeys(issues, field, ctx), field);
}

/**
 * The card `issue` as it looks after a drop from column `from` to column `to` of grouping
 * `field`, titled `toLabel` (shown at once, before the server answers): priority / assignee / project set to the
 * column's value ("none" clears assignee and project); for labels the `from` label is replaced by
 * the `to` label (from "No label" it is added; to "No label" the `from` label is removed). Returns
 * `issue` itself when nothing changes.
 */
export function regroup(issue: Issue, field: GroupField, from: string, to: string, toLabel: string, ctx: GroupContext): Issue {
  if (from === to) return issue;
  switch (field) {
    case "status":
      return { ...issue, status: to };
    case "priority":
      return { ...issue, priority: to as Issue["priority"] };
    case "assignee":
      return to === NONE
        ? { ...issue, assigneeId: null, assignee: null }
        : { ...issue, assigneeId: to, assignee: { id: to, username: toLabel, name: null } };
    case "project":
      return { ...issue, projectId: to === NONE ? null : to };
    case "cycle":
      return { ...issue, cycleId: to === NONE ? null : to };
    case "label": {
      const kept = issue.labels.filter((l) => l.id !== from);
      const added = ctx.labels.find((l) => l.id === to);
      if (!added || kept.some((l) => l.id === to)) return { ...issue, labels: kept };
      return { ...issue, labels: [...kept, added] };
    }
  }
}

/** issues.create's fields for a card quick-added to column `key` of grouping `field` (project by name, cycle by number). */
export function createFields(field: GroupField, key: string, ctx: GroupContext): Record<string, string | number | string[]> {
  if (key === NONE) return {};
  switch (field) {
    case "status":
      return { status: key };
    case "priority":
      return { priority: key };
    case "assignee":
      return { assigneeId: key };
    case "label": {
      const label = ctx.labels.find((l) => l.id === key);
      return label ? { labels: [label.name] } : {};
    }
    case "project": {
      const project = ctx.projects.find((p) => p.id === key);
      return project ? { project: project.name } : {};
    }
    case "cycle": {
      const cycle = ctx.cycles?.find((c) => c.id === key);
      return cycle ? { cycle: cycle.number } : {};
    }
  }
}
