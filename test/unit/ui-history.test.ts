/** Pure helpers of the commit history page: message split, day grouping, page numbers. */
import { describe, expect, it } from "vitest";
import { dayLabel, groupCommitsByDay, pageNumber, splitCommitMessage, utcDay } from "@/components/code/history";

describe("splitCommitMessage", () => {
  it("takes the first line as the title and the rest, without the blank separator line, as the body", () => {
    expect(splitCommitMessage("Fix the parser")).toEqual({ title: "Fix the parser", body: "" });
    expect(splitCommitMessage("Fix the parser\n\nIt failed on empty input.\nSee #12.\n")).toEqual({
      title: "Fix the parser",
      body: "It failed on empty input.\nSee #12.",
    });
    expect(splitCommitMessage("Title\r\n\r\nBody")).toEqual({ title: "Title", body: "Body" });
    expect(splitCommitMessage("Title\nno blank line")).toEqual({ title: "Title", body: "no blank line" });
    expect(splitCommitMessage("Title\n\n   \n")).toEqual({ title: "Title", body: "" });
    expect(splitCommitMessage("")).toEqual({ title: "", body: "" });
  });
});

describe("groupCommitsByDay", () => {
  it("groups consecutive commits of the same UTC day, keeping log order", () => {
    const commits = [
      { sha: "a", date: "2026-05-12T23:30:00+02:00" }, // 21:30 UTC on the 12th
      { sha: "b", date: "2026-05-12T08:00:00Z" },
      { sha: "c", date: "2026-05-11T23:59:59Z" },
      { sha: "d", date: "2026-05-12T01:00:00Z" },
    ];
    expect(groupCommitsByDay(commits).map((g) => [g.day, g.commits.map((c) => c.sha).join("")])).toEqual([
      ["2026-05-12", "ab"],
      ["2026-05-11", "c"],
      ["2026-05-12", "d"],
    ]);
    expect(groupCommitsByDay([])).toEqual([]);
  });

  it("formats days in UTC", () => {
    expect(utcDay("2026-01-01T00:30:00+01:00")).toBe("2025-12-31");
    expect(utcDay("nonsense")).toBe("");
    expect(dayLabel("2026-05-12")).toBe("12 May 2026");
  });
});

describe("pageNumber", () => {
  it("reads ?page= defensively", () => {
    expect(pageNumber(undefined)).toBe(1);
    expect(pageNumber("3")).toBe(3);
    expect(pageNumber("0")).toBe(1);
    expect(pageNumber("-2")).toBe(1);
    expect(pageNumber("2.5")).toBe(1);
    expect(pageNumber(["2", "3"])).toBe(1);
    expect(pageNumber("999999")).toBe(10_000);
  });
});
