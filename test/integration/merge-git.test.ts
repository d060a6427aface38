/**
 * server/git/merge*.ts against the git CLI on real repositories: each strategy's result equals
 * what `git merge --no-ff`, `git merge --squash` + commit and `git rebase` produce in a clone;
 * conflicted paths equal `git merge`'s; conflict sides (binary, delete/modify); refs move only by
 * compare-and-swap; the rebase's throwaway repository never outlives the call.
 */
import { existsSync, readdirSync, utimesSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MergeError, checkMerge, mergeTree } from "@/server/git/merge";
import { casDeleteRef, casUpdateRef } from "@/server/git/update-ref";
import { aheadBehind, commitTree, listRangeCommits, mergeBase, MAX_RANGE_COMMITS, type Identity } from "@/server/git/commits";
import { rebaseOnto } from "@/server/git/merge-rebase";
import { getConflictDetails } from "@/server/git/merge-conflicts";
import { bareCopy, cloneOf, commitFiles, git, initWork, refsOf, rev, tmpDir } from "./merge-fixtures";

const merger = { name: "Mona Merger", email: "mona@example.com", date: "1800000000 +0000" };

/** main and feature diverge cleanly: edits, an add, a rename, a cherry-pick of a main commit, a merge from main. */
function cleanFixture() {
  const work = initWork({ "a.txt": "a1\na2\na3\n", "b.txt": "b1\nb2\n", "old.txt": "rename me\n".repeat(20), "shared.txt": "s\n" });
  git(work, ["checkout", "-q", "-b", "feature"]);
  commitFiles(work, { "b.txt": "b1\nB2\n", "c.txt": "new\n" }, "feature: edit b, add c", "Bob");
  git(work, ["mv", "old.txt", "new.txt"]);
  git(work, ["commit", "-q", "-m", "feature: rename"], "Carol");
  git(work, ["checkout", "-q", "main"]);
  const pick = commitFiles(work, { "shared.txt": "s\nshared change\n" }, "main: shared change");
  commitFiles(work, { "a.txt": "A1\na2\na3\n" }, "main: edit a");
  git(work, ["checkout", "-q", "feature"]);
  git(work, ["cherry-pick", pick], "Bob");
  commitFiles(work, { "c.txt": "new\nmore\n" }, "feature: more c\n\nFixes #3", "Bob");
  const bare = bareCopy(work);
  return { bare, main: rev(work, "main"), head: rev(work, "feature") };
}

/** The commit of strategy "merge" as services/pulls/merge.ts writes it: the merged tree, parents [target, head], the merger as author and committer. */
async function mergeCommit(
  gitDir: string,
  input: { targetTip: string; head: string; message: string; committer: Identity },
): Promise<{ sha: string } | { conflicts: string[] }> {
  const merged = await mergeTree(gitDir, input.targetTip, input.head);
  if (merged.conflicts.length) return { conflicts: merged.conflicts };
  const parents = [input.targetTip, input.head];
  return {
    sha: await commitTree(gitDir, {
      tree: merged.tree,
      parents,
      message: input.message,
      author: input.committer,
      committer: input.committer,
    }),
  };
}

/** The commit of strategy "squash" as services/pulls/merge.ts writes it: the merged tree on the target, authored by the pull request's author. */
async function squashCommit(
  gitDir: string,
  input: { targetTip: string; head: string; message: string; author: Identity; committer: Identity },
): Promise<{ sha: string } | { conflicts: string[] }> {
  const merged = await mergeTree(gitDir, input.targetTip, input.head);
  if (merged.conflicts.length) return { conflicts: merged.conflicts };
  const parents = [input.targetTip];
  return {
    sha: await commitTree(gitDir, { tree: merged.tree, parents, message: input.message, author: input.author, committer: input.committer }),
  };
}

function treeOf(dir: string, what: string) {
  return git(dir, ["rev-parse", `${what}^{tree}`]).trim();
}

