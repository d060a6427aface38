/** The diff viewer's pure helpers (components/diff/model.ts): collapse rules, split pairing, the file tree. */
import { describe, expect, it } from "vitest";
import { collapseReason, fileRows, fileTree, isGenerated, type DiffFile } from "@/components/diff/model";

const file = (over: Partial<DiffFile> = {}): DiffFile => ({
  oldPath: "a.ts", newPath: "a.ts", status: "modified", additions: 2, deletions: 1, isBinary: false, oldMode: "100644", newMode: "100644",
  truncated: false, isSubmodule: false, oldSha: null, newSha: null,
  hunks: [{ oldStart: 10, oldLines: 3, newStart: 10, newLines: 4, header: "", lines: [
    { type: "context", content: "a" }, { type: "delete", content: "b" }, { type: "add", content: "B" }, { type: "add", content: "C" }, { type: "context", content: "d" },
  ] }],
  ...over,
});

describe("diff model", () => {
  it("recognizes generated files and large diffs", () => {
    for (const p of ["package-lock.json", "web/yarn.lock", "app.min.js", "dist/x.js", "a/vendor/b.go", "x.js.map"]) expect(isGenerated(p)).toBe(true);
    for (const p of ["src/app.ts", "README.md", "distance.ts"]) expect(isGenerated(p)).toBe(false);
    expect(collapseReason(file())).toBeNull();
    expect(collapseReason(file({ additions: 500 }))).toBe("large");
    expect(collapseReason(file({ newPath: "pnpm-lock.yaml" }))).toBe("generated");
  });

  it("numbers unified lines", () => {
    const rows = fileRows(file(), "unified");
    expect(rows[0]).toMatchObject({ kind: "hunk", header: "@@ -10,3 +10,4 @@" });
    expect(rows.slice(1).map((r) => (r.kind === "line" ? [r.line.oldNo, r.line.newNo] : null))).toEqual([[10, 10], [11, null], [null, 11], [null, 12], [12, 13]]);
  });

  it("pairs deletions with the additions that follow in split view", () => {
    const rows = fileRows(file(), "split").slice(1);
    expect(rows.map((r) => (r.kind === "pair" ? [r.left?.line.content ?? null, r.right?.line.content ?? null] : null))).toEqual([["a", "a"], ["b", "B"], [null, "C"], ["d", "d"]]);
  });

  it("builds a tree with merged single-child folders, folders first", () => {
    const tree = fileTree([{ newPath: "src/app/a.ts" }, { newPath: "src/app/b.ts" }, { newPath: "README.md" }]);
    expect(tree.map((n) => n.name)).toEqual(["src/app", "README.md"]);
    expect(tree[0].children.map((n) => [n.name, n.fileIndex])).toEqual([["a.ts", 0], ["b.ts", 1]]);
  });
});
