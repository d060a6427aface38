/**
 * Where an inline comment may sit (docs/pulls.md "Review"): on a line of the pull request's
 * three-dot diff (the one diff model, server/git/diff.ts) at the comment's commit — a RIGHT line is
 * a context or added line of the head's file, a LEFT line a context or deleted line of the merge
 * base's file. A range (startLine..endLine) lies on one side within one hunk. The hunk text up to
 * the commented line is kept (`diffHunk`) so an outdated thread can still show what it was about.
 */
import { AppError } from "@/server/errors";
import { diffThreeDot, type DiffFile, type DiffHunk } from "@/server/git/diff";
import { pullBase } from "@/server/services/diff/pull-range";
import type { PullRow, ReviewRepo } from "./review-context";
import type { Side } from "./review-schemas";

/** Most diff lines kept in `diffHunk` (the last ones before and including the commented line). */
export const MAX_HUNK_LINES = 200;

export interface Anchor {
  path: string;
  side: Side;
  startLine: number | null;
  line: number;
  diffHunk: string;
}

/** Per side, each diff line number → [hunk index, line index in the hunk]. Pure. */
export function lineIndex(file: Pick<DiffFile, "hunks">): Record<Side, Map<number, [number, number]>> {
  const index = { LEFT: new Map<number, [number, number]>(), RIGHT: new Map<number, [number, number]>() };
  file.hunks.forEach((h, hi) => {
    let o = h.oldStart;
    let n = h.newStart;
    h.lines.forEach((l, li) => {
      if (l.type !== "add") index.LEFT.set(o++, [hi, li]);
      if (l.type !== "delete") index.RIGHT.set(n++, [hi, li]);
    });
  });
  return index;
}

/** The hunk's header and lines up to line `upTo` (inclusive), with their +/-/space markers; at most MAX_HUNK_LINES lines. Pure. */
export function hunkText(h: DiffHunk, upTo: number): string {
  const from = Math.max(0, upTo + 1 - MAX_HUNK_LINES);
  const header = `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@${h.header ? ` ${h.header}` : ""}`;
  const marker = { context: " ", add: "+", delete: "-" } as const;
  return [header, ...h.lines.slice(from, upTo + 1).map((l) => marker[l.type] + l.content)].join("\n");
}

/**
 * Checks an inline position against pull request `pr`'s diff at `commitSha` (already known to be
 * a commit of the pull request) and returns it with its hunk. `startLine` absent = one line.
 * Errors (BAD_REQUEST, naming the problem): the path is not in the diff, a binary file, a line
 * not shown in the diff on that side, a range across hunks or backwards.
 */
export async function anchorInDiff(
  repo: ReviewRepo,
  pr: PullRow,
  commitSha: string,
  pos: { path: string; side: Side; startLine: number | null; line: number },
): Promise<Anchor> {
  const base = await pullBase(repo, pr);
  const diff = await diffThreeDot(repo.gitDir, base, commitSha, { path: pos.path });
  const file = diff.files.find((f) => f.newPath === pos.path);
  const at = `${commitSha.slice(0, 10)}`;
  if (!file)
    throw new AppError(
      "BAD_REQUEST",
      `"${pos.path}" is not changed by pull request #${pr.number} at ${at}: inline comments go on the files of its diff`,
    );
  if (file.isBinary) throw new AppError("BAD_REQUEST", `"${pos.path}" is a binary file: comment on the pull request instead`);
  const index = lineIndex(file)[pos.side];
  const where = (n: number) => `line ${n} (${pos.side}) of "${pos.path}"`;
  const end = index.get(pos.line);
  if (!end) {
    const cut = file.truncated ? " (the file's diff is too large to show whole)" : "";
    throw new AppError("BAD_REQUEST", `${where(pos.line)} is not part of the diff${cut}: comment on a changed line or its context`);
  }
  if (pos.startLine !== null) {
    if (pos.startLine > pos.line) throw new AppError("BAD_REQUEST", `startLine ${pos.startLine} is after endLine ${pos.line}`);
    const start = index.get(pos.startLine);
    if (!start) throw new AppError("BAD_REQUEST", `${where(pos.startLine)} is not part of the diff`);
    if (start[0] !== end[0])
      throw new AppError("BAD_REQUEST", `lines ${pos.startLine}–${pos.line} of "${pos.path}" span two hunks: a range must lie in one hunk`);
  }
  return { ...pos, diffHunk: hunkText(file.hunks[end[0]], end[1]) };
}
