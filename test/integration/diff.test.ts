/**
 * The diff model (server/git/diff.ts; docs/pulls.md "Diff") against `git diff` itself on real
 * repositories: renames, copies, binary files, mode changes, missing final newlines, empty files,
 * CRLF, unicode and space-containing paths, submodules, deletions, additions, truncation, path
 * filters, three-dot ranges and range commits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffCommit, diffThreeDot, diffTrees, emptyTreeFor, type Diff, type DiffFile } from "@/server/git/diff";
import { aheadBehind, countCommits, listRangeCommits } from "@/server/git/commits";
import { hunksOf, renderHunks, workRepo, type WorkRepo } from "../diff-fixtures";

let r: WorkRepo;
let sub: WorkRepo;
let c1: string;
let c2: string;
let d: Diff;

const byPath = (diff: Diff, p: string): DiffFile => {
  const f = diff.files.find((x) => x.newPath === p);
  if (!f) throw new Error(`no file ${p} in ${diff.files.map((x) => x.newPath).join(", ")}`);
  return f;
};

/** Parsed name-status of `git diff -M -C -z` (status letters and paths). */
function nameStatus(repo: WorkRepo, a: string, b: string): string[][] {
  const parts = repo
    .git("diff", "--name-status", "-z", "-M", "-C", a, b)
    .split("\0")
    .filter((x, i, all) => i < all.length - 1);
  const out: string[][] = [];
  for (let i = 0; i < parts.length;) {
    const s = parts[i++];
    const n = s[0] === "R" || s[0] === "C" ? 2 : 1;
    out.push([s, ...parts.slice(i, i + n)]);
    i += n;
  }
  return out;
}

beforeAll(() => {
  sub = workRepo();
  sub.write("s.txt", "sub\n");
  const s1 = sub.commit("s1");
  sub.write("s.txt", "sub2\n");
  const s2 = sub.commit("s2");

  r = workRepo();
  const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  r.write("rename me.txt", lines);
  r.write("copy-src.txt", Array.from({ length: 30 }, (_, i) => `copy source ${i}`).join("\n") + "\n");
  r.write("bin.dat", Buffer.from([0, 1, 2, 3, 0, 255]));
  r.write("script.sh", "echo hi\n", 0o644);
  r.write("crlf.txt", "one\r\ntwo\r\nthree\r\n");
  r.write("delete-me.txt", "bye\nbye\n");
  r.write("noeol.txt", "a\nb");
  r.write("src/ü dir/naïve file.txt", "alpha\nbeta\n");
  r.write("tab\tname.txt", "t\n");
  r.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.dir, "mod");
  r.git("-C", "mod", "checkout", "-q", s1);
  c1 = r.commit("first");

  r.git("mv", "rename me.txt", "renamed file ✓.txt");
  r.write("renamed file ✓.txt", lines.replace("line 20\n", "line twenty\n"));
  r.write("copy-src.txt", Array.from({ length: 30 }, (_, i) => `copy source ${i}`).join("\n") + "\nmore\n");
  r.write("copy-dst.txt", Array.from({ length: 30 }, (_, i) => `copy source ${i}`).join("\n") + "\n");
  r.write("bin.dat", Buffer.from([0, 9, 9, 9, 0, 255]));
  r.write("script.sh", "echo hi\n", 0o755);
  r.write("crlf.txt", "one\r\nTWO\r\nthree\r\n");
  r.remove("delete-me.txt");
  r.write("noeol.txt", "a\nc");
  r.write("empty.txt", "");
  r.write("src/ü dir/naïve file.txt", "alpha\nbeta\ngamma\n");
  r.write("tab\tname.txt", "t\nu\n");
  r.write("added.txt", "new\nfile\n");
  r.git("-C", "mod", "checkout", "-q", s2);
  c2 = r.commit("second");
  return async () => {};
});

afterAll(() => {
  r?.cleanup();
  sub?.cleanup();
});

