/**
 * Pure helpers of the commit history page (docs/ui.md "Commit history"): message split, grouping
 * by day, page numbers. Shared by server components and unit tests.
 */

import { isSha } from "@/lib/sha";

/** Commits per history page. */
export const HISTORY_PAGE_SIZE = 30;

/** The first line of a commit message (its title) and the rest (its body, "" when none). */
export function splitCommitMessage(message: string): { title: string; body: string } {
  const normalized = message.replace(/\r\n?/g, "\n");
  const at = normalized.indexOf("\n");
  if (at < 0) return { title: normalized.trim(), body: "" };
  return {
    title: normalized.slice(0, at).trim(),
    body: normalized
      .slice(at + 1)
      .replace(/^\s*\n/, "")
      .trimEnd(),
  };
}

/** The UTC calendar day of an ISO date, "2026-05-12" ("" when unparsable). */
export function utcDay(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? "" : new Date(t).toISOString().slice(0, 10);
}

/** "12 May 2026" for a "2026-05-12" day (UTC, like `shortDate`). */
export function dayLabel(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(t)) return day;
  return new Date(t).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

/**
 * Groups commits (in log order) into runs of the same UTC day. Order is kept: git log lists by
 * ancestry, so a day can appear twice when dates go back and forth, as on GitHub.
 */
export function groupCommitsByDay<T extends { date: string }>(commits: readonly T[]): { day: string; commits: T[] }[] {
  const groups: { day: string; commits: T[] }[] = [];
  for (const c of commits) {
    const day = utcDay(c.date);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.commits.push(c);
    else groups.push({ day, commits: [c] });
  }
  return groups;
}

/** The `?page=` search parameter as a page number: 1 when absent or malformed, at most 10 000. */
export function pageNumber(raw: string | string[] | undefined): number {
  const value = typeof raw === "string" && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.min(Math.max(value, 1), 10_000);
}

/** The history cursor of `?after=<sha>` (a full commit sha), or undefined. */
export function afterCursor(value: string | string[] | undefined): string | undefined {
  return isSha(value) ? value : undefined;
}