describe("merge engine vs the git CLI", () => {
  it("mergeability: clean tree, ahead/behind, merge base", async () => {
    const { bare, main, head } = cleanFixture();
    const check = await checkMerge(bare, main, head);
    expect(check.conflicts).toEqual([]);
    expect(await aheadBehind(bare, main, head)).toEqual({ aheadBy: 4, behindBy: 2 });
    expect(check).toMatchObject({ aheadBy: 4, behindBy: 2 });
    expect(await mergeBase(bare, main, head)).toBe(git(bare, ["merge-base", main, head]).trim());
    const clone = cloneOf(bare, ["feature"]);
    git(clone, ["merge", "-q", "--no-ff", "-m", "m", "feature"]);
    expect((await mergeTree(bare, main, head)).tree).toBe(treeOf(clone, "HEAD"));
  });

  it("merge: tree and parents equal git merge --no-ff; ref moves by CAS only", async () => {
    const { bare, main, head } = cleanFixture();
    const refsBefore = refsOf(bare);
    const r = await mergeCommit(bare, {
      targetTip: main,
      head,
      message: "Merge pull request #1 from o/feature\n\nTitle",
      committer: merger,
    });
    if (!("sha" in r)) throw new Error("conflict");
    expect(refsOf(bare)).toBe(refsBefore); // nothing referenced yet
    const clone = cloneOf(bare, ["feature"]);
    git(clone, ["merge", "-q", "--no-ff", "-m", "m", "feature"]);
    expect(treeOf(bare, r.sha)).toBe(treeOf(clone, "HEAD"));
    expect(git(bare, ["log", "-1", "--format=%P%n%an <%ae>%n%cn <%ce>%n%B", r.sha])).toBe(
      `${main} ${head}\nMona Merger <mona@example.com>\nMona Merger <mona@example.com>\nMerge pull request #1 from o/feature\n\nTitle\n\n`,
    );
    expect(await casUpdateRef(bare, "refs/heads/main", r.sha, head, "wrong old")).toBe(false);
    expect(rev(bare, "refs/heads/main")).toBe(main);
    expect(await casUpdateRef(bare, "refs/heads/main", r.sha, main, "merge")).toBe(true);
    expect(rev(bare, "refs/heads/main")).toBe(r.sha);
    expect(await casDeleteRef(bare, "refs/heads/feature", main)).toBe(false);
    expect(await casDeleteRef(bare, "refs/heads/feature", head)).toBe(true);
    expect(git(bare, ["for-each-ref", "refs/heads/feature"])).toBe("");
    git(bare, ["fsck", "--strict"]);
  });

  it("squash: tree equals git merge --squash + commit; author is the pull request's author", async () => {
    const { bare, main, head } = cleanFixture();
    const author = { name: "Pat Author", email: "pat@example.com" };
    const r = await squashCommit(bare, { targetTip: main, head, message: "Title (#1)", author, committer: merger });
    if (!("sha" in r)) throw new Error("conflict");
    const clone = cloneOf(bare, ["feature"]);
    git(clone, ["merge", "-q", "--squash", "feature"]);
    git(clone, ["commit", "-q", "-m", "squash"]);
    expect(treeOf(bare, r.sha)).toBe(treeOf(clone, "HEAD"));
    expect(git(bare, ["log", "-1", "--format=%P|%an <%ae>|%cn", r.sha]).trim()).toBe(`${main}|Pat Author <pat@example.com>|Mona Merger`);
  });

  it("rebase: commit sequence, trees, authors, author dates and messages equal git rebase; committer is the merger", async () => {
    const { bare, main, head } = cleanFixture();
    const refsBefore = refsOf(bare);
    const workRoot = tmpDir("merge-workroot-");
    const r = await rebaseOnto(bare, { targetTip: main, head, committer: merger, workRoot });
    if (!("sha" in r)) throw new Error("conflict");
    expect(refsOf(bare)).toBe(refsBefore);
    expect(readdirSync(workRoot)).toEqual([]);
    expect(existsSync(path.join(bare, "worktrees")) ? readdirSync(path.join(bare, "worktrees")) : []).toEqual([]);
    const clone = cloneOf(bare, ["feature"]);
    git(clone, ["checkout", "-q", "feature"]);
    git(clone, ["rebase", "-q", "main"], "Someone");
    const fmt = ["log", "--format=%T|%an <%ae>|%ad|%B", "--date=raw", `${main}..`];
    const ours = git(bare, [...fmt.slice(0, -1), `${main}..${r.sha}`]);
    const theirs = git(clone, [...fmt.slice(0, -1), `${main}..HEAD`]);
    expect(ours).toBe(theirs);
    expect(ours.split("|").length).toBeGreaterThan(3);
    // the cherry-picked commit is dropped, as git rebase drops it
    expect(git(bare, ["rev-list", "--count", `${main}..${r.sha}`]).trim()).toBe("3");
    const committers = git(bare, ["log", "--format=%cn <%ce> %cd", "--date=raw", `${main}..${r.sha}`])
      .trim()
      .split("\n");
    expect(new Set(committers)).toEqual(new Set(["Mona Merger <mona@example.com> 1800000000 +0000"]));
    git(bare, ["fsck", "--strict"]);
  });

  it("unrelated histories and a missing head are MergeErrors with a readable message", async () => {
    const { bare, main } = cleanFixture();
    const lone = initWork({ "x.txt": "x\n" });
    git(lone, ["push", "-q", bare, "main:refs/heads/lone"]);
    const loneTip = rev(bare, "refs/heads/lone");
    await expect(checkMerge(bare, main, loneTip)).rejects.toMatchObject({ name: "Error", message: "the branches have no common history" });
    await expect(checkMerge(bare, main, "1".repeat(40))).rejects.toBeInstanceOf(MergeError);
    await expect(getConflictDetails(bare, main, "1".repeat(40))).rejects.toThrow(
      "a commit of the pull request is missing from the repository",
    );
  });

  it("listRangeCommits as the merge reads it lists the head's commits oldest first with authors and messages", async () => {
    const { bare, main, head } = cleanFixture();
    const { commits } = await listRangeCommits(bare, main, head, MAX_RANGE_COMMITS, { topoOrder: true, maxMessageChars: 65536 });
    expect(commits.map((c) => c.message.split("\n")[0])).toEqual([
      "feature: edit b, add c",
      "feature: rename",
      "main: shared change",
      "feature: more c",
    ]);
    expect(commits[3]).toMatchObject({ author: "Bob", authorEmail: "bob@example.com", message: "feature: more c\n\nFixes #3" });
  });
});

