/**
 * The agent page reads a proposed change's `diff` (made by git through server/git/text-diff.ts)
 * with components/agent/parse-diff.ts: checked here against diffs git really printed — create,
 * modify with several hunks, a line that looks like a header, no newline at the end, delete,
 * binary-looking input and the truncation note.
 */
import { describe, expect, it } from "vitest";
import { textDiff } from "@/server/git/text-diff";
import { parseUnifiedDiff } from "@/components/agent/parse-diff";

const buf = (s: string) => Buffer.from(s, "utf8");
const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";

describe("parseUnifiedDiff on git's own output", () => {
  it("a created file: status added, every line an addition", async () => {
    const d = parseUnifiedDiff(await textDiff("src/new.ts", null, buf("export const a = 1;\nexport const b = 2;\n")), "src/new.ts");
    expect(d).toMatchObject({
      status: "added",
      additions: 2,
      deletions: 0,
      oldMode: null,
      newMode: "100644",
      isBinary: false,
      truncated: false,
    });
    expect(d.hunks).toHaveLength(1);
    expect(d.hunks[0]).toMatchObject({ oldStart: 0, oldLines: 0, newStart: 1, newLines: 2 });
    expect(d.hunks[0]!.lines).toEqual([
      { type: "add", content: "export const a = 1;" },
      { type: "add", content: "export const b = 2;" },
    ]);
  });

  it("a modify with two hunks, a deleted line that reads like a header, and counts as git's", async () => {
    const before = lines(40, (i) => (i === 5 ? "-- not a header" : `line ${i}`));
    const after = lines(40, (i) => (i === 5 ? "++ still not a header" : i === 35 ? "line thirty-five" : `line ${i}`));
    const d = parseUnifiedDiff(await textDiff("notes.txt", buf(before), buf(after)), "notes.txt");
    expect(d.status).toBe("modified");
    expect([d.additions, d.deletions]).toEqual([2, 2]);
    expect(d.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([
      [2, 7, 2, 7],
      [32, 7, 32, 7],
    ]);
    const changed = d.hunks[0]!.lines.filter((l) => l.type !== "context");
    expect(changed).toEqual([
      { type: "delete", content: "-- not a header" },
      { type: "add", content: "++ still not a header" },
    ]);
    expect(d.hunks[0]!.lines.filter((l) => l.type === "context")).toHaveLength(6);
  });

  it("no newline at the end marks the line before git's note", async () => {
    const d = parseUnifiedDiff(await textDiff("a.txt", buf("one\ntwo\n"), buf("one\ntwo")), "a.txt");
    const last = d.hunks.at(-1)!.lines;
    expect(last.at(-1)).toMatchObject({ type: "add", content: "two", noNewlineAtEnd: true });
    expect(last.find((l) => l.type === "delete")).toMatchObject({ content: "two" });
  });

  it("a deleted file: status deleted, every line a deletion", async () => {
    const d = parseUnifiedDiff(await textDiff("old.md", buf("# Old\n\ntext\n"), null), "old.md");
    expect(d).toMatchObject({ status: "deleted", additions: 0, deletions: 3, newMode: null });
  });

  it("the truncation note sets truncated; lines after the cut are not invented", async () => {
    const big = lines(2000, (i) => `row ${i} ${"x".repeat(40)}`);
    const text = await textDiff("big.txt", null, buf(big), { maxBytes: 4096 });
    const d = parseUnifiedDiff(text, "big.txt");
    expect(d.truncated).toBe(true);
    expect(d.additions).toBeLessThan(2000);
    expect(d.hunks[0]!.lines.every((l) => l.type === "add" && l.content.startsWith("row "))).toBe(true);
  });
});
