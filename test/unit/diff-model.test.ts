/** The diff viewer's pure helpers (components/diff/model.ts): collapse rules, split pairing, the file tree. */
import { describe, expect, it } from "vitest";
import {
  collapseReason,
  fileRows,
  fileTree,
  fromPageHunks,
  isGenerated,
  packFile,
  tokenRuns,
  unpackFile,
  type DiffFile,
} from "@/components/diff/model";
import { firstScreenFiles, FIRST_SCREEN_LINES } from "@/lib/highlight/diff";
import { highlightDiff, HighlightBudget } from "@/server/highlight";

/** A budget no loaded machine exhausts: these tests are about what is highlighted, not when it stops (highlight-pool.test.ts). */
const roomy = () => new HighlightBudget(60_000);

const file = (over: Partial<DiffFile> = {}): DiffFile => ({
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
        { type: "add", content: "B" },
        { type: "add", content: "C" },
        { type: "context", content: "d" },
      ],
    },
  ],
  ...over,
});

describe("diff model", () => {
  it("recognizes generated files and large diffs", () => {
    for (const p of ["package-lock.json", "web/yarn.lock", "app.min.js", "dist/x.js", "a/vendor/b.go", "x.js.map"])
      expect(isGenerated(p)).toBe(true);
    for (const p of ["src/app.ts", "README.md", "distance.ts"]) expect(isGenerated(p)).toBe(false);
    expect(collapseReason(file())).toBeNull();
    expect(collapseReason(file({ additions: 500 }))).toBe("large");
    expect(collapseReason(file({ newPath: "pnpm-lock.yaml" }))).toBe("generated");
  });

  it("numbers unified lines", () => {
    const rows = fileRows(file(), "unified");
    expect(rows[0]).toMatchObject({ kind: "hunk", header: "@@ -10,3 +10,4 @@" });
    expect(rows.slice(1).map((r) => (r.kind === "line" ? [r.line.oldNo, r.line.newNo] : null))).toEqual([
      [10, 10],
      [11, null],
      [null, 11],
      [null, 12],
      [12, 13],
    ]);
  });

  it("pairs deletions with the additions that follow in split view", () => {
    const rows = fileRows(file(), "split").slice(1);
    expect(rows.map((r) => (r.kind === "pair" ? [r.left?.line.content ?? null, r.right?.line.content ?? null] : null))).toEqual([
      ["a", "a"],
      ["b", "B"],
      [null, "C"],
      ["d", "d"],
    ]);
  });

  it("builds a tree with merged single-child folders, folders first", () => {
    const tree = fileTree([{ newPath: "src/app/a.ts" }, { newPath: "src/app/b.ts" }, { newPath: "README.md" }]);
    expect(tree.map((n) => n.name)).toEqual(["src/app", "README.md"]);
    expect(tree[0].children.map((n) => [n.name, n.fileIndex])).toEqual([
      ["a.ts", 0],
      ["b.ts", 1],
    ]);
  });

  it("packs files without their usual-value fields and unpacks them equal", () => {
    const cases: DiffFile[] = [
      file(),
      file({ hunks: [], truncated: true, truncatedReason: "total", status: "added", oldMode: null, oldSha: null, newSha: "a".repeat(40) }),
      file({ status: "deleted", newPath: "a.ts", newMode: null, oldSha: "b".repeat(40), hunks: [] }),
      file({ status: "renamed", oldPath: "old name.ts", similarity: 90, oldMode: "100644", newMode: "100755", isBinary: true, hunks: [] }),
      file({ status: "added", copiedFrom: "x.ts", isSubmodule: true, newMode: "160000", oldMode: null }),
    ];
    for (const f of cases) {
      const packed = packFile(f);
      expect(Object.values(packed)).not.toContain(undefined);
      expect(unpackFile(packed)).toEqual(f);
      expect(unpackFile(f)).toEqual(f);
    }
    const bare = packFile(cases[1]);
    expect(Object.keys(bare).sort()).toEqual(
      ["additions", "deletions", "newMode", "newSha", "newPath", "status", "truncated", "truncatedReason"].sort(),
    );
  });

  it("turns a page's hunk lines (git's text) back into DiffLines", () => {
    const hunk = { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, header: "fn" };
    expect(
      fromPageHunks([
        { ...hunk, lines: [" same", "-old", "\\ No newline at end of file", "+new", "\\ No newline at end of file", "+", " "] },
      ]),
    ).toEqual([
      {
        ...hunk,
        lines: [
          { type: "context", content: "same" },
          { type: "delete", content: "old", noNewlineAtEnd: true },
          { type: "add", content: "new", noNewlineAtEnd: true },
          { type: "add", content: "" },
          { type: "context", content: "" },
        ],
      },
    ]);
  });

  it("cuts a line into its highlighted runs, or gives up when they do not cover it", () => {
    const styles = [{ color: "red" }];
    expect(tokenRuns("const x", [5, 0, 2, -1], styles)).toEqual([
      { text: "const", style: { color: "red" } },
      { text: " x", style: null },
    ]);
    expect(tokenRuns("const x", [5, 0], styles)).toBeNull();
    expect(tokenRuns("", [], styles)).toEqual([]);
    expect(tokenRuns("x", null, styles)).toBeNull();
  });

  it("highlights a diff as token runs that rebuild every line, with one style palette", async () => {
    const ts = file({
      newPath: "src/a.ts",
      hunks: [
        {
          oldStart: 1,
          oldLines: 1,
          newStart: 1,
          newLines: 2,
          header: "",
          lines: [
            { type: "delete", content: "const a = 'x';\r" },
            { type: "add", content: 'export const a = "é<b>"; // note' },
            { type: "add", content: "" },
          ],
        },
      ],
    });
    const txt = file({ newPath: "notes.txt" });
    const h = await highlightDiff({ files: [ts, txt, ts] }, {}, roomy());
    expect(h.files[1]).toBeNull();
    for (const runs of [h.files[0], h.files[2]]) {
      expect(runs).toHaveLength(3);
      ts.hunks[0].lines.forEach((l, i) => {
        const text = l.content.replace(/\r$/, "");
        const cut = tokenRuns(text, runs![i], h.styles);
        expect(cut?.map((r) => r.text).join("")).toBe(text);
      });
    }
    expect(h.styles.length).toBeGreaterThan(0);
    expect(h.styles.every((s) => s.color?.startsWith("light-dark("))).toBe(true);
    expect(new Set(h.styles.map((s) => JSON.stringify(s))).size).toBe(h.styles.length);
    // the keyword is coloured with github-light's AA-corrected red
    expect(tokenRuns('export const a = "é<b>"; // note', h.files[0]![1], h.styles)![0]).toEqual({
      text: "export const ",
      style: { color: expect.stringContaining("#cf222e") },
    });
  });

  it("highlights only the first screen's files when asked, the same as the whole", async () => {
    const many = Array.from({ length: 60 }, (_, i) => file({ newPath: `f${i}.ts` }));
    const split = firstScreenFiles({ files: many });
    expect(split).toBe(Math.ceil(FIRST_SCREEN_LINES / 5)); // 5 lines a file
    const whole = await highlightDiff({ files: many }, {}, roomy());
    const first = await highlightDiff({ files: many }, { to: split }, roomy());
    // each call has its own palette: compare the runs with their styles resolved
    const resolve = (h: typeof whole, i: number) =>
      h.files[i]!.map((runs) => runs!.map((v, k) => (k % 2 === 1 ? (h.styles[v] ?? null) : v)));
    many.forEach((_, i) => (i < split ? expect(resolve(first, i)).toEqual(resolve(whole, i)) : expect(first.files[i]).toBeNull()));
  });
});
