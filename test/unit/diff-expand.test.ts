/**
 * Expanding unchanged lines in the diff viewer (components/diff/expand.ts, diff-viewer-rows.ts;
 * docs/pulls.md "Expand unchanged lines"): the gaps between hunks and at the file's ends, old and
 * new line numbers of expanded lines, the ranges a click asks for, and the rows.
 */
import { describe, expect, it } from "vitest";
import type { DiffFile, DiffLine } from "@/components/diff/model";
import { buildRows } from "@/components/diff/diff-viewer-rows";
import type { Row } from "@/components/diff/diff-viewer-types";
import {
  EXPAND_REQUEST_LINES,
  canExpand,
  expandAllRanges,
  expandDirections,
  expandRange,
  fileGaps,
  gapLayout,
  type FileExpansion,
} from "@/components/diff/expand";

const ctx = (n: number): DiffLine[] => Array.from({ length: n }, (_, k) => ({ type: "context" as const, content: `c${k}` }));
const del: DiffLine = { type: "delete", content: "gone" };
const add: DiffLine = { type: "add", content: "new" };

/**
 * Old file: 99 lines; new file: 100. Hunk 0 changes old line 10 into two lines (new 10–11), hunk 1
 * deletes old line 63; so new = old + 1 between them, and new = old after hunk 1.
 */
const file = (over: Partial<DiffFile> = {}): DiffFile => ({
  oldPath: "a.ts",
  newPath: "a.ts",
  status: "modified",
  additions: 2,
  deletions: 2,
  isBinary: false,
  oldMode: "100644",
  newMode: "100644",
  truncated: false,
  isSubmodule: false,
  oldSha: "1".repeat(40),
  newSha: "2".repeat(40),
  hunks: [
    { oldStart: 7, oldLines: 7, newStart: 7, newLines: 8, header: "", lines: [...ctx(3), del, add, add, ...ctx(3)] },
    { oldStart: 60, oldLines: 7, newStart: 61, newLines: 6, header: "f()", lines: [...ctx(3), del, ...ctx(3)] },
  ],
  ...over,
});

const lines = (...ranges: [number, number][]): FileExpansion => {
  const m = new Map<number, { text: string }>();
  for (const [a, b] of ranges) for (let n = a; n <= b; n++) m.set(n, { text: `line ${n}` });
  return { lines: m };
};

describe("fileGaps", () => {
  it("finds the gaps before the first hunk, between hunks and after the last, with their old-number offsets", () => {
    expect(fileGaps(file())).toEqual([
      { index: 0, start: 1, end: 6, delta: 0 },
      { index: 1, start: 15, end: 60, delta: -1 },
      { index: 2, start: 67, end: null, delta: 0 },
    ]);
    expect(fileGaps(file(), 100)[2]).toEqual({ index: 2, start: 67, end: 100, delta: 0 });
    // the file ends with the last hunk: nothing after it
    expect(fileGaps(file(), 66)[2]).toBeNull();
  });

  it("has no gap before a hunk at line 1, nor after a last hunk with fewer than 3 trailing unchanged lines", () => {
    const f = file({
      hunks: [{ oldStart: 1, oldLines: 4, newStart: 1, newLines: 4, header: "", lines: [del, add, ...ctx(2)] }],
    });
    expect(fileGaps(f)).toEqual([null, null]);
    const noEol = file({
      hunks: [
        {
          oldStart: 1,
          oldLines: 4,
          newStart: 1,
          newLines: 4,
          header: "",
          lines: [del, add, ...ctx(2), { ...ctx(1)[0], noNewlineAtEnd: true }],
        },
      ],
    });
    expect(fileGaps(noEol)).toEqual([null, null]);
  });

  it("reads a side with 0 lines as git writes it (the line before the hunk)", () => {
    // lines 20–21 of the old file deleted, no context (-U0 style): the new side names line 19
    const f = file({ hunks: [{ oldStart: 20, oldLines: 2, newStart: 19, newLines: 0, header: "", lines: [del, del] }] });
    // (no trailing context: the file ends there, unless its length says otherwise)
    expect(fileGaps(f)).toEqual([{ index: 0, start: 1, end: 19, delta: 0 }, null]);
    expect(fileGaps(f, 30)[1]).toEqual({ index: 1, start: 20, end: 30, delta: 2 });
  });

  it("offers nothing for added, deleted, binary or submodule files, nor after the last hunk of a cut file", () => {
    expect(canExpand(file())).toBe(true);
    for (const over of [
      { status: "added" as const },
      { status: "deleted" as const, newSha: null },
      { isBinary: true },
      { isSubmodule: true },
    ])
      expect(fileGaps(file(over))).toEqual([]);
    expect(fileGaps(file({ truncated: true, truncatedReason: "file" }))[2]).toBeNull();
  });
});

