/**
 * Speculative merges leave no objects (docs/performance.md "Hardening II, item 13"): mergeability
 * checks and conflict listings run `git merge-tree --write-tree` in an object quarantine
 * (server/git/quarantine.ts) that is removed afterwards, on success and on failure; a merge or a
 * conflict resolution that commits still writes (and keeps) every object it needs.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkMerge, MergeError } from "@/server/git/merge";
import { QUARANTINE_PREFIX, withObjectQuarantine } from "@/server/git/quarantine";
import { runGit } from "@/server/git/exec";
import { codeOf } from "./issues-fixtures";
import { commitFiles, git, initWork, refsOf, rev } from "./merge-fixtures";
import { insertPull, suggestionWorld } from "./pulls-suggestions-fixtures";

/** Loose objects of `gitDir` (`git count-objects -v` "count"). */
function looseCount(gitDir: string): number {
  return Number(/^count: (\d+)$/m.exec(git(gitDir, ["count-objects", "-v"]))![1]);
}

/** Quarantine directories left in `gitDir`'s objects folder. */
function quarantines(gitDir: string): string[] {
  return readdirSync(path.join(gitDir, "objects")).filter((n) => n.startsWith(QUARANTINE_PREFIX));
}

/** `git fsck --full` exit code and output (missing objects make it fail). */
function fsck(gitDir: string): void {
  const out = git(gitDir, ["fsck", "--full", "--no-dangling"]);
  expect(out).not.toMatch(/missing|broken|error/i);
}

/** A pull request feature → main where both change src/app.ts line 3 (a content conflict). */
async function conflictWorld() {
  const w = await suggestionWorld();
  git(w.work, ["checkout", "-q", "main"]);
  commitFiles(w.work, { "src/app.ts": "one\ntwo\n3 (main)\nfour\nfive\nsix\n" }, "main side");
  git(w.work, ["push", "-q", w.gitDir, "main"]);
  const pr = await insertPull(w.db, w, { branch: "feature", head: w.tip("feature") });
  return { ...w, pr };
}

