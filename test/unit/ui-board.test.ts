/** The paged board's pure state (components/issues/board-model.ts; docs/issues.md "Board"). */
import { describe, expect, it } from "vitest";
import {
  appendPage,
  cardName,
  columnOf,
  columnsFrom,
  moveCard,
  overText,
  placeText,
  pointsText,
  type BoardData,
  type Columns,
} from "@/components/issues/board-model";
import type { Issue } from "@/components/issues/model";

const now = "2026-11-23T12:00:00.000Z";
function issue(n: number, status: string, estimate: number | null = null): Issue {
  return {
    id: `id${n}`,
    number: n,
    title: `Issue ${n}`,
    body: null,
    state: "open",
    status,
    priority: "none",
    dueDate: null,
    estimate,
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
  } as Issue;
}

function board(): Columns {
  const data = {
    columns: [
      { status: "todo", count: 5, estimate: 3.5, issues: [issue(1, "todo", 1.5), issue(2, "todo", 2)], nextCursor: "c1" },
      { status: "in_progress", count: 1, estimate: 0, issues: [issue(3, "in_progress")], nextCursor: null },
    ],
  } as unknown as BoardData;
  return columnsFrom(data);
}

describe("board columns", () => {
  it("has every status, empty ones too, with the server's totals", () => {
    const cols = board();
    expect(Object.keys(cols)).toEqual(["triage", "backlog", "todo", "in_progress", "in_review", "done", "canceled"]);
    expect(cols.backlog).toEqual({ issues: [], count: 0, estimate: 0, nextCursor: null });
    expect(cols.todo).toMatchObject({ count: 5, estimate: 3.5, nextCursor: "c1" });
    expect(columnOf(cols, 3)).toBe("in_progress");
    expect(columnOf(cols, "col:done")).toBe("done");
    expect(columnOf(cols, 99)).toBeUndefined();
  });

  it("moves a card across columns with its status, counts and points; a no-op returns the same object", () => {
    const cols = board();
    const moved = moveCard(cols, 1, "todo", "in_progress", 0);
    expect(moved.todo).toMatchObject({ count: 4, estimate: 2 });
    expect(moved.todo.issues.map((i) => i.number)).toEqual([2]);
    expect(moved.in_progress).toMatchObject({ count: 2, estimate: 1.5 });
    expect(moved.in_progress.issues.map((i) => [i.number, i.status])).toEqual([
      [1, "in_progress"],
      [3, "in_progress"],
    ]);
    // nothing to do: same column, unknown card, already there — the very same object (no re-render)
    expect(moveCard(cols, 1, "todo", "todo", 0)).toBe(cols);
    expect(moveCard(cols, 42, "todo", "done", 0)).toBe(cols);
    expect(moveCard(moved, 1, "todo", "in_progress", 0)).toBe(moved);
    // the index is clamped; moving back restores the totals
    const back = moveCard(moved, 1, "in_progress", "todo", 99);
    expect(back.todo.issues.map((i) => i.number)).toEqual([2, 1]);
    expect(back.todo).toMatchObject({ count: 5, estimate: 3.5 });
  });

  it("appends a page without repeating cards already on the board, taking the page's totals", () => {
    const cols = moveCard(board(), 3, "in_progress", "todo", 2); // #3 now sits in todo's loaded cards
    const next = appendPage(cols, "todo", {
      status: "todo",
      count: 7,
      estimate: 4,
      issues: [issue(3, "todo"), issue(4, "todo"), issue(5, "todo")],
      nextCursor: null,
    } as never);
    expect(next.todo.issues.map((i) => i.number)).toEqual([1, 2, 3, 4, 5]);
    expect(next.todo).toMatchObject({ count: 7, estimate: 4, nextCursor: null });
  });

  it("says where a card is and where it would land, by name", () => {
    const cols = board();
    expect(cardName(cols, 2)).toBe("#2 Issue 2");
    expect(placeText(cols, 2)).toBe("Todo, position 2 of 5");
    expect(overText(cols, 1, 3)).toBe("In Progress, position 1 of 2");
    expect(overText(cols, 1, "col:in_review")).toBe("In Review, position 1 of 1");
    expect(overText(cols, 1, 2)).toBe("Todo, position 2 of 5");
    expect(pointsText(3.5)).toBe("3.5 pts");
    expect(pointsText(1)).toBe("1 pt");
    expect(pointsText(0.1 + 0.2)).toBe("0.3 pts");
  });
});
