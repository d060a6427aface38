/**
 * Pure helpers of the issue page's pickers (docs/ui.md "Issues"): the `@` mention trigger and
 * matching (components/issues/mention-textarea.tsx) and the due date calendar's date arithmetic
 * (components/issues/due-date-picker.tsx).
 */
import { describe, expect, it } from "vitest";
import { matchPeople, mentionAt } from "@/components/issues/mention-textarea";
import { addDays, addMonths, localToday, monthGrid } from "@/components/issues/due-date-picker";

describe("mentions", () => {
  it("finds the @query being typed before the caret, not inside e-mails, paths or words", () => {
    expect(mentionAt("Thanks @al", 10)).toEqual({ start: 7, query: "al" });
    expect(mentionAt("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionAt("(@bob-s", 7)).toEqual({ start: 1, query: "bob-s" });
    expect(mentionAt("mail bob@exa", 12)).toBeNull();
    expect(mentionAt("see a/@x", 8)).toBeNull();
    expect(mentionAt("@al done", 8)).toBeNull(); // the caret is past a space
    expect(mentionAt("Thanks @al and more", 10)).toEqual({ start: 7, query: "al" });
  });

  it("matches username prefixes first, then usernames or names containing the text", () => {
    const people = [
      { username: "carol", name: "Alice's colleague" },
      { username: "alice", name: null },
      { username: "malik", name: "Malik" },
      { username: "bob", name: "Bob" },
    ];
    expect(matchPeople(people, "al").map((p) => p.username)).toEqual(["alice", "carol", "malik"]);
    expect(matchPeople(people, "").map((p) => p.username)).toEqual(["alice", "bob", "carol", "malik"]);
    expect(matchPeople(people, "zz")).toEqual([]);
    expect(matchPeople(people, "", 2)).toHaveLength(2);
  });
});

describe("due date calendar", () => {
  it("adds days and months on calendar dates, clamping the day to the month", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(addMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonths("2026-03-31", -1)).toBe("2026-02-28");
    expect(addMonths("2026-11-15", 12)).toBe("2027-11-15");
  });

  it("lays a month out in whole weeks starting on Monday", () => {
    const weeks = monthGrid("2026-11-23");
    expect(weeks[0][0]).toBe("2026-10-26"); // 1 Nov 2026 is a Sunday
    expect(weeks.at(-1)!.at(-1)).toBe("2026-12-06");
    expect(weeks.every((w) => w.length === 7)).toBe(true);
    expect(weeks.flat()).toContain("2026-11-30");
    expect(monthGrid("2027-02-10")[0][0]).toBe("2027-02-01"); // starts on a Monday: no leading days
  });

  it("takes today from the local calendar", () => {
    expect(localToday(new Date(2026, 0, 5, 23, 59))).toBe("2026-01-05");
  });
});
