/** DiffParser (server/git/diff-parse.ts) on git's -z output: chunk boundaries never change the result. */
import { describe, expect, it } from "vitest";
import { DiffParser } from "@/server/git/diff-parse";

const Z = "\0";
const raw =
  `:100644 100644 ${"a".repeat(40)} ${"b".repeat(40)} M${Z}sp ace.txt${Z}` +
  `:100644 100644 ${"c".repeat(40)} ${"c".repeat(40)} R100${Z}old${Z}new dir/ü.txt${Z}` +
  `:000000 100644 ${"0".repeat(40)} ${"d".repeat(40)} A${Z}bin${Z}`;
const numstat = `1\t1\tsp ace.txt${Z}0\t0\t${Z}old${Z}new dir/ü.txt${Z}-\t-\tbin${Z}`;
const patch = [
  'diff --git "a/sp ace.txt" "b/sp ace.txt"',
  "index aaaaaaa..bbbbbbb 100644",
  "--- a/sp ace.txt",
  "+++ b/sp ace.txt",
  "@@ -1,2 +1,2 @@ function ctx()",
  " keep\r",
  "-diff --git looks like a header",
  "\\ No newline at end of file",
  "+new",
  "\\ No newline at end of file",
  "diff --git a/old b/new dir/ü.txt",
  "similarity index 100%",
  "rename from old",
  "rename to new dir/ü.txt",
  "diff --git a/bin b/bin",
  "new file mode 100644",
  "index 0000000..ddddddd",
  "Binary files /dev/null and b/bin differ",
  "",
].join("\n");
const all = Buffer.from(raw + numstat + Z + patch, "utf8");

function parse(chunkSize: number) {
  const p = new DiffParser();
  for (let i = 0; i < all.length; i += chunkSize) p.push(all.subarray(i, i + chunkSize));
  return p.finish();
}

describe("DiffParser", () => {
  it("parses records, counts and hunks", () => {
    const d = parse(all.length);
    expect(d).toMatchObject({ totalFiles: 3, totalAdditions: 1, totalDeletions: 1, truncated: false });
    expect(d.files.map((f) => [f.status, f.oldPath, f.newPath, f.isBinary])).toEqual([
      ["modified", "sp ace.txt", "sp ace.txt", false],
      ["renamed", "old", "new dir/ü.txt", false],
      ["added", "bin", "bin", true],
    ]);
    expect(d.files[0].hunks).toEqual([
      {
        oldStart: 1,
        oldLines: 2,
        newStart: 1,
        newLines: 2,
        header: "function ctx()",
        lines: [
          { type: "context", content: "keep\r" },
          { type: "delete", content: "diff --git looks like a header", noNewlineAtEnd: true },
          { type: "add", content: "new", noNewlineAtEnd: true },
        ],
      },
    ]);
    expect(d.files[1]).toMatchObject({ similarity: 100, hunks: [] });
    expect(d.files[2]).toMatchObject({ oldMode: null, oldSha: null, newMode: "100644" });
  });

  it("gives the same result whatever the chunk size", () => {
    const whole = parse(all.length);
    for (const size of [1, 2, 3, 7, 64]) expect(parse(size)).toEqual(whole);
  });

  it("counts additions, deletions and binary files from the patch when --numstat is absent", () => {
    const p = new DiffParser();
    p.push(Buffer.from(raw + Z + patch, "utf8"));
    expect(p.finish()).toEqual(parse(all.length));
  });

  it("parses empty output as an empty diff", () => {
    expect(new DiffParser().finish()).toEqual({ files: [], totalAdditions: 0, totalDeletions: 0, totalFiles: 0, truncated: false });
  });
});
