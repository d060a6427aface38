/** Swimlanes of the board (components/issues/board-lanes.ts; docs/ui.md "Issues", Board, Rows) and the cycle grouping. */
import { describe, expect, it } from "vitest";
import { NONE, createFields, groupIssues, type GroupContext } from "@/components/issues/board-group";
import { applyMoves, boardQuery, dropPatch, laneIssues, parseRows } from "@/components/issues/board-lanes";
import type { Issue } from "@/components/issues/model";

const bug = { id: "l-bug", name: "bug", color: "#d73a4a", description: null };
const ui = { id: "l-ui", name: "ui", color: "#0075ca", description: null };
const ctx: GroupContext = {
  labels: [ui, bug],
  projects: [{ id: "p1", name: "Launch" }],
  cycles: [
    { id: "c2", number: 2, name: null },
    { id: "c1", number: 1, name: "Sprint 1" },
  ],
};
const alice = { id: "u-a", username: "alice", name: null };
const bob = { id: "u-b", username: "bob", name: null };

function issue(n: number, extra: Partial<Issue> = {}): Issue {
  return {
    id: `id${n}`,
    number: n,
    title: `Issue ${n}`,
    state: "open",
    status: "todo",
    priority: "none",
    projectId: null,
    cycleId: null,
    assigneeId: null,
    assignee: null,
    labels: [],
    ...extra,
  } as Issue;
}

const cells = (lane: { cells: { key: string; issues: Issue[] }[] }) =>
  Object.fromEntries(lane.cells.filter((c) => c.issues.length).map((c) => [c.key, c.issues.map((i) => i.number)]));

describe("board swimlanes", () => {
  const list = [
    issue(1, { status: "todo", assigneeId: "u-a", assignee: alice, labels: [bug, ui], priority: "high" }),
    issue(2, { status: "in_progress", assigneeId: "u-b", assignee: bob }),
    issue(3, { status: "todo" }),
  ];

  it("parses ?rows= (not the columns' field) and writes the query without defaults", () => {
    expect(parseRows("assignee", "status")).toBe("assignee");
    expect(parseRows(["label"], "priority")).toBe("label");
    expect(parseRows("priority", "priority")).toBe("none");
    expect(parseRows("nope", "status")).toBe("none");
    expect(boardQuery("status", "none")).toBe("");
    expect(boardQuery("status", "assignee")).toBe("?rows=assignee");
    expect(boardQuery("priority", "label")).toBe("?group=priority&rows=label");
    expect(boardQuery("label", "label")).toBe("?group=label");
  });

  it("lanes hold the same columns; empty lanes are hidden unless the field is a fixed set", () => {
    const byAssignee = laneIssues(list, "assignee", "status", ctx);
    expect(byAssignee.map((l) => [l.key, l.label, l.count])).toEqual([
      [NONE, "No assignee", 1],
      ["u-a", "alice", 1],
      ["u-b", "bob", 1],
    ]);
    expect(byAssignee.map((l) => l.cells.length)).toEqual(byAssignee.map(() => byAssignee[0].cells.length));
    expect(byAssignee.map(cells)).toEqual([{ todo: [3] }, { todo: [1] }, { in_progress: [2] }]);
    // by project: only "No project" has issues, Launch's lane is hidden
    expect(laneIssues(list, "project", "status", ctx).map((l) => l.key)).toEqual([NONE]);
    // by priority: every priority, empty ones too
    expect(laneIssues(list, "priority", "status", ctx).map((l) => [l.key, l.count])).toEqual([
      ["urgent", 0],
      ["high", 1],
      ["medium", 0],
      ["low", 0],
      ["none", 2],
    ]);
    // assignee columns come from all issues, so every lane has alice's and bob's column
    const byLabel = laneIssues(list, "label", "assignee", ctx);
    expect(byLabel.map((l) => l.key)).toEqual([NONE, "l-bug", "l-ui"]);
    expect(byLabel.map((l) => l.cells.map((c) => c.key))).toEqual(byLabel.map(() => [NONE, "u-a", "u-b"]));
    expect(byLabel.map(cells)).toEqual([{ [NONE]: [3], "u-b": [2] }, { "u-a": [1] }, { "u-a": [1] }]);
  });

  it("a drop sends one patch with the column's and the lane's change", () => {
    const card = list[0];
    const moves = [
      { field: "status" as const, from: "todo", to: "done", toLabel: "Done" },
      { field: "assignee" as const, from: "u-a", to: "u-b", toLabel: "bob" },
    ];
    expect(dropPatch(card, moves)).toEqual({ status: "done", assigneeId: "u-b" });
    const moved = applyMoves(card, moves, ctx);
    expect([moved.status, moved.assigneeId, moved.assignee?.username]).toEqual(["done", "u-b", "bob"]);
    expect(dropPatch(card, [{ field: "assignee", from: "u-a", to: NONE, toLabel: "No assignee" }])).toEqual({ assigneeId: null });
    expect(dropPatch(card, [{ field: "label", from: "l-bug", to: NONE, toLabel: "No label" }])).toEqual({ removeLabels: ["l-bug"] });
    expect(dropPatch(list[2], [{ field: "label", from: NONE, to: "l-ui", toLabel: "ui" }])).toEqual({ addLabels: ["l-ui"] });
    // already labelled ui: moving from the bug lane to the ui lane only removes bug
    expect(dropPatch(card, [{ field: "label", from: "l-bug", to: "l-ui", toLabel: "ui" }])).toEqual({ removeLabels: ["l-bug"] });
    expect(dropPatch(card, [{ field: "cycle", from: NONE, to: "c1", toLabel: "Sprint 1" }])).toEqual({ cycleId: "c1" });
    expect(dropPatch(card, [{ field: "priority", from: "high", to: "high", toLabel: "High" }])).toBeNull();
  });

  it("groups by cycle, in cycle order, and quick-adds into a cycle by number", () => {
    const byCycle = groupIssues([issue(4, { cycleId: "c2" }), issue(5)], "cycle", ctx);
    expect(byCycle.map((g) => [g.key, g.label, g.issues.map((i) => i.number)])).toEqual([
      [NONE, "No cycle", [5]],
      ["c1", "Sprint 1", []],
      ["c2", "Cycle 2", [4]],
    ]);
    expect(createFields("cycle", "c2", ctx)).toEqual({ cycle: 2 });
  });
});
