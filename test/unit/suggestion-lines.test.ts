/** The text side of applying suggestions (server/services/pulls/suggestion-lines.ts): byte-exact line edits. */
import { describe, expect, it } from "vitest";
import { applyLineEdits, joinLines, sameLines, splitLines, suggestionLines } from "@/server/services/pulls/suggestion-lines";

const edit = (file: string | Buffer, edits: { start: number; end: number; suggestion: string }[]) =>
  joinLines(applyLineEdits(splitLines(Buffer.from(file)), edits));

describe("suggestion lines", () => {
  it("splits with terminators and joins back byte for byte", () => {
    for (const f of ["", "a", "a\n", "a\r\nb", "\n\n", "a\r\n\r\nb\n", "x\ry\n"])
      expect(joinLines(splitLines(Buffer.from(f))).toString()).toBe(f);
    expect(splitLines(Buffer.from("a\r\nb")).map((l) => [l.text.toString(), l.eol])).toEqual([
      ["a", "\r\n"],
      ["b", ""],
    ]);
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x78, 0x0a]);
    expect(edit(latin1, [{ start: 2, end: 2, suggestion: "y" }])).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x79, 0x0a]));
  });

  it("reads a suggestion's lines: one final newline optional, empty deletes, a lone newline is one empty line", () => {
    expect(suggestionLines("a\nb")).toEqual(["a", "b"]);
    expect(suggestionLines("a\nb\n")).toEqual(["a", "b"]);
    expect(suggestionLines("a\r\nb\r\n")).toEqual(["a", "b"]);
    expect(suggestionLines("")).toEqual([]);
    expect(suggestionLines("\n")).toEqual([""]);
    expect(suggestionLines("a\n\n")).toEqual(["a", ""]);
  });

  it("keeps the file's line endings and its missing final newline", () => {
    expect(edit("a\r\nb\r\n", [{ start: 1, end: 1, suggestion: "x\ny" }]).toString()).toBe("x\r\ny\r\nb\r\n");
    expect(edit("a\nb", [{ start: 2, end: 2, suggestion: "x\ny\n" }]).toString()).toBe("a\nx\ny");
    expect(edit("a\r\nb", [{ start: 2, end: 2, suggestion: "x\ny" }]).toString()).toBe("a\r\nx\r\ny");
    expect(edit("a\nb", [{ start: 2, end: 2, suggestion: "" }]).toString()).toBe("a");
    expect(edit("a\nb\n", [{ start: 2, end: 2, suggestion: "" }]).toString()).toBe("a\n");
    expect(edit("a", [{ start: 1, end: 1, suggestion: "" }]).toString()).toBe("");
  });

  it("applies several edits by the original numbering; refuses overlaps and ranges outside the file", () => {
    expect(
      edit("1\n2\n3\n4\n5\n", [
        { start: 1, end: 1, suggestion: "one\nuno" },
        { start: 4, end: 5, suggestion: "" },
        { start: 2, end: 2, suggestion: "two" },
      ]).toString(),
    ).toBe("one\nuno\ntwo\n3\n");
    expect(() =>
      edit("1\n2\n3\n", [
        { start: 1, end: 2, suggestion: "" },
        { start: 2, end: 3, suggestion: "" },
      ]),
    ).toThrow(/overlapping/);
    expect(() => edit("1\n", [{ start: 2, end: 2, suggestion: "" }])).toThrow(/outside/);
  });

  it("compares line ranges with their terminators", () => {
    const a = splitLines(Buffer.from("x\ny\nz\n"));
    expect(sameLines(a, splitLines(Buffer.from("x\ny\nZ\n")), 1, 2)).toBe(true);
    expect(sameLines(a, splitLines(Buffer.from("x\ny\nZ\n")), 2, 3)).toBe(false);
    expect(sameLines(a, splitLines(Buffer.from("x\r\ny\n")), 1, 1)).toBe(false);
    expect(sameLines(a, splitLines(Buffer.from("x\ny")), 2, 2)).toBe(false);
    expect(sameLines(a, a, 3, 4)).toBe(false);
  });
});
