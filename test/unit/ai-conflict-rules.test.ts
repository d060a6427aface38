/**
 * The local conflict-resolution rules (server/ai/conflicts/rules.ts) on real `git merge-file`
 * runs (server/git/text-merge.ts): each rule, that no side's change is ever dropped silently,
 * and that markers stay when the rules are unsure.
 */
import { describe, expect, it } from "vitest";
import { hasConflictMarkers, parseMerge, resolveHunk, resolveSegments, splitKeep } from "@/server/ai/conflicts/rules";
import { localResolution } from "@/server/services/ai/suggest-conflict-resolution";
import { mergeTexts } from "@/server/git/text-merge";

const resolve = (base: string, ours: string, theirs: string, context?: { ourBranch?: string; theirBranch?: string }) =>
  localResolution({ path: "f.txt", base, ours, theirs, ...(context ? { context } : {}) });

describe("git merge-file and the rules", () => {
  it("a clean merge keeps both sides' changes, confidence high", async () => {
    const { answer, conflicts } = await resolve("a\nb\nc\nd\ne\n", "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n");
    expect(conflicts).toBe(0);
    expect(answer).toMatchObject({ resolved: "A\nb\nc\nd\nE\n", confidence: "high", engine: "local" });
  });

  it("both sides adding imports at the same place: union, ours first, medium, warned", async () => {
    const base = "import a\nimport b\n\nmain()\n";
    const { answer, local, conflicts } = await resolve(
      base,
      "import a\nimport b\nimport c\n\nmain()\n",
      "import a\nimport b\nimport d\n\nmain()\n",
    );
    expect(conflicts).toBe(1);
    expect(local.rules).toEqual(["union-same-place"]);
    expect(answer.resolved).toBe("import a\nimport b\nimport c\nimport d\n\nmain()\n");
    expect(answer.confidence).toBe("medium");
    expect(answer.warnings?.join(" ")).toMatch(/ours first/);
    expect(hasConflictMarkers(answer.resolved)).toBe(false);
  });

  it("both sides only adding lines at different places of a hunk: union, high", () => {
    const r = resolveHunk({ base: splitKeep("x\ny\n"), ours: splitKeep("o\nx\ny\n"), theirs: splitKeep("x\ny\nt\n") });
    expect(r).toMatchObject({ rule: "union", confidence: "high" });
    expect(r.lines!.join("")).toBe("o\nx\ny\nt\n");
  });

  it("a line both sides added identically at the same place is kept once", () => {
    const r = resolveHunk({ base: splitKeep("x\n"), ours: splitKeep("x\nsame\nmine\n"), theirs: splitKeep("x\nsame\n") });
    expect(r.lines!.join("")).toBe("x\nsame\nmine\n");
  });

  it("both sides equal: take it; one side equals base: take the other", () => {
    expect(resolveHunk({ base: ["b\n"], ours: ["n\n"], theirs: ["n\n"] })).toMatchObject({
      rule: "same",
      confidence: "high",
      lines: ["n\n"],
    });
    expect(resolveHunk({ base: ["b\n"], ours: ["b\n"], theirs: ["t\n"] })).toMatchObject({ rule: "theirs-only", lines: ["t\n"] });
    expect(resolveHunk({ base: ["b\n"], ours: ["o\n"], theirs: ["b\n"] })).toMatchObject({ rule: "ours-only", lines: ["o\n"] });
  });

  it("a whitespace-only change on one side gives way, with a warning naming what was dropped", () => {
    const r = resolveHunk({ base: ["if (x) {\n"], ours: ["if (x)  {\n"], theirs: ["if (y) {\n"] });
    expect(r).toMatchObject({ rule: "whitespace", confidence: "medium", lines: ["if (y) {\n"] });
    expect(r.warning).toMatch(/whitespace change dropped/);
  });

  it("both sides changing the same line differently: markers kept with branch labels, confidence low", async () => {
    const { answer, local } = await resolve("colour = red\nsize = 1\n", "colour = green\nsize = 1\n", "colour = blue\nsize = 1\n", {
      ourBranch: "main",
      theirBranch: "feature/blue",
    });
    expect(local.rules).toEqual(["unresolved"]);
    expect(answer.confidence).toBe("low");
    expect(answer.resolved).toBe(
      "<<<<<<< main\ncolour = green\n||||||| base\ncolour = red\n=======\ncolour = blue\n>>>>>>> feature/blue\nsize = 1\n",
    );
    expect(hasConflictMarkers(answer.resolved)).toBe(true);
    expect(answer.warnings?.join(" ")).toMatch(/could not be resolved safely/);
    // the alternatives: ours, theirs, both
    expect(answer.alternatives?.map((a) => a.content)).toEqual([
      "colour = green\nsize = 1\n",
      "colour = blue\nsize = 1\n",
      "colour = green\ncolour = blue\nsize = 1\n",
    ]);
  });

  it("a file with several conflicts: the resolved ones resolve, the unsure one keeps its markers, confidence is the lowest", async () => {
    const base = "import a\n\nfunction f() {\n  return 1;\n}\n\nfunction g() {\n  return 2;\n}\n";
    const ours = "import a\nimport b\n\nfunction f() {\n  return 10;\n}\n\nfunction g() {\n  return 2;\n}\n";
    const theirs = "import a\nimport c\n\nfunction f() {\n  return 100;\n}\n\nfunction g() {\n  return 2;\n}\n";
    const { answer, local } = await resolve(base, ours, theirs);
    expect(local.rules).toEqual(["union-same-place", "unresolved"]);
    expect(answer.confidence).toBe("low");
    expect(answer.resolved).toContain("import b\nimport c\n");
    expect(answer.resolved).toContain("<<<<<<< ours\n  return 10;\n||||||| base\n  return 1;\n=======\n  return 100;\n>>>>>>> theirs\n");
  });

  it("never drops a side's change: every line either side added is in the resolution or inside markers", async () => {
    const cases: Array<[string, string, string]> = [
      ["1\n2\n3\n", "1\nX\n3\n", "1\nY\n3\n"],
      ["1\n2\n3\n", "0\n1\n2\n3\n", "1\n2\n3\n4\n"],
      ["a\nb\n", "a\nb\nc\nd\n", "a\nb\ne\n"],
      ["k = 1\n", "k = 1\nl = 2\n", "k = 3\n"],
      ["", "ours only\n", "theirs only\n"],
    ];
    for (const [base, ours, theirs] of cases) {
      const { answer } = await resolve(base, ours, theirs);
      const baseLines = new Set(base.split("\n"));
      for (const side of [ours, theirs]) {
        for (const l of side.split("\n").filter((x) => x && !baseLines.has(x))) expect(answer.resolved.split("\n")).toContain(l);
      }
    }
  });

  it("file content that looks like markers does not confuse the parser (long markers)", async () => {
    const m = await mergeTexts("<<<<<<< not a marker\nx\n", "<<<<<<< not a marker\n", "<<<<<<< not a marker\ny\n");
    const segs = parseMerge(m.text);
    expect(segs).not.toBeNull();
    const r = resolveSegments(segs!, { ours: "ours", theirs: "theirs" });
    expect(r.resolved.startsWith("<<<<<<< not a marker\n")).toBe(true);
  });

  it("hasConflictMarkers: marker lines, not Markdown underlines", () => {
    expect(hasConflictMarkers("Title\n=======\n")).toBe(false);
    expect(hasConflictMarkers("a\n<<<<<<< HEAD\nb\n")).toBe(true);
    expect(hasConflictMarkers("a\n>>>>>>>\n")).toBe(true);
    expect(hasConflictMarkers("x <<<<<<< y\n")).toBe(false);
  });
});
