import { describe, expect, it } from "vitest";
import {
  activitySentence,
  dueState,
  eventSentence,
  timelineEvents,
  pagesFor,
  moveAnchor,
  PAGE_SIZE,
  type Activity,
} from "@/components/issues/model";

const now = new Date("2026-11-21T12:00:00Z");

describe("pagesFor", () => {
  it("counts pages and clamps the page", () => {
    expect(pagesFor(0, 1)).toEqual({ page: 1, pageCount: 1 });
    expect(pagesFor(PAGE_SIZE + 3, 9)).toEqual({ page: 2, pageCount: 2 });
    expect(pagesFor(PAGE_SIZE * 2, 2)).toEqual({ page: 2, pageCount: 2 });
  });
});

describe("activitySentence", () => {
  const a = (over: Partial<Activity>): Activity => ({
    id: "1",
    issueNumber: 1,
    action: "created",
    field: null,
    oldValue: null,
    newValue: null,
    actor: { id: "u1", username: "alice", name: null },
    createdAt: now.toISOString(),
    ...over,
  });
  it("reads like a sentence", () => {
    expect(activitySentence(a({ action: "status_changed", field: "status", oldValue: "backlog", newValue: "in_progress" }))).toEqual({
      actor: "alice",
      text: "changed status from Backlog to In Progress",
    });
    expect(activitySentence(a({ action: "status_changed", field: "state", oldValue: "open", newValue: "closed" }))?.text).toBe(
      "closed this issue",
    );
    expect(activitySentence(a({ action: "priority_changed", oldValue: "none", newValue: "urgent" }))?.text).toBe(
      "changed priority from No priority to Urgent",
    );
    expect(activitySentence(a({ action: "labeled", newValue: "bug" }))?.text).toBe("added the bug label");
    expect(activitySentence(a({ action: "assigned", newValue: "u1" }))?.text).toBe("self-assigned this");
    expect(activitySentence(a({ action: "assigned", newValue: "u2" }), { u2: "bob" })?.text).toBe("assigned bob");
    expect(activitySentence(a({ action: "relation_added", field: "blocks", newValue: "4" }))?.text).toBe("marked this as blocking #4");
    // the target issue's side of a relation
    expect(activitySentence(a({ action: "relation_added", field: "blocked_by", newValue: "3" }))?.text).toBe(
      "marked this as blocked by #3",
    );
    expect(activitySentence(a({ action: "relation_added", field: "duplicated_by", newValue: "9" }))?.text).toBe(
      "marked this as duplicated by #9",
    );
    expect(activitySentence(a({ action: "relation_removed", field: "blocked_by", oldValue: "3" }))?.text).toBe(
      'removed the relation "blocked by #3"',
    );
    expect(activitySentence(a({ action: "commented" }))).toBeNull();
    expect(activitySentence(a({ action: "labeled", newValue: "x", actor: null }))?.actor).toBe("someone");
  });
  it("reads project and cycle moves as GitHub and Linear word them", () => {
    const text = (over: Partial<Activity>) => activitySentence(a(over))?.text;
    expect(text({ action: "project_set", field: "project", newValue: "Launch" })).toBe("added this to project Launch");
    expect(text({ action: "project_set", field: "project", oldValue: "Launch", newValue: "Q3" })).toBe(
      "moved this from project Launch to project Q3",
    );
    expect(text({ action: "project_set", field: "project", oldValue: "Q3" })).toBe("removed this from project Q3");
    expect(text({ action: "cycle_set", field: "cycle", newValue: "Cycle 2" })).toBe("added this to Cycle 2");
    expect(text({ action: "cycle_set", field: "cycle", oldValue: "Cycle 2", newValue: "Cycle 3 · Polish" })).toBe(
      "moved this from Cycle 2 to Cycle 3 · Polish",
    );
    expect(text({ action: "cycle_set", field: "cycle", oldValue: "Cycle 3 · Polish" })).toBe("removed this from Cycle 3 · Polish");
    // an entry whose names are gone still reads
    expect(text({ action: "cycle_set", field: "cycle" })).toBe("removed this from its cycle");
  });
});

describe("due dates and board anchors", () => {
  it("classifies due dates", () => {
    expect(dueState({ state: "open", dueDate: "2026-11-20" }, now)).toBe("overdue");
    expect(dueState({ state: "closed", dueDate: "2026-11-20" }, now)).toBe("later");
    expect(dueState({ state: "open", dueDate: "2026-11-28" }, now)).toBe("soon");
    expect(dueState({ state: "open", dueDate: null }, now)).toBe("none");
  });
  it("anchors a dropped card to its neighbours", () => {
    expect(moveAnchor([], 0)).toEqual({});
    expect(moveAnchor([5, 6], 0)).toEqual({ beforeNumber: 5 });
    expect(moveAnchor([5, 6], 1)).toEqual({ afterNumber: 5 });
    expect(moveAnchor([5, 6], 2)).toEqual({ afterNumber: 6 });
  });
});

describe("timelineEvents", () => {
  const at = "2026-11-21T10:00:00.000Z";
  const actor = { id: "u1", username: "alice", name: null };
  const e = (id: string, over: Partial<Activity>): Activity => ({
    id,
    issueNumber: 1,
    action: "status_changed",
    field: "status",
    oldValue: null,
    newValue: null,
    actor,
    createdAt: at,
    ...over,
  });
  it("merges a status change with the open/closed flip it caused, oldest first", () => {
    const newestFirst = [
      e("5", { action: "commented", field: "comment", newValue: "c1" }),
      e("4", { field: "state", oldValue: "open", newValue: "closed" }),
      e("3", { oldValue: "backlog", newValue: "done" }),
      e("2", { oldValue: "todo", newValue: "backlog", createdAt: "2026-11-21T09:00:00.000Z" }),
      e("1", { action: "created", field: "status", newValue: "todo", createdAt: "2026-11-21T08:00:00.000Z" }),
    ];
    const events = timelineEvents(newestFirst);
    expect(events.map((x) => x.entry.id)).toEqual(["2", "4"]);
    expect(eventSentence(events[0])?.text).toBe("changed status from Todo to Backlog");
    expect(eventSentence(events[1])?.text).toBe("closed this issue as Done");
    const reopened = timelineEvents([
      e("7", { field: "state", oldValue: "closed", newValue: "open" }),
      e("6", { oldValue: "done", newValue: "backlog" }),
    ]);
    expect(reopened.map((x) => eventSentence(x)?.text)).toEqual(["reopened this issue in Backlog"]);
  });
  it("keeps the creation of a triaged issue", () => {
    expect(timelineEvents([e("1", { action: "created", newValue: "triage" })]).map((x) => eventSentence(x)?.text)).toEqual([
      "opened this issue in Triage",
    ]);
  });
});
