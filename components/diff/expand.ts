/**
 * The unchanged lines a diff leaves out between hunks and at a file's ends, and how much of each gap
 * the reader expanded (docs/pulls.md "Viewer", "Expand unchanged lines"). Pure (no React): the gaps
 * of a file from its hunk headers, the line ranges an expand asks for, and the rows of a gap
 * (lines shown above and below its expander row). Lines are read from the new side's blob
 * (`repos.blobLines`); unchanged lines are the same on both sides, so a line's old number is its
 * new number plus the offset of the hunk next to it.
 */
import type { TokenStyle } from "@/lib/highlight/runs";
import type { DiffFile, DiffHunk } from "./model";

/** Lines one ↑ / ↓ click shows (GitHub's step). */
export const EXPAND_STEP = 20;
/** Longest file "Expand all" shows whole (lines of the new side); longer files say so instead. */
export const EXPAND_ALL_MAX_LINES = 10_000;
/** Lines one `repos.blobLines` request returns at most (server/git/blob-lines.ts). */
export const EXPAND_REQUEST_LINES = 1_000;
/** Unchanged lines git prints around a change (`git diff`'s default -U3). */
export const DIFF_CONTEXT = 3;

/**
 * A run of unchanged lines the diff leaves out: new-side lines `start`..`end` (inclusive), before
 * hunk `index` (`index` = number of hunks: after the last one). `end` is null after the last hunk
 * while the file's length is unknown. Old-side number of new line n: n + `delta`.
 */
export interface Gap {
  index: number;
  start: number;
  end: number | null;
  delta: number;
}

/** An expanded line: its text (without "\n") and, once highlighted, its token runs and their palette. */
export interface ExpandedLine {
  text: string;
  runs?: number[] | null;
  styles?: TokenStyle[];
}

/** What the reader expanded in one file: the new-side lines read so far, by number, and the file's length once known. */
export interface FileExpansion {
  lines: ReadonlyMap<number, ExpandedLine>;
  totalLines?: number;
}

const first = (start: number, count: number) => (count === 0 ? start + 1 : start);
const after = (start: number, count: number) => (count === 0 ? start + 1 : start + count);

/** True when hunk `h` reaches the end of the new file: fewer trailing unchanged lines than git's context, or "no newline at end of file" on a new-side line. */
function endsFile(h: DiffHunk): boolean {
  let trailing = 0;
  for (let k = h.lines.length - 1; k >= 0 && h.lines[k].type === "context"; k--) trailing++;
  if (trailing < DIFF_CONTEXT) return true;
  return h.lines.some((l) => l.type !== "delete" && l.noNewlineAtEnd);
}

/** Whether a file can be expanded: a text file with hunks and a new-side blob (not added, deleted, binary or a submodule). */
export function canExpand(f: DiffFile): boolean {
  // an LFS file's hunks are its objects' (docs/lfs.md "In the browser"), not its blob's: no expand rows
  return f.hunks.length > 0 && !f.isBinary && !f.isSubmodule && !f.lfs && !!f.newSha && f.status !== "deleted" && f.status !== "added";
}

/**
 * The gaps of file `f`, indexed by position: [k] is the gap before hunk k, [hunks.length] the one
 * after the last hunk; null where there is none (hunks next to each other or at the file's start,
 * a last hunk that ends the file, a file cut after its last loaded hunk). `totalLines`: the new
 * file's line count when known. Hunk headers follow git: a side with 0 lines names the line
 * before the hunk.
 */
export function fileGaps(f: DiffFile, totalLines?: number): (Gap | null)[] {
  if (!canExpand(f)) return [];
  const out: (Gap | null)[] = [];
  f.hunks.forEach((h, k) => {
    const prev = f.hunks[k - 1];
    const start = prev ? after(prev.newStart, prev.newLines) : 1;
    const end = first(h.newStart, h.newLines) - 1;
    out.push(end >= start ? { index: k, start, end, delta: first(h.oldStart, h.oldLines) - first(h.newStart, h.newLines) } : null);
  });
  const last = f.hunks[f.hunks.length - 1];
  const start = after(last.newStart, last.newLines);
  const delta = after(last.oldStart, last.oldLines) - start;
  const end = totalLines ?? (endsFile(last) ? start - 1 : null);
  out.push(!f.truncated && (end === null || end >= start) ? { index: f.hunks.length, start, end, delta } : null);
  return out;
}

/**
 * Gap `g` as `exp` leaves it: `top` (new line numbers shown right under the hunk before, in
 * order), `bottom` (shown right above the hunk after) and the `hidden` range still behind the
 * expander row (`to` null: up to the unknown end of the file), or null when all of it is shown.
 */
export function gapLayout(
  g: Gap,
  exp: FileExpansion | undefined,
): { top: number[]; bottom: number[]; hidden: { from: number; to: number | null } | null } {
  const has = (n: number) => !!exp?.lines.has(n);
  const end = g.end ?? exp?.totalLines ?? null;
  const top: number[] = [];
  for (let n = g.start; (end === null || n <= end) && has(n); n++) top.push(n);
  const bottom: number[] = [];
  if (end !== null) for (let n = end; n >= g.start + top.length && has(n); n--) bottom.unshift(n);
  const from = g.start + top.length;
  const to = end === null ? null : end - bottom.length;
  return { top, bottom, hidden: to === null || to >= from ? { from, to } : null };
}

/** The buttons of a gap's expander row: ↕ (all of a small gap), ↓ (lines under the hunk before), ↑ (lines above the hunk after). */
export type ExpandDirection = "all" | "down" | "up";

/** The directions gap `g` (of a file with `hunks` hunks) offers for its `hidden` range. */
export function expandDirections(g: Gap, hidden: { from: number; to: number | null }, hunks: number): ExpandDirection[] {
  if (hidden.to !== null && hidden.to - hidden.from + 1 <= EXPAND_STEP) return ["all"];
  if (g.index === 0) return ["up"];
  if (g.index === hunks) return ["down"];
  return ["down", "up"];
}

/** The new-side lines one click in `dir` asks for (inclusive): the first or last EXPAND_STEP lines of `hidden`, or all of it. */
export function expandRange(hidden: { from: number; to: number | null }, dir: ExpandDirection): { startLine: number; endLine: number } {
  if (dir === "up" && hidden.to !== null) return { startLine: Math.max(hidden.from, hidden.to - EXPAND_STEP + 1), endLine: hidden.to };
  if (dir === "all" && hidden.to !== null) return { startLine: hidden.from, endLine: hidden.to };
  const endLine = hidden.from + EXPAND_STEP - 1;
  return { startLine: hidden.from, endLine: hidden.to === null ? endLine : Math.min(endLine, hidden.to) };
}

/**
 * Every hidden range of `f` (file length `totalLines`, known) cut into requests of at most
 * EXPAND_REQUEST_LINES lines: what "Expand all" asks for.
 */
export function expandAllRanges(f: DiffFile, exp: FileExpansion, totalLines: number): { startLine: number; endLine: number }[] {
  const out: { startLine: number; endLine: number }[] = [];
  for (const g of fileGaps(f, totalLines)) {
    const hidden = g && gapLayout(g, exp).hidden;
    if (!hidden || hidden.to === null) continue;
    for (let s = hidden.from; s <= hidden.to; s += EXPAND_REQUEST_LINES)
      out.push({ startLine: s, endLine: Math.min(hidden.to, s + EXPAND_REQUEST_LINES - 1) });
  }
  return out;
}
