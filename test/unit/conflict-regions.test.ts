/**
 * lib/conflict-regions.ts: the conflicts view's regions (docs/pulls.md "Conflicts") — real
 * `git merge-file --diff3` output parsed into regions, the per-region choices assembled into the
 * file, the count of regions left, and whole-file suggestions mapped back onto regions.
 */
import { describe, expect, it } from "vitest";
import {
  assemble,
  choiceText,
  conflictsLeft,
  hasConflictMarkers,
  isResolved,
  mapSuggestion,
  markedText,
  parseDiff3,
  regionsOf,
  type MergeSegment,
} from "@/lib/conflict-regions";
import { mergeTexts } from "@/server/git/text-merge";

const labels = { ours: "main", theirs: "feature" };
const base = "a\nb\nc\nd\ne\nf\ng\n";
const ours = "a\nB-main\nc\nd\ne\nF-main\ng\n";
const theirs = "a\nB-feat\nc\nd\ne\nF-feat\ng\n";

async function segmentsOf(o: string, b: string, t: string): Promise<MergeSegment[]> {
  const segs = parseDiff3((await mergeTexts(o, b, t)).text);
  expect(segs).not.toBeNull();
  return segs!;
}

describe("conflict regions", () => {
  it("parses git's diff3 output into clean lines and regions with the three sides", async () => {
    const segs = await segmentsOf(ours, base, theirs);
    expect(segs.map((s) => s.kind)).toEqual(["clean", "conflict", "clean", "conflict", "clean"]);
    expect(regionsOf(segs)).toEqual([
      { kind: "conflict", ours: ["B-main\n"], base: ["b\n"], theirs: ["B-feat\n"] },
      { kind: "conflict", ours: ["F-main\n"], base: ["f\n"], theirs: ["F-feat\n"] },
    ]);
    // markers that do not nest: nothing trusted
    expect(parseDiff3(`${"<".repeat(31)} ours\nx\n`)).toBeNull();
  });

  it("assembles the chosen regions exactly; unresolved regions keep markers; counts what is left", async () => {
    const segs = await segmentsOf(ours, base, theirs);
    const [r1, r2] = regionsOf(segs);
    expect(conflictsLeft(segs, [])).toBe(2);
    const half = [{ choice: "ours" as const, text: choiceText(r1!, "ours") }];
    expect(conflictsLeft(segs, half)).toBe(1);
    expect(assemble(segs, half, labels)).toBe(`a\nB-main\nc\nd\ne\n${markedText(r2!, labels)}g\n`);
    expect(hasConflictMarkers(assemble(segs, half, labels))).toBe(true);
    const both = [...half, { choice: "both" as const, text: choiceText(r2!, "both") }];
    expect(conflictsLeft(segs, both)).toBe(0);
    expect(assemble(segs, both, labels)).toBe("a\nB-main\nc\nd\ne\nF-main\nF-feat\ng\n");
    // an edited region without its final newline still ends its line; an edit keeping markers is not resolved
    const edited = [
      { choice: "theirs" as const, text: choiceText(r1!, "theirs") },
      { choice: "edit" as const, text: "custom" },
    ];
    expect(assemble(segs, edited, labels)).toBe("a\nB-feat\nc\nd\ne\ncustom\ng\n");
    const stillMarked = { choice: "edit" as const, text: markedText(r2!, labels) };
    expect(isResolved(stillMarked)).toBe(false);
    expect(conflictsLeft(segs, [edited[0], stillMarked])).toBe(1);
    // an empty side resolves the region to nothing
    expect(assemble(segs, [edited[0], { choice: "edit", text: "" }], labels)).toBe("a\nB-feat\nc\nd\ne\ng\n");
  });

  it("a region at the end of a file without a final newline; both sides joined on separate lines", async () => {
    // git merge-file ends every side's last line inside a conflict block; hand-made segments keep the missing newline
    const real = regionsOf(await segmentsOf("x\nmine", "x\nold", "x\ntheirs"));
    expect(choiceText(real[0]!, "both")).toBe("mine\ntheirs\n");
    const segs: MergeSegment[] = [
      { kind: "clean", lines: ["x\n"] },
      { kind: "conflict", ours: ["mine"], base: ["old"], theirs: ["theirs"] },
    ];
    const [r] = regionsOf(segs);
    expect(choiceText(r!, "both")).toBe("mine\ntheirs");
    expect(assemble(segs, [{ choice: "both", text: choiceText(r!, "both") }], labels)).toBe("x\nmine\ntheirs");
  });

  it("maps a whole-file suggestion onto the regions when the clean lines are unchanged", async () => {
    const segs = await segmentsOf(ours, base, theirs);
    expect(mapSuggestion(segs, "a\nB\nc\nd\ne\nF1\nF2\ng\n")).toEqual(["B\n", "F1\nF2\n"]);
    expect(mapSuggestion(segs, "a\nc\nd\ne\ng\n")).toEqual(["", ""]);
    // the lines around the conflicts changed: only usable for the whole file
    expect(mapSuggestion(segs, "a\nB\nc\nD\ne\nF\ng\n")).toBeNull();
    expect(mapSuggestion(segs, "z\na\nB\nc\nd\ne\nF\ng\n")).toBeNull();
    const edge = await segmentsOf("mine\nx\n", "old\nx\n", "theirs\nx\n");
    expect(edge[0]!.kind).toBe("conflict");
    expect(mapSuggestion(edge, "both\nx\n")).toEqual(["both\n"]);
  });
});