describe("object quarantine", () => {
  it("50 conflicting mergeability checks (and conflict listings) leave the loose-object count unchanged", async () => {
    const w = await conflictWorld();
    // 50 target tips, each a different conflicting version of line 3 (so every check writes new
    // conflicted blobs and trees without a quarantine); all reachable from branch `chain`
    const tips: string[] = [];
    for (let i = 0; i < 50; i++)
      tips.push(commitFiles(w.work, { "src/app.ts": `one\ntwo\n3 (main ${i})\nfour\nfive\nsix\n` }, `main ${i}`));
    git(w.work, ["push", "-q", w.gitDir, "main:chain"]);
    const before = looseCount(w.gitDir);
    for (const [i, tip] of tips.entries()) {
      git(w.gitDir, ["update-ref", "refs/heads/main", tip]);
      const m = await w.as.writer.pulls.checkMergeability({ prId: w.pr.id });
      expect(m).toMatchObject({ canMerge: false, conflicts: ["src/app.ts"], aheadBy: 2, behindBy: i + 2 });
      if (i % 10 === 0) {
        const listed = await w.as.writer.pulls.getConflicts({ prId: w.pr.id });
        expect(listed.files.map((f) => [f.path, f.ours])).toEqual([["src/app.ts", `one\ntwo\n3 (main ${i})\nfour\nfive\nsix\n`]]);
      }
    }
    expect(looseCount(w.gitDir)).toBe(before);
    expect(quarantines(w.gitDir)).toEqual([]);
    fsck(w.gitDir);
  });

  it("a merge that is committed keeps every object it wrote", async () => {
    const w = await suggestionWorld();
    // main changes line 6 while the feature changes line 3: the merged src/app.ts is a new blob
    git(w.work, ["checkout", "-q", "main"]);
    commitFiles(w.work, { "src/app.ts": "one\ntwo\nthree\nfour\nfive\nSIX\n" }, "main: six");
    git(w.work, ["push", "-q", w.gitDir, "main"]);
    const pr = await insertPull(w.db, w, { branch: "feature", head: w.tip("feature") });
    const before = looseCount(w.gitDir);
    expect(await w.as.writer.pulls.checkMergeability({ prId: pr.id })).toMatchObject({ canMerge: true, conflicts: [] });
    expect(looseCount(w.gitDir)).toBe(before); // the check wrote nothing
    const merged = await w.as.writer.pulls.merge({ prId: pr.id });
    expect(w.tip("main")).toBe(merged.mergeSha);
    expect(git(w.gitDir, ["show", `${merged.mergeSha}:src/app.ts`])).toBe("one\ntwo\nTHREE\nfour\nfive\nSIX\n");
    expect(git(w.gitDir, ["cat-file", "-t", `${merged.mergeSha}^{tree}`]).trim()).toBe("tree");
    fsck(w.gitDir);
  });

  it("a refused conflict resolution leaves nothing; a committed one keeps its objects", async () => {
    const w = await conflictWorld();
    const head = w.tip("feature");
    const before = looseCount(w.gitDir);
    const refs = refsOf(w.gitDir);
    const marked = [{ path: "src/app.ts", content: "<<<<<<< main\n3\n=======\nTHREE\n>>>>>>> feature\n" }];
    expect(await codeOf(w.as.writer.pulls.resolveConflicts({ prId: w.pr.id, files: marked, expectedHeadSha: head }))).toBe("BAD_REQUEST");
    expect(looseCount(w.gitDir)).toBe(before);
    expect(refsOf(w.gitDir)).toBe(refs);
    const files = [{ path: "src/app.ts", content: "one\ntwo\n3 (both)\nfour\nfive\nsix\n" }];
    const out = await w.as.writer.pulls.resolveConflicts({ prId: w.pr.id, files, expectedHeadSha: head });
    expect(git(w.gitDir, ["show", `${out.commitSha}:src/app.ts`])).toBe(files[0]!.content);
    expect(git(w.gitDir, ["show", `${out.commitSha}:feature.txt`])).toBe("f\n");
    fsck(w.gitDir);
  });

  it("the quarantine holds what git wrote meanwhile and is removed after success and after a failure", async () => {
    const work = initWork({ "a.txt": "a\n" });
    const bare = path.join(work, ".git");
    const before = looseCount(bare);
    const inside = await withObjectQuarantine(bare, async (env) => {
      const r = await runGit(["hash-object", "-w", "--stdin"], { gitDir: bare, env, input: "speculative\n" });
      const id = r.stdout.toString().trim();
      const seen = quarantines(bare);
      // readable inside (the repository's objects too), absent from the repository itself
      const cat = await runGit(["cat-file", "-p", id], { gitDir: bare, env });
      const head = await runGit(["cat-file", "-t", rev(work, "HEAD")], { gitDir: bare, env });
      return { id, seen, text: cat.stdout.toString(), head: head.stdout.toString().trim() };
    });
    expect(inside.seen).toHaveLength(1);
    expect(inside).toMatchObject({ text: "speculative\n", head: "commit" });
    expect((await runGit(["cat-file", "-e", inside.id], { gitDir: bare })).code).not.toBe(0);
    expect(quarantines(bare)).toEqual([]);
    expect(looseCount(bare)).toBe(before);

    // a callback that throws: the error propagates, the quarantine is gone
    await expect(
      withObjectQuarantine(bare, async (env) => {
        await runGit(["hash-object", "-w", "--stdin"], { gitDir: bare, env, input: "doomed\n" });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(quarantines(bare)).toEqual([]);
    // refs cannot move inside a quarantine (GIT_QUARANTINE_PATH, as in receive-pack)
    const moved = await withObjectQuarantine(bare, (env) =>
      runGit(["update-ref", "refs/heads/x", rev(work, "HEAD")], { gitDir: bare, env }),
    );
    expect(moved.code).not.toBe(0);
    expect(quarantines(bare)).toEqual([]);

    // a failing merge check (unrelated histories): MergeError, nothing left behind
    const other = initWork({ "b.txt": "b\n" });
    git(work, ["fetch", "-q", other, "main:other"]);
    const fetched = looseCount(bare);
    await expect(checkMerge(bare, rev(work, "main"), rev(work, "other"))).rejects.toBeInstanceOf(MergeError);
    expect(quarantines(bare)).toEqual([]);
    expect(looseCount(bare)).toBe(fetched);
  });
});
