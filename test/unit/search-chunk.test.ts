/**
 * The semantic index's chunker (docs/ai.md "Index"): real sources from node_modules
 * (zod's TypeScript, ms's JavaScript) and a Python module are cut at syntax boundaries with
 * names; files without a grammar become blocks; identifier splitting feeds the search words.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BLOCK_LINES, MAX_CHUNK_LINES, chunkFile } from "@/server/services/search/chunk";
import { indexText, queryWords, splitIdentifier } from "@/server/services/search/tokens";
import { looksMinified, skippedPath } from "@/server/services/search/files";

const PYTHON = `import re


class Tokenizer:
    """Splits source text into tokens."""

    pattern = re.compile(r"\\w+")

    def __init__(self, text):
        self.text = text

    @property
    def tokens(self):
        # every word of the text
        return self.pattern.findall(self.text)


def count_words(text):
    """Counts the words of a text."""
    return len(Tokenizer(text).tokens)
`;

describe("chunkFile", () => {
  it("cuts zod's TypeScript at functions, with names, doc comments and exact lines", async () => {
    const source = readFileSync("node_modules/zod/src/v4/core/util.ts", "utf8");
    const lines = source.split("\n");
    const chunks = await chunkFile("src/util.ts", source);
    const escape = chunks.find((c) => c.name === "escapeRegex")!;
    expect(escape).toMatchObject({ chunkType: "function", language: "typescript" });
    expect(lines[escape.startLine - 1]).toMatch(/export function escapeRegex/);
    expect(escape.content).toBe(lines.slice(escape.startLine - 1, escape.endLine).join("\n"));
    expect(escape.nameText).toContain("escape regex");
    const names = new Set(chunks.map((c) => c.name));
    for (const n of ["slugify", "mergeDefs", "getEnumValues", "joinValues"]) expect(names).toContain(n);
    expect(chunks.every((c) => c.endLine - c.startLine < Math.max(MAX_CHUNK_LINES, BLOCK_LINES))).toBe(true);
    // every line with code is in some chunk, and chunks do not overlap
    const sorted = [...chunks].sort((a, b) => a.startLine - b.startLine);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.startLine).toBeGreaterThan(sorted[i - 1]!.endLine);
  });

  it("splits a class into its methods (Class.method) and long constructor functions into their members", async () => {
    const chunks = await chunkFile("src/schemas.ts", readFileSync("node_modules/zod/src/v4/classic/schemas.ts", "utf8"));
    expect(chunks.find((c) => c.name === "ZodType.refine")).toMatchObject({ chunkType: "method" });
    expect(chunks.filter((c) => c.name === "ZodType").length).toBeGreaterThan(0);
  });

  it("gives a class's methods their own doc comments, not the class's leftover lines", async () => {
    const source = [
      "class Program {",
      "  constructor() {",
      "    this.flags = [];",
      "  }",
      "",
      "  /**",
      "   * Get or set the program version.",
      "   *",
      "   * Registers a flag that prints the version number.",
      "   */",
      "",
      "  version(str) {",
      "    this.v = str;",
      "  }",
      "}",
    ].join("\n");
    const chunks = await chunkFile("program.js", source);
    const version = chunks.find((c) => c.name === "Program.version")!;
    expect(version).toMatchObject({ chunkType: "method", startLine: 6, endLine: 14 });
    expect(version.docText).toContain("version number");
    expect(chunks.filter((c) => c.name === "Program").every((c) => !c.content.includes("Get or set"))).toBe(true);
  });

  it("gives a function its block comment whole when the comment's lines do not start with *", async () => {
    const source = [
      "const x = 1;",
      "",
      "/*",
      "  Generates the transaction for a pipeline",
      "  that spans several nodes.",
      "*/",
      "function generateMulti(nodes) {",
      "  return nodes.length;",
      "}",
      "",
      "function other() { return x; } /* trailing */",
      "function last() {",
      "  return 2;",
      "}",
    ].join("\n");
    const chunks = await chunkFile("pipeline.js", source);
    expect(chunks.find((c) => c.name === "generateMulti")).toMatchObject({
      startLine: 3,
      endLine: 9,
      docText: expect.stringContaining("spans several nodes"),
    });
    expect(chunks.filter((c) => c.chunkType === "block").every((c) => !c.content.includes("several nodes"))).toBe(true);
    // a comment after code on its line is not the next function's doc comment
    expect(chunks.find((c) => c.name === "last")).toMatchObject({ startLine: 12 });
  });

  it("cuts CommonJS (ms) at its functions", async () => {
    const chunks = await chunkFile("index.js", readFileSync("node_modules/ms/index.js", "utf8"));
    const parse = chunks.find((c) => c.name === "parse")!;
    expect(parse).toMatchObject({ chunkType: "function", language: "javascript" });
    expect(parse.docText).toMatch(/pars/); // its /** Parse the given `str` … */ comment
    expect(chunks.map((c) => c.name)).toEqual(expect.arrayContaining(["fmtShort", "fmtLong", "plural"]));
  });

  it("cuts Python at classes, methods (decorators included) and functions", async () => {
    const chunks = await chunkFile("tok.py", PYTHON);
    const byName = Object.fromEntries(chunks.map((c) => [c.name ?? `block@${c.startLine}`, c]));
    expect(byName["Tokenizer"]).toMatchObject({ chunkType: "class", startLine: 4, language: "python" });
    expect(byName["Tokenizer.__init__"]).toMatchObject({ chunkType: "method", startLine: 9, endLine: 10 });
    expect(byName["Tokenizer.tokens"]).toMatchObject({ chunkType: "method", startLine: 12, endLine: 15 });
    expect(byName["count_words"]).toMatchObject({ chunkType: "function", startLine: 18, endLine: 20 });
    expect(byName["count_words"]!.docText).toContain("counts the words");
    expect(byName["block@1"]).toMatchObject({ chunkType: "block", endLine: 1 });
  });

  it("cuts files without a grammar into blocks of lines", async () => {
    const text = Array.from({ length: 120 }, (_, i) => `line ${i + 1} of the notes`).join("\n");
    const chunks = await chunkFile("NOTES.txt", text);
    expect(chunks.map((c) => [c.startLine, c.endLine, c.chunkType, c.language])).toEqual([
      [1, 50, "block", "text"],
      [51, 100, "block", "text"],
      [101, 120, "block", "text"],
    ]);
  });
});

describe("search words", () => {
  it("split identifiers in every style, keeping the whole identifier", () => {
    expect(splitIdentifier("parseQueryString")).toEqual(["parse", "query", "string"]);
    expect(splitIdentifier("HTTPServer2")).toEqual(["http", "server", "2"]);
    expect(splitIdentifier("snake_case-name")).toEqual(["snake", "case", "name"]);
    expect(indexText("const parseURL = x")).toBe("const parse url parseurl");
  });

  it("drop stop words from queries but keep identifiers", () => {
    expect(queryWords("How do I parse the query string of a URL?")).toEqual(["parse", "query", "string", "url"]);
    expect(queryWords("escapeRegex")).toEqual(["escape", "regex", "escaperegex"]);
  });

  it("skip vendored, generated and minified files", () => {
    expect(skippedPath("node_modules/a/index.js")).toBe(true);
    expect(skippedPath("web/dist/app.js")).toBe(true);
    expect(skippedPath("static/app.min.js")).toBe(true);
    expect(skippedPath("package-lock.json")).toBe(true);
    expect(skippedPath("src/distance.ts")).toBe(false);
    expect(looksMinified("x".repeat(5000))).toBe(true);
    expect(looksMinified("const a = 1;\n".repeat(100))).toBe(false);
  });
});
