/** The review UI's pure helpers (components/pulls/review-model.ts): thread placement, suggestion blocks, the lines a suggestion replaces. */
import { describe, expect, it } from "vitest";
import {
  diffLineKeys,
  liveBatch,
  nameComments,
  rightLines,
  splitSuggestion,
  suggestionBlock,
  threadAnchor,
  threadsAtFileTop,
  threadsByLine,
  threadsOffDiff,
  type Thread,
} from "@/components/pulls/review-model";
import type { DiffFile } from "@/components/diff/model";

const file: DiffFile = {
  oldPath: "a.ts",
  newPath: "a.ts",
  status: "modified",
  additions: 2,
  deletions: 1,
  isBinary: false,
  oldMode: "100644",
  newMode: "100644",
  truncated: false,
  isSubmodule: false,
  oldSha: null,
  newSha: null,
  hunks: [
    {
      oldStart: 10,
      oldLines: 3,
      newStart: 10,
      newLines: 4,
      header: "",
      lines: [
        { type: "context", content: "a" },
        { type: "delete", content: "b" },
        { type: "add", content: "B\r" },
        { type: "add", content: "C" },
        { type: "context", content: "d" },
      ],
    },
  ],
};

const thread = (over: Partial<Thread>): Thread =>
  ({ id: "t", path: "a.ts", line: 12, side: "RIGHT", isOutdated: false, currentLine: 12, replies: [], ...over }) as Thread;

describe("review model", () => {
  it("places a thread at its current line, an outdated one at its original line, general comments nowhere", () => {
    expect(threadAnchor(thread({ currentLine: 15 }))).toEqual({ path: "a.ts", side: "RIGHT", line: 15 });
    expect(threadAnchor(thread({ isOutdated: true, currentLine: null }))).toEqual({ path: "a.ts", side: "RIGHT", line: 12 });
    expect(threadAnchor(thread({ side: "LEFT", line: 11, currentLine: 11 }))).toEqual({ path: "a.ts", side: "LEFT", line: 11 });
    expect(threadAnchor(thread({ path: null, line: null }))).toBeNull();
    const m = threadsByLine([thread({ id: "1" }), thread({ id: "2" }), thread({ id: "3", side: "LEFT", line: 11, currentLine: 11 })]);
    expect([...m.get("a.ts")!.entries()].map(([k, v]) => [k, v.map((t) => t.id)])).toEqual([
      ["RIGHT:12", ["1", "2"]],
      ["LEFT:11", ["3"]],
    ]);
  });

  it("reads the new file's lines of a range from the diff (no \\r), null when one is not shown", () => {
    expect(rightLines(file, 11, 12)).toEqual(["B", "C"]);
    expect(rightLines(file, 10, 13)).toEqual(["a", "B", "C", "d"]);
    expect(rightLines(file, 13, 14)).toBeNull();
  });

  it("makes and splits ```suggestion blocks", () => {
    expect(suggestionBlock(["x", "y"])).toBe("```suggestion\nx\ny\n```");
    expect(splitSuggestion("Shorter:\n```suggestion\nxy\n```\nThanks")).toEqual({ body: "Shorter:\n\nThanks", suggestion: "xy\n" });
    expect(splitSuggestion("```suggestion\n```")).toEqual({ body: "", suggestion: "" });
    expect(splitSuggestion("no block")).toEqual({ body: "no block", suggestion: null });
  });

  it("knows the lines a diff shows on each side", () => {
    expect([...diffLineKeys(file)].sort()).toEqual(
      ["LEFT:10", "LEFT:11", "LEFT:12", "RIGHT:10", "RIGHT:11", "RIGHT:12", "RIGHT:13"].sort(),
    );
  });

  it("puts threads no line of the file's diff holds at the file's top, and threads of files gone from the diff at the tab's", () => {
    const ts = [
      thread({ id: "on" }),
      thread({ id: "gone", isOutdated: true, line: 40, currentLine: null }),
      thread({ id: "left", side: "LEFT", line: 12, currentLine: 12 }),
      thread({ id: "old", path: "b.ts", isOutdated: true }),
      thread({ id: "general", path: null, line: null }),
    ];
    const byLine = threadsByLine(ts);
    expect(threadsAtFileTop(file, byLine.get("a.ts")).map((t) => t.id)).toEqual(["gone"]);
    // a file whose hunks are not loaded yet keeps its threads for its lines
    expect(threadsAtFileTop({ ...file, hunks: [], truncated: true }, byLine.get("a.ts"))).toEqual([]);
    // a binary (hunk-less, complete) file holds no line: all at the top
    expect(threadsAtFileTop({ ...file, hunks: [], isBinary: true }, byLine.get("a.ts")).map((t) => t.id)).toEqual(["on", "gone", "left"]);
    expect(threadsAtFileTop(file, undefined)).toEqual([]);
    expect(threadsOffDiff(ts, new Set(["a.ts"])).map((t) => t.id)).toEqual(["old"]);
  });

  it("keeps in the batch only suggestions still to apply", () => {
    const s = (id: string, over: Record<string, unknown> = {}) => ({ id, suggestion: "x\n", appliedSha: null, isDeleted: false, ...over });
    const ts = [
      { ...thread({ id: "a" }), ...s("a"), replies: [s("r1"), s("r2", { appliedSha: "abc" })] },
      { ...thread({ id: "b" }), ...s("b", { suggestion: null }) },
    ] as unknown as Thread[];
    expect(liveBatch(["r2", "a", "b", "zz", "r1"], ts)).toEqual(["a", "r1"]);
  });

  it("names the comments of a server message by their authors", () => {
    const id1 = "f173a6bc-871e-4a85-8493-d03b8ed4bb7f";
    const id2 = "56ba2ce9-2c5c-45a8-aee5-c676b4688091";
    const ts = [{ ...thread({ id: id1 }), author: { id: "u", username: "ada", name: null }, replies: [] }] as unknown as Thread[];
    expect(nameComments(`app.ts: comment ${id1} (lines 4-5) and comment ${id2} (lines 5-5)`, ts)).toBe(
      `app.ts: @ada's suggestion (lines 4-5) and comment ${id2} (lines 5-5)`,
    );
  });
});
