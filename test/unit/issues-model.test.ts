/** Pure issue-tracker rules: due-date windows in UTC, board positions, progress, status coupling, view SQL. */
import { describe, expect, it } from "vitest";
import {
  addDays,
  dueSoonWindow,
  isDueSoon,
  isOverdue,
  normalizeDueDate,
  overdueWindow,
  positionBetween,
  priorityKey,
  priorityRank,
  renumberedPositions,
  stateForStatus,
  subIssueProgress,
  utcToday,
  POSITION_STEP,
  DEFAULT_STATUSES,
} from "@/lib/issues/model";
import { viewFilter, viewOrder } from "@/server/services/issues/views";
import { listFilter } from "@/server/services/issues/list-issues";
import { issuesSql } from "@/server/services/issues/query";
import { isoOf } from "@/server/db/raw";

describe("due dates (UTC)", () => {
  it("normalises ISO dates and date-times to the UTC calendar date", () => {
    expect(normalizeDueDate("2026-02-28")).toBe("2026-02-28");
    expect(normalizeDueDate("2024-02-29")).toBe("2024-02-29");
    expect(normalizeDueDate("2026-02-29")).toBeNull();
    expect(normalizeDueDate("2026-13-01")).toBeNull();
    expect(normalizeDueDate("2026-1-1")).toBeNull();
    expect(normalizeDueDate("2026-03-01T23:30:00-05:00")).toBe("2026-03-02");
    expect(normalizeDueDate("2026-03-01T00:30:00+02:00")).toBe("2026-02-28");
    expect(normalizeDueDate("2026-03-01Tgarbage")).toBeNull();
    expect(normalizeDueDate("tomorrow")).toBeNull();
  });

  it("today is the UTC date, whatever the local zone", () => {
    expect(utcToday(new Date("2026-06-30T23:59:59.999Z"))).toBe("2026-06-30");
    expect(utcToday(new Date("2026-07-01T00:00:00+09:00"))).toBe("2026-06-30");
    expect(addDays("2026-12-30", 3)).toBe("2027-01-02");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
  });

  it("overdue = open and due before today; due soon = open and due today … today+days", () => {
    const now = new Date("2026-05-10T23:00:00Z");
    expect(overdueWindow(now)).toEqual({ before: "2026-05-10" });
    expect(dueSoonWindow(7, now)).toEqual({ from: "2026-05-10", to: "2026-05-17" });
    expect(isOverdue({ state: "open", dueDate: "2026-05-09" }, now)).toBe(true);
    expect(isOverdue({ state: "open", dueDate: "2026-05-10" }, now)).toBe(false);
    expect(isOverdue({ state: "closed", dueDate: "2026-05-01" }, now)).toBe(false);
    expect(isOverdue({ state: "open", dueDate: null }, now)).toBe(false);
    expect(isDueSoon({ state: "open", dueDate: "2026-05-10" }, 7, now)).toBe(true);
    expect(isDueSoon({ state: "open", dueDate: "2026-05-17" }, 7, now)).toBe(true);
    expect(isDueSoon({ state: "open", dueDate: "2026-05-18" }, 7, now)).toBe(false);
    expect(isDueSoon({ state: "open", dueDate: "2026-05-09" }, 7, now)).toBe(false);
    expect(isDueSoon({ state: "closed", dueDate: "2026-05-11" }, 7, now)).toBe(false);
    expect(isDueSoon({ state: "open", dueDate: "2026-05-10" }, 0, now)).toBe(true);
  });
});

describe("board positions", () => {
  it("places between neighbours, at the ends, and asks for a renumbering when the gap is gone", () => {
    expect(positionBetween(null, null)).toBe(POSITION_STEP);
    expect(positionBetween(1024, null)).toBe(2048);
    expect(positionBetween(null, 1024)).toBe(0);
    expect(positionBetween(1024, 2048)).toBe(1536);
    expect(positionBetween(1, 1 + 1e-9)).toBeNull();
    let hi = 2048;
    let n = 0;
    for (; n < 200; n++) {
      const p = positionBetween(1024, hi);
      if (p === null) break;
      expect(p).toBeGreaterThan(1024);
      expect(p).toBeLessThan(hi);
      hi = p;
    }
    expect(n).toBeGreaterThan(20);
    expect(n).toBeLessThan(200);
    expect(renumberedPositions(3)).toEqual([1024, 2048, 3072]);
  });
});

describe("statuses, priorities, progress", () => {
  it("couples state to status category", () => {
    expect(DEFAULT_STATUSES.map((s) => [s.key, stateForStatus(s.key)])).toEqual([
      ["triage", "open"],
      ["backlog", "open"],
      ["todo", "open"],
      ["in_progress", "open"],
      ["in_review", "open"],
      ["done", "closed"],
      ["canceled", "closed"],
    ]);
  });
  it("ranks priorities urgent first and round-trips", () => {
    expect(["urgent", "high", "medium", "low", "none"].map((p) => priorityRank(p as never))).toEqual([0, 1, 2, 3, 4]);
    expect(priorityKey(2)).toBe("medium");
    expect(priorityKey(99)).toBe("none");
  });
  it("progress is an integer percentage, 0 without sub-issues, 100 only when all are closed", () => {
    expect(subIssueProgress(0, 0)).toEqual({ total: 0, completed: 0, percentage: 0 });
    expect(subIssueProgress(3, 1)).toEqual({ total: 3, completed: 1, percentage: 33 });
    expect(subIssueProgress(3, 2).percentage).toBe(66);
    expect(subIssueProgress(1000, 999).percentage).toBe(99);
    expect(subIssueProgress(4, 4).percentage).toBe(100);
  });
});