describe("diffTrees against git diff", () => {
  beforeAll(async () => {
    d = await diffTrees(r.gitDir, c1, c2);
  });

  it("has the same files, statuses and paths as git diff --name-status -M -C", () => {
    const expected = nameStatus(r, c1, c2);
    expect(d.files.length).toBe(expected.length);
    expect(d.totalFiles).toBe(expected.length);
    for (const [i, [s, p1, p2]] of expected.entries()) {
      const f = d.files[i];
      expect(f.oldPath).toBe(p1);
      expect(f.newPath).toBe(p2 ?? p1);
      const status = { A: "added", C: "added", D: "deleted", M: "modified", R: "renamed", T: "modified" }[s[0]];
      expect(f.status).toBe(status);
    }
  });

  it("has the same hunks, byte for byte, as git diff", () => {
    const patch = r.git("-c", "core.quotePath=false", "diff", "-M", "-C", "--no-color", c1, c2);
    expect(renderHunks(d)).toBe(hunksOf(patch));
  });

  it("has the same counts as git diff --numstat", () => {
    const rows = r
      .git("diff", "--numstat", "-M", "-C", c1, c2)
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    const adds = rows.reduce((s, x) => s + (x[0] === "-" ? 0 : Number(x[0])), 0);
    const dels = rows.reduce((s, x) => s + (x[1] === "-" ? 0 : Number(x[1])), 0);
    expect(d.totalAdditions).toBe(adds);
    expect(d.totalDeletions).toBe(dels);
    expect(d.files.reduce((s, f) => s + f.additions, 0)).toBe(adds);
    expect(d.truncated).toBe(false);
  });

  it("detects the rename with its similarity and the space/unicode paths", () => {
    const f = byPath(d, "renamed file ✓.txt");
    expect(f).toMatchObject({ status: "renamed", oldPath: "rename me.txt", additions: 1, deletions: 1 });
    expect(f.similarity).toBeGreaterThan(90);
    expect(byPath(d, "src/ü dir/naïve file.txt")).toMatchObject({ status: "modified", additions: 1 });
    expect(byPath(d, "tab\tname.txt")).toMatchObject({ status: "modified", additions: 1 });
  });

  it("reports a copy as added with copiedFrom", () => {
    const f = byPath(d, "copy-dst.txt");
    expect(f).toMatchObject({ status: "added", copiedFrom: "copy-src.txt", oldPath: "copy-src.txt", additions: 0, deletions: 0 });
    expect(f.similarity).toBe(100);
  });

  it("flags binary files without hunks, mode changes, deletions, additions and empty files", () => {
    expect(byPath(d, "bin.dat")).toMatchObject({ isBinary: true, hunks: [], additions: 0, deletions: 0 });
    expect(byPath(d, "script.sh")).toMatchObject({ oldMode: "100644", newMode: "100755", hunks: [], status: "modified" });
    expect(byPath(d, "delete-me.txt")).toMatchObject({ status: "deleted", newMode: null, newSha: null, deletions: 2 });
    expect(byPath(d, "added.txt")).toMatchObject({ status: "added", oldMode: null, oldSha: null, additions: 2 });
    expect(byPath(d, "empty.txt")).toMatchObject({
      status: "added",
      hunks: [],
      additions: 0,
      newSha: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
    });
  });

  it("keeps CRLF in content and flags a missing final newline", () => {
    const crlf = byPath(d, "crlf.txt");
    expect(crlf.hunks[0].lines.map((l) => l.content)).toContain("TWO\r");
    const noeol = byPath(d, "noeol.txt").hunks[0].lines;
    expect(noeol.filter((l) => l.noNewlineAtEnd).map((l) => [l.type, l.content])).toEqual([
      ["delete", "b"],
      ["add", "c"],
    ]);
  });

  it("reports a submodule pointer change with both commits", () => {
    const f = byPath(d, "mod");
    expect(f).toMatchObject({ isSubmodule: true, oldMode: "160000", newMode: "160000", status: "modified" });
    expect(f.oldSha).toMatch(/^[0-9a-f]{40}$/);
    expect(f.newSha).not.toBe(f.oldSha);
  });

  it("returns one file by either path, and a page of files, with whole-range totals", async () => {
    const one = await diffTrees(r.gitDir, c1, c2, { path: "rename me.txt" });
    expect(one.files.map((f) => f.newPath)).toEqual(["renamed file ✓.txt"]);
    expect(one.files[0].hunks).toEqual(byPath(d, "renamed file ✓.txt").hunks);
    expect(one.totalFiles).toBe(d.totalFiles);
    const page = await diffTrees(r.gitDir, c1, c2, { paths: ["crlf.txt", "noeol.txt", "nope"] });
    expect(page.files.map((f) => f.newPath)).toEqual(["crlf.txt", "noeol.txt"]);
  });

  it("a filtered request (pathspec run) returns each file exactly as the whole diff does", async () => {
    const paged = await diffTrees(r.gitDir, c1, c2, { paths: d.files.map((f) => f.newPath) });
    expect(paged).toEqual(d);
    for (const f of d.files) {
      const one = await diffTrees(r.gitDir, c1, c2, { path: f.newPath });
      expect(one.files).toEqual([f]);
    }
  });

  it("diffs a root commit against the empty tree", async () => {
    const root = await diffCommit(r.gitDir, c1, []);
    expect(root.files.every((f) => f.status === "added")).toBe(true);
    const patch = r.git("-c", "core.quotePath=false", "diff", "-M", "-C", emptyTreeFor(c1), c1);
    expect(renderHunks(root)).toBe(hunksOf(patch));
  });
});

