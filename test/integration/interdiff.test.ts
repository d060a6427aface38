/**
 * The interdiff of two revisions of a pull request (server/git/interdiff.ts; docs/pulls.md
 * "Interdiff") on a real repository: a pure rebase is empty, an amended line after a rebase is
 * that line alone, a new commit on the same base is that commit's diff, and a conflicting replay
 * falls back to head → head, flagged.
 */
import { beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { diffTrees, type Diff } from "@/server/git/diff";
import { interdiff, interdiffPage } from "@/server/git/interdiff";
import { setPatchCacheLimits } from "@/server/git/diff-patch-cache";
import { commitFiles, git, initWork, rev } from "./merge-fixtures";

/** Lines 1..n of a file, one per line, with line `i` replaced where `edits` says. */
const numbered = (n: number, edits: Record<number, string> = {}, prefix = "") =>
  Array.from({ length: n }, (_, i) => edits[i + 1] ?? `${prefix}line ${i + 1}`).join("\n") + "\n";

/** The changed lines of a diff as "path: +text" / "path: -text". */
const changes = (d: Diff) =>
  d.files.flatMap((f) =>
    f.hunks.flatMap((h) =>
      h.lines.filter((l) => l.type !== "context").map((l) => `${f.newPath}: ${l.type === "add" ? "+" : "-"}${l.content}`),
    ),
  );

let work: string;
let gitDir: string;
let oldBase: string;
let oldHead: string;
let newBase: string;

beforeAll(() => {
  work = initWork({ "a.txt": numbered(40), "other.txt": "other\n" });
  gitDir = path.join(work, ".git");
  oldBase = rev(work, "main");
  git(work, ["checkout", "-q", "-b", "feat"]);
  oldHead = commitFiles(work, { "a.txt": numbered(40, { 20: "changed 20", 30: "changed 30" }) }, "change two lines", "Bob");
  // the base moves: three lines inserted at the top of a.txt (shifting the change), another file edited
  git(work, ["checkout", "-q", "main"]);
  newBase = commitFiles(work, { "a.txt": "top 1\ntop 2\ntop 3\n" + numbered(40), "other.txt": "other, upstream\n" }, "upstream");
});

/** The change rebased onto the new base (a real `git rebase`), optionally amended with `files`. */
function rebased(branch: string, files?: Record<string, string>): string {
  git(work, ["checkout", "-q", "-b", branch, oldHead]);
  git(work, ["rebase", "-q", newBase]);
  if (files) {
    commitFiles(work, files, "amend");
    git(work, ["reset", "-q", "--soft", "HEAD~2"]);
    git(work, ["commit", "-q", "-m", "change two lines (amended)"], "Bob");
  }
  return rev(work, "HEAD");
}

describe("interdiff", () => {
  it("is empty for a pure rebase onto a moved base (the base's own changes are left out)", async () => {
    const newHead = rebased("feat-rebased");
    // the plain head → head diff carries the upstream commit's changes
    expect(changes(await diffTrees(gitDir, oldHead, newHead))).toContain("other.txt: +other, upstream");
    const d = await interdiff(gitDir, { oldBase, oldHead, newBase, newHead });
    expect(d).toMatchObject({ empty: true, replayed: true, rebaseConflicted: false, totalFiles: 0, files: [] });
  });

  it("shows exactly the one amended line when the rebased head also amends it", async () => {
    const newHead = rebased("feat-amended", {
      "a.txt": "top 1\ntop 2\ntop 3\n" + numbered(40, { 20: "changed 20", 30: "changed 30 again" }),
    });
    const d = await interdiff(gitDir, { oldBase, oldHead, newBase, newHead });
    expect(d.empty).toBe(false);
    expect(d.rebaseConflicted).toBe(false);
    expect(d.files.map((f) => f.newPath)).toEqual(["a.txt"]);
    expect(changes(d)).toEqual(["a.txt: -changed 30", "a.txt: +changed 30 again"]);
    // line numbers are the new head's (the replayed change sits on the new base)
    expect(d.files[0].hunks[0].newStart).toBeLessThanOrEqual(33);
    expect(d.files[0].hunks[0].newStart + d.files[0].hunks[0].newLines).toBeGreaterThan(33);
    // the page form runs the same range, in the hunk pages' shape
    const page = await interdiffPage(gitDir, { oldBase, oldHead, newBase, newHead });
    expect(page).toMatchObject({ from: d.from, to: newHead, replayed: true, nextCursor: null });
    expect(page.files.map((f) => f.newPath)).toEqual(["a.txt"]);
  });

  it("equals the new commit's diff when the base did not move", async () => {
    git(work, ["checkout", "-q", "-b", "feat-more", oldHead]);
    const newHead = commitFiles(
      work,
      { "b.txt": "new file\n", "a.txt": numbered(40, { 20: "changed 20", 30: "changed 30", 5: "five" }) },
      "more",
      "Bob",
    );
    const d = await interdiff(gitDir, { oldBase, oldHead, newBase: oldBase, newHead });
    const commit = await diffTrees(gitDir, oldHead, newHead);
    expect(d).toMatchObject({ empty: false, replayed: false, rebaseConflicted: false, from: oldHead, to: newHead });
    expect(changes(d)).toEqual(changes(commit));
    expect(changes(d)).toEqual(["a.txt: -line 5", "a.txt: +five", "b.txt: +new file"]);
  });

  it("falls back to head → head, flagged, when the replay conflicts", async () => {
    // the base rewrites line 30 too: the old change no longer applies cleanly
    git(work, ["checkout", "-q", "-b", "upstream-conflict", oldBase]);
    const conflictBase = commitFiles(work, { "a.txt": numbered(40, { 30: "upstream 30" }) }, "upstream edits 30");
    const newHead = commitFiles(work, { "a.txt": numbered(40, { 20: "changed 20", 30: "resolved 30" }) }, "rebased by hand", "Bob");
    const d = await interdiff(gitDir, { oldBase, oldHead, newBase: conflictBase, newHead });
    expect(d).toMatchObject({ rebaseConflicted: true, replayed: false, conflicts: ["a.txt"], from: oldHead, to: newHead, empty: false });
    expect(changes(d)).toEqual(changes(await diffTrees(gitDir, oldHead, newHead)));
  });

  it("gives the same replayed tree for the same revisions, and makes it again once git's gc pruned it", async () => {
    const newHead = rev(work, "feat-amended");
    const refs = git(gitDir, ["for-each-ref"]);
    const a = await interdiff(gitDir, { oldBase, oldHead, newBase, newHead });
    expect(git(gitDir, ["for-each-ref"])).toBe(refs); // the replay's objects are unreferenced
    expect(a.from).toBe(git(gitDir, ["rev-parse", `${a.from}^{tree}`]).trim());
    // the replay is remembered (the same T), and its tree is gone after a prune of unreachable objects
    // (T is also the tree of the pure rebase of the first test: that branch and the reflogs go first)
    git(work, ["branch", "-q", "-D", "feat-rebased"]);
    git(gitDir, ["reflog", "expire", "--expire=now", "--all"]);
    git(gitDir, ["prune", "--expire=now"]);
    expect(() => git(gitDir, ["cat-file", "-e", a.from])).toThrow();
    // a read that runs git (the patch cache off) needs T: it is written again
    setPatchCacheLimits({ maxBytes: 0 });
    try {
      const page = await interdiffPage(gitDir, { oldBase, oldHead, newBase, newHead });
      expect(page.from).toBe(a.from);
      expect(page.files.map((f) => f.newPath)).toEqual(["a.txt"]);
    } finally {
      setPatchCacheLimits();
    }
    git(gitDir, ["cat-file", "-e", a.from]);
  });

  it("refuses ids that are not resolved", async () => {
    await expect(interdiff(gitDir, { oldBase: "main", oldHead, newBase, newHead: oldHead })).rejects.toThrow(/resolved object id/);
  });
});