/** Conflicts of every kind between main and feature. */
function conflictFixture() {
  const bin = (n: number) => Buffer.from([0, 1, 2, n, 0, 255]);
  const work = initWork({
    "text.txt": "one\ntwo\nthree\n",
    "gone.txt": "keep\n",
    "img.bin": bin(1),
    "same.txt": "x\n",
    "ok.txt": "fine\n",
  });
  git(work, ["checkout", "-q", "-b", "feature"]);
  commitFiles(
    work,
    { "text.txt": "one\nTWO-feature\nthree\n", "gone.txt": null, "img.bin": bin(2), "both.txt": "feature\n", "ok.txt": "fine\nfeature\n" },
    "feature work",
    "Bob",
  );
  git(work, ["checkout", "-q", "main"]);
  commitFiles(
    work,
    { "text.txt": "one\nTWO-main\nthree\n", "gone.txt": "keep\nmain edit\n", "img.bin": bin(3), "both.txt": "main\n" },
    "main work",
  );
  return { bare: bareCopy(work), main: rev(work, "main"), head: rev(work, "feature"), work };
}

describe("conflicts", () => {
  it("conflicted paths equal git merge's unmerged paths", async () => {
    const { bare, main, head } = conflictFixture();
    const check = await checkMerge(bare, main, head);
    const clone = cloneOf(bare, ["feature"]);
    expect(() => git(clone, ["merge", "-q", "--no-ff", "-m", "m", "feature"])).toThrow();
    const unmerged = git(clone, ["diff", "--name-only", "--diff-filter=U"]).trim().split("\n");
    expect(check.conflicts).toEqual(unmerged);
    expect(check.conflicts.sort()).toEqual(["both.txt", "gone.txt", "img.bin", "text.txt"]);
    const m = await mergeCommit(bare, { targetTip: main, head, message: "m", committer: merger });
    expect(m).toEqual({ conflicts: check.conflicts });
  });

  it("getConflictDetails gives base, ours (target) and theirs (source), binary and delete/modify flagged", async () => {
    const { bare, main, head } = conflictFixture();
    const d = await getConflictDetails(bare, main, head);
    const byPath = Object.fromEntries(d.files.map((f) => [f.path, f]));
    expect(Object.keys(byPath).sort()).toEqual(["both.txt", "gone.txt", "img.bin", "text.txt"]);
    expect(byPath["text.txt"]).toMatchObject({
      kind: "content",
      isBinary: false,
      base: { content: "one\ntwo\nthree\n" },
      ours: { content: "one\nTWO-main\nthree\n" },
      theirs: { content: "one\nTWO-feature\nthree\n" },
    });
    expect(byPath["gone.txt"]).toMatchObject({
      kind: "delete/modify",
      theirs: null,
      ours: { content: "keep\nmain edit\n" },
      base: { content: "keep\n" },
    });
    expect(byPath["both.txt"]).toMatchObject({
      kind: "add/add",
      base: null,
      ours: { content: "main\n" },
      theirs: { content: "feature\n" },
    });
    expect(byPath["img.bin"]).toMatchObject({
      kind: "content",
      isBinary: true,
      ours: { content: null, size: 6 },
      theirs: { content: null },
      base: { content: null },
    });
    expect((await getConflictDetails(bare, main, main)).files).toEqual([]);
  });

  it("rebase stopping midway names the commit and files; nothing changes and the worktree is gone", async () => {
    const work = initWork({ "f.txt": "base\n", "g.txt": "g\n" });
    git(work, ["checkout", "-q", "-b", "feature"]);
    commitFiles(work, { "g.txt": "g feature\n" }, "first applies", "Bob");
    const bad = commitFiles(work, { "f.txt": "feature\n" }, "second conflicts", "Bob");
    commitFiles(work, { "h.txt": "h\n" }, "third", "Bob");
    git(work, ["checkout", "-q", "main"]);
    commitFiles(work, { "f.txt": "main\n" }, "main edit");
    const bare = bareCopy(work);
    const refsBefore = refsOf(bare);
    const workRoot = tmpDir("merge-workroot-");
    const r = await rebaseOnto(bare, { targetTip: rev(work, "main"), head: rev(work, "feature"), committer: merger, workRoot });
    expect(r).toEqual({ conflict: { commit: bad, paths: ["f.txt"] } });
    expect(refsOf(bare)).toBe(refsBefore);
    expect(readdirSync(workRoot)).toEqual([]);
    expect(existsSync(path.join(bare, "worktrees")) ? readdirSync(path.join(bare, "worktrees")) : []).toEqual([]);
    git(bare, ["fsck", "--strict"]);
  });

  it("a rebase sweeps worktrees a crashed process left behind (older than an hour)", async () => {
    const { bare, main, head } = cleanFixture();
    const workRoot = tmpDir("merge-workroot-");
    const stale = path.join(workRoot, "rebase-crashed");
    git(bare, ["worktree", "add", "--detach", "--quiet", stale, head]);
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(stale, old, old);
    const r = await rebaseOnto(bare, { targetTip: main, head, committer: merger, workRoot });
    expect("sha" in r).toBe(true);
    expect(readdirSync(workRoot)).toEqual([]);
    expect(existsSync(path.join(bare, "worktrees")) ? readdirSync(path.join(bare, "worktrees")) : []).toEqual([]);
  });
});