describe("view and list filters, and the SQL they become", () => {
  const now = new Date("2026-05-10T12:00:00Z");
  it("maps every view filter", () => {
    expect(viewFilter("r", { status: ["todo"], priority: ["urgent"], assignee: ["u"], labels: ["UI"], dueDate: "overdue" }, now)).toEqual({
      repoId: "r",
      statuses: ["todo"],
      priorities: [0],
      assigneeIds: ["u"],
      labelNames: ["ui"],
      state: "open",
      dueBefore: "2026-05-10",
    });
    expect(viewFilter("r", { dueDate: "due_soon" }, now)).toEqual({
      repoId: "r",
      state: "open",
      dueFrom: "2026-05-10",
      dueTo: "2026-05-17",
    });
    expect(viewFilter("r", { dueDate: "no_date" }, now)).toEqual({ repoId: "r", noDueDate: true });
    expect(viewFilter("r", { status: [] }, now)).toEqual({ repoId: "r" });
  });
  it("orders with nulls last and number as the tie-break", () => {
    expect(viewOrder(null)).toEqual([{ field: "number", direction: "desc" }]);
    expect(viewOrder({ field: "dueDate", direction: "asc" })).toEqual([
      { field: "dueDate", direction: "asc", nullsLast: true },
      { field: "number", direction: "desc" },
    ]);
    expect(viewOrder({ field: "priority", direction: "desc" })).toEqual([
      { field: "priority", direction: "desc" },
      { field: "number", direction: "desc" },
    ]);
    expect(viewOrder({ field: "number", direction: "asc" })).toEqual([{ field: "number", direction: "asc" }]);
  });
  it("list filters; overdue with state closed matches nothing", () => {
    expect(listFilter("r", { overdue: true, dueSoon: false, project: "Web", cycle: 3 }, now)).toEqual({
      repoId: "r",
      projectName: "Web",
      cycleNumber: 3,
      state: "open",
      dueBefore: "2026-05-10",
    });
    expect(listFilter("r", { overdue: true, state: "closed" }, now)).toEqual({ repoId: "r", ids: [] });
  });
  it("builds one parameterised statement per dialect; values never enter the SQL text", () => {
    const filter = { repoId: "r1", statuses: ["todo", "done"], labelNames: ['x\'; DROP TABLE "Issue"; --'], dueBefore: "2026-01-01" };
    const lite = issuesSql("sqlite", filter, [{ field: "dueDate", direction: "asc", nullsLast: true }], { limit: 20, offset: 40 });
    expect(lite.text).toMatch(/json_group_array/);
    expect(lite.text).not.toMatch(/DROP|drop/);
    // a page is a deferred join: ids from the indexes first, relations for those rows only
    expect(lite.text).toMatch(
      /WHERE i."id" IN \(SELECT i."id" FROM "Issue" i WHERE .* ORDER BY i."dueDate" ASC NULLS LAST LIMIT 20 OFFSET 40\)\nORDER BY i."dueDate" ASC NULLS LAST$/,
    );
    expect(lite.params).toEqual(["r1", "todo", "done", "r1", 'x\'; drop table "issue"; --', "2026-01-01"]);
    // page size and offset are written as integers (PostgreSQL's generic plans), never other values
    expect(() => issuesSql("sqlite", filter, [], { limit: "20; DROP" as never })).toThrow(/page size or offset/);
    expect(() => issuesSql("sqlite", filter, [], { limit: 20, offset: -1 })).toThrow(/page size or offset/);
    const pg = issuesSql("postgresql", filter, [{ field: "number", direction: "desc" }]);
    expect(pg.text).toMatch(/json_agg/);
    expect(pg.text).toMatch(/i."repoId" = \$1 AND i."status" IN \(\$2, \$3\)/);
    expect(pg.text).not.toMatch(/LIMIT \$/); // no paging (the closedBy subquery has its own LIMIT 1)
    expect(issuesSql("sqlite", { repoId: "r", ids: [] }, []).text).toMatch(/1 = 0/);
  });
  it("reads timestamps as the drivers return them", () => {
    expect(isoOf(new Date("2026-01-02T03:04:05.006Z"))).toBe("2026-01-02T03:04:05.006Z");
    expect(isoOf("2026-01-02 03:04:05")).toBe("2026-01-02T03:04:05.000Z");
    expect(isoOf("2026-01-02T03:04:05.006+00:00")).toBe("2026-01-02T03:04:05.006Z");
    expect(isoOf(1767323045006)).toBe("2026-01-02T03:04:05.006Z");
    // PostgreSQL's text for timestamp(3) drops trailing zeros of the milliseconds
    expect(isoOf("2026-01-02 03:04:05.1")).toBe("2026-01-02T03:04:05.100Z");
    expect(isoOf("2026-01-02 03:04:05.12+00")).toBe("2026-01-02T03:04:05.120Z");
    // other zones still convert to UTC
    expect(isoOf("2026-01-02T03:04:05.006+02:00")).toBe("2026-01-02T01:04:05.006Z");
    expect(isoOf("2026-01-02T03:04:05-0130")).toBe("2026-01-02T04:34:05.000Z");
  });
});