describe("limits", () => {
  let big: WorkRepo;
  let b1: string;
  let b2: string;
  beforeAll(() => {
    big = workRepo();
    big.write("a.txt", "x\n");
    b1 = big.commit("one");
    big.write("huge.txt", Array.from({ length: 5000 }, (_, i) => `l${i}`).join("\n") + "\n");
    big.write("long.txt", `${"y".repeat(300_000)}\nshort\n`);
    for (let i = 0; i < 30; i++) big.write(`many/f${String(i).padStart(2, "0")}.txt`, "1\n2\n3\n");
    b2 = big.commit("two");
  });
  afterAll(() => big?.cleanup());

  it("cuts a huge file at the per-file limit and keeps the real counts", async () => {
    const diff = await diffTrees(big.gitDir, b1, b2, { limits: { maxFileLines: 1000 } });
    const f = byPath(diff, "huge.txt");
    expect(f.truncated).toBe(true);
    expect(f.truncatedReason).toBe("file");
    expect(f.hunks.flatMap((h) => h.lines)).toHaveLength(1000);
    expect(f.additions).toBe(5000);
    expect(diff.truncated).toBe(true);
    expect(byPath(diff, "many/f00.txt").truncated).toBe(false);
  });

  it("cuts an over-long line and marks its file", async () => {
    const diff = await diffTrees(big.gitDir, b1, b2, { limits: { maxLineBytes: 1000 } });
    const f = byPath(diff, "long.txt");
    expect(f.truncated).toBe(true);
    expect(f.hunks[0].lines.map((l) => l.content.length)).toEqual([1000, 5]);
  });

  it("stops at the total budget: later files keep metadata, lose hunks, and say why", async () => {
    const diff = await diffTrees(big.gitDir, b1, b2, { limits: { maxTotalLines: 100 } });
    expect(diff.truncated).toBe(true);
    expect(diff.files).toHaveLength(32);
    expect(diff.totalAdditions).toBe(5000 + 2 + 90);
    const last = byPath(diff, "many/f29.txt");
    expect(last).toMatchObject({ truncated: true, truncatedReason: "total", hunks: [], additions: 3 });
    expect(diff.files.flatMap((f) => f.hunks.flatMap((h) => h.lines)).length).toBeLessThanOrEqual(100);
  });

  it("lists at most maxFiles files but counts them all", async () => {
    const diff = await diffTrees(big.gitDir, b1, b2, { limits: { maxFiles: 5 } });
    expect(diff.files).toHaveLength(5);
    expect(diff.totalFiles).toBe(32);
    expect(diff.truncated).toBe(true);
  });
});

describe("ranges", () => {
  let g: WorkRepo;
  let base: string;
  let head: string;
  let fork: string;
  beforeAll(() => {
    g = workRepo();
    g.write("f.txt", "1\n");
    fork = g.commit("root");
    g.git("checkout", "-q", "-b", "topic");
    g.write("topic.txt", "t\n");
    g.commit("topic one");
    g.write("topic.txt", "t\nu\n");
    head = g.commit("topic two");
    g.git("checkout", "-q", "main");
    g.write("main.txt", "m\n");
    base = g.commit("main moves on");
  });
  afterAll(() => g?.cleanup());

  it("three-dot diff shows only the head's changes since the merge base", async () => {
    const diff = await diffThreeDot(g.gitDir, base, head);
    expect(diff.mergeBaseSha).toBe(fork);
    expect(diff.files.map((f) => f.newPath)).toEqual(["topic.txt"]);
    expect(renderHunks(diff)).toBe(hunksOf(g.git("diff", `${base}...${head}`)));
    const twoDot = await diffTrees(g.gitDir, base, head);
    expect(twoDot.files.map((f) => f.newPath).sort()).toEqual(["main.txt", "topic.txt"]);
  });

  it("lists range commits oldest first with the total, and ahead/behind counts", async () => {
    const { commits, totalCommits } = await listRangeCommits(g.gitDir, base, head);
    expect(totalCommits).toBe(2);
    expect(commits.map((c) => c.message)).toEqual(["topic one", "topic two"]);
    expect(commits[1].sha).toBe(head);
    expect(commits[0]).toMatchObject({ author: "svc", authorEmail: "svc@localhost" });
    expect((await listRangeCommits(g.gitDir, base, head, 1)).commits.map((c) => c.message)).toEqual(["topic one"]);
    expect(await aheadBehind(g.gitDir, base, head)).toEqual({ aheadBy: 2, behindBy: 1 });
    expect(await countCommits(g.gitDir, head)).toBe(3);
  });

  it("refuses unrelated histories", async () => {
    g.git("checkout", "-q", "--orphan", "other");
    g.write("o.txt", "o\n");
    const other = g.commit("orphan");
    await expect(diffThreeDot(g.gitDir, base, other)).rejects.toThrow(/different histories/);
  });
});