describe("gapLayout, expandDirections, expandRange", () => {
  const gap = fileGaps(file())[1]!;

  it("splits a gap into lines shown under the hunk before, the hidden rest, lines shown above the hunk after", () => {
    expect(gapLayout(gap, undefined)).toEqual({ top: [], bottom: [], hidden: { from: 15, to: 60 } });
    const l = gapLayout(gap, lines([15, 34], [41, 60]));
    expect(l.top).toEqual(Array.from({ length: 20 }, (_, k) => 15 + k));
    expect(l.bottom).toEqual(Array.from({ length: 20 }, (_, k) => 41 + k));
    expect(l.hidden).toEqual({ from: 35, to: 40 });
    expect(gapLayout(gap, lines([15, 60])).hidden).toBeNull();
  });

  it("offers ↓ and ↑ by 20 lines in a large gap, one ↕ for 20 lines or fewer, ↑ at the start, ↓ at the end", () => {
    const [start, between, end] = fileGaps(file());
    expect(expandDirections(between!, { from: 15, to: 60 }, 2)).toEqual(["down", "up"]);
    expect(expandRange({ from: 15, to: 60 }, "down")).toEqual({ startLine: 15, endLine: 34 });
    expect(expandRange({ from: 15, to: 60 }, "up")).toEqual({ startLine: 41, endLine: 60 });
    expect(expandDirections(between!, { from: 35, to: 40 }, 2)).toEqual(["all"]);
    expect(expandRange({ from: 35, to: 40 }, "all")).toEqual({ startLine: 35, endLine: 40 });
    expect(expandDirections(start!, { from: 1, to: 6 }, 2)).toEqual(["all"]);
    expect(expandDirections({ ...start!, end: 50 }, { from: 1, to: 50 }, 2)).toEqual(["up"]);
    expect(expandDirections(end!, { from: 67, to: null }, 2)).toEqual(["down"]);
    expect(expandRange({ from: 67, to: null }, "down")).toEqual({ startLine: 67, endLine: 86 });
  });

  it("cuts Expand all into requests of at most 1,000 lines", () => {
    const big = file({ hunks: [{ ...file().hunks[1] }] }); // one hunk at new 61–66
    expect(expandAllRanges(big, { lines: new Map() }, 2_600)).toEqual([
      { startLine: 1, endLine: 60 },
      { startLine: 67, endLine: 67 + EXPAND_REQUEST_LINES - 1 },
      { startLine: 1_067, endLine: 2_066 },
      { startLine: 2_067, endLine: 2_600 },
    ]);
  });
});

describe("buildRows with expanded lines", () => {
  const kinds = (rows: Row[]) =>
    rows.map((r) =>
      r.kind === "expanded"
        ? `${r.oldNo}/${r.newNo}`
        : r.kind === "expander"
          ? `expander ${r.hidden.from}-${r.hidden.to ?? "end"}`
          : r.kind === "hunk"
            ? `hunk ${r.hunkIndex}`
            : r.kind,
    );

  it("without expansion adds no rows; with it, an expander row before each hunk with a gap and after the last", () => {
    const none = buildRows([file()], "unified", new Set(), new Set(), {});
    expect(none.some((r) => r.kind === "expander")).toBe(false);
    const rows = buildRows([file()], "unified", new Set(), new Set(), {}, () => undefined);
    expect(kinds(rows).filter((k) => k.startsWith("expander") || k.startsWith("hunk"))).toEqual([
      "expander 1-6",
      "hunk 0",
      "expander 15-60",
      "hunk 1",
      "expander 67-end",
    ]);
  });

  it("numbers expanded lines on both sides (old = new + the gap's offset), around the expander of what is still hidden", () => {
    const exp = { ...lines([15, 16], [59, 60], [67, 68]), totalLines: 100 };
    const rows = kinds(buildRows([file()], "split", new Set(), new Set(), {}, () => exp));
    const at = rows.indexOf("hunk 1");
    expect(rows.slice(at - 5, at)).toEqual(["14/15", "15/16", "expander 17-58", "58/59", "59/60"]);
    expect(rows.slice(-4)).toEqual(["67/67", "68/68", "expander 69-100", "end"]);
  });

  it("drops the header of a hunk whose gap is all shown, and the expander of a file end reached", () => {
    const exp = { ...lines([1, 6], [15, 60], [67, 100]), totalLines: 100 };
    const rows = kinds(buildRows([file()], "unified", new Set(), new Set(), {}, () => exp));
    expect(rows.filter((k) => k.startsWith("hunk") || k.startsWith("expander"))).toEqual([]);
    expect(rows.filter((k) => /^\d+\/\d+$/.test(k))).toHaveLength(6 + 46 + 34);
    expect(rows[1]).toBe("1/1");
  });
});
