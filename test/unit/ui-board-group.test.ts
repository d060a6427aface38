/** Board grouping (components/issues/board-group.ts; docs/issues.md "Board") and quick-add's addCard (board-model.ts). */
import { describe, expect, it } from "vitest";
import { NONE, createFields, groupIssues, parseGroup, regroup, type GroupContext } from "@/components/issues/board-group";
import { addCard, columnsFrom, type BoardData } from "@/components/issues/board-model";
import type { Issue } from "@/components/issues/model";

const now = "2026-11-23T12:00:00.000Z";
const bug = { id: "l-bug", name: "bug", color: "#d73a4a", description: null };
const ui = { id: "l-ui", name: "ui", color: "#0075ca", description: null };
const ctx: GroupContext = { labels: [ui, bug], projects: [{ id: "p1", name: "Launch" }] };

function issue(n: number, extra: Partial<Issue> = {}): Issue {
  return {
    id: `id${n}`,
    number: n,
    title: `Issue ${n}`,
    body: null,
    state: "open",
    status: "todo",
    priority: "none",
    dueDate: null,
    estimate: null,
    parentNumber: null,
    projectId: null,
    cycleId: null,
    authorId: null,
    author: null,
    assigneeId: null,
    assignee: null,
    labels: [],
    subIssueCount: 0,
    subIssueProgress: 0,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    closedBy: null,
    ...extra,
  } as Issue;
}

const keys = (groups: { key: string; issues: Issue[] }[]) => Object.fromEntries(groups.map((g) => [g.key, g.issues.map((i) => i.number)]));

describe("board grouping", () => {
  it("parses ?group=, defaulting to status", () => {
    expect(parseGroup("priority")).toBe("priority");
    expect(parseGroup(["label", "x"])).toBe("label");
    expect(parseGroup("nope")).toBe("status");
    expect(parseGroup(undefined)).toBe("status");
  });

  it("groups by priority, assignee, label (a card in each of its labels) and project", () => {
    const alice = { id: "u-a", username: "alice", name: null };
    const list = [
      issue(1, { priority: "high", labels: [bug, ui], assigneeId: "u-a", assignee: alice, projectId: "p1" }),
      issue(2, { priority: "low" }),
    ];
    expect(keys(groupIssues(list, "priority", ctx))).toEqual({ urgent: [], high: [1], medium: [], low: [2], none: [] });
    const byAssignee = groupIssues(list, "assignee", ctx);
    expect(byAssignee.map((g) => g.label)).toEqual(["No assignee", "alice"]);
    expect(keys(byAssignee)).toEqual({ [NONE]: [2], "u-a": [1] });
    const byLabel = groupIssues(list, "label", ctx);
    expect(byLabel.map((g) => g.label)).toEqual(["No label", "bug", "ui"]);
    expect(keys(byLabel)).toEqual({ [NONE]: [2], "l-bug": [1], "l-ui": [1] });
    expect(keys(groupIssues(list, "project", ctx))).toEqual({ [NONE]: [2], p1: [1] });
  });

  it("a drop sets the field; between labels it replaces the dragged-from label", () => {
    const card = issue(1, { labels: [bug] });
    expect(regroup(card, "priority", "none", "high", "High", ctx).priority).toBe("high");
    expect(regroup(card, "assignee", NONE, "u-b", "bob", ctx).assignee).toEqual({ id: "u-b", username: "bob", name: null });
    expect(regroup(issue(3, { assigneeId: "u-b" }), "assignee", "u-b", NONE, "No assignee", ctx).assigneeId).toBeNull();
    expect(regroup(card, "project", NONE, "p1", "Launch", ctx).projectId).toBe("p1");
    expect(regroup(card, "label", "l-bug", "l-ui", "ui", ctx).labels.map((l) => l.name)).toEqual(["ui"]);
    expect(regroup(card, "label", "l-bug", NONE, "No label", ctx).labels).toEqual([]);
    expect(regroup(issue(2), "label", NONE, "l-bug", "bug", ctx).labels.map((l) => l.name)).toEqual(["bug"]);
    expect(regroup(card, "priority", "high", "high", "High", ctx)).toBe(card);
  });

  it("quick-add creates with the column's value", () => {
    expect(createFields("status", "todo", ctx)).toEqual({ status: "todo" });
    expect(createFields("priority", "high", ctx)).toEqual({ priority: "high" });
    expect(createFields("label", "l-ui", ctx)).toEqual({ labels: ["ui"] });
    expect(createFields("project", "p1", ctx)).toEqual({ project: "Launch" });
    expect(createFields("assignee", NONE, ctx)).toEqual({});
  });

  it("addCard puts a new issue at its column's end once, with the totals", () => {
    const data = { columns: [{ status: "todo", count: 3, estimate: 1, issues: [issue(1)], nextCursor: "c" }] } as unknown as BoardData;
    const cols = addCard(columnsFrom(data), issue(9, { estimate: 2 }));
    expect(cols.todo.issues.map((i) => i.number)).toEqual([1, 9]);
    expect([cols.todo.count, cols.todo.estimate]).toEqual([4, 3]);
    expect(addCard(cols, issue(9))).toBe(cols);
  });
});
