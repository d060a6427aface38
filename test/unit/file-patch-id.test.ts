/** filePatchId (server/git/file-patch-id.ts): the id of one file's change that a viewed mark keeps across a rebase. */
import { describe, expect, it } from "vitest";
import { filePatchId } from "@/server/git/file-patch-id";
import type { DiffHunk, DiffLine } from "@/server/git/diff-types";

/** A hunk at `start` from git-like lines ("+x", "-x", " x"). */
function hunk(start: number, lines: string[]): DiffHunk {
  const parsed: DiffLine[] = lines.map((t) => ({
    type: t[0] === "+" ? "add" : t[0] === "-" ? "delete" : "context",
    content: t.slice(1),
  }));
  const oldLines = parsed.filter((l) => l.type !== "add").length;
  const newLines = parsed.filter((l) => l.type !== "delete").length;
  return { oldStart: start, oldLines, newStart: start, newLines, header: "", lines: parsed };
}

const file = (...hunks: DiffHunk[]) => ({ hunks, isBinary: false, truncated: false });

describe("filePatchId", () => {
  const base = file(hunk(10, [" a", " b", "-old()", "+new()", "+more()", " c"]));

  it("keeps the id when the change moves (other lines inserted above) or its context changes", () => {
    const moved = file(hunk(42, [" upstream edit", " b", "-old()", "+new()", "+more()", " other"]));
    expect(filePatchId(moved)).toBe(filePatchId(base));
    expect(filePatchId(base)).toMatch(/^[0-9a-f]{40}$/);
  });

  it("keeps the id when the change is split into hunks differently", () => {
    const split = file(hunk(10, [" a", "-old()", "+new()", " x"]), hunk(90, [" y", "+more()", " z"]));
    expect(filePatchId(split)).toBe(filePatchId(base));
  });

  it("keeps the id over whitespace-only differences in the changed lines", () => {
    const spaced = file(hunk(10, [" a", "-  old( )", "+\tnew()  ", "+more ()", " c"]));
    expect(filePatchId(spaced)).toBe(filePatchId(base));
  });

  it("changes when an added or a deleted line changes, or a line changes side", () => {
    expect(filePatchId(file(hunk(10, ["-old()", "+new(1)", "+more()"])))).not.toBe(filePatchId(base));
    expect(filePatchId(file(hunk(10, ["-older()", "+new()", "+more()"])))).not.toBe(filePatchId(base));
    expect(filePatchId(file(hunk(10, ["-old()", "+new()"])))).not.toBe(filePatchId(base));
    expect(filePatchId(file(hunk(10, ["+old()", "-new()", "-more()"])))).not.toBe(filePatchId(base));
    // lines stay lines: "ab" is not "a" then "b"
    expect(filePatchId(file(hunk(1, ["+ab"])))).not.toBe(filePatchId(file(hunk(1, ["+a", "+b"]))));
  });

  it("is null when the hunks do not show the whole change (binary, cut)", () => {
    expect(filePatchId({ ...base, isBinary: true })).toBeNull();
    expect(filePatchId({ ...base, truncated: true })).toBeNull();
    expect(filePatchId(file())).toMatch(/^[0-9a-f]{40}$/); // a pure rename: no changed lines
  });
});
