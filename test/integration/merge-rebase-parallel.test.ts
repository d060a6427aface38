/**
 * Rebases side by side (server/git/merge-rebase.ts, docs/architecture.md "Locks across
 * processes"): each rebase runs in a throwaway repository of its own that shares only the bare
 * repository's object store, so concurrent rebases of one repository — here from two copies of
 * the module, as two svc processes would run them — need no queue and all succeed, and nothing of
 * the bare repository but its objects is written while they run (no worktrees/ records, which
 * concurrent `git worktree add`s corrupt). A fork (objects borrowed through alternates) rebases too.
 */
import { rmSync, watch, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { rebaseOnto } from "@/server/git/merge-rebase";
import { bareCopy, commitFiles, git, initWork, rev, tmpDir } from "./merge-fixtures";

const merger = { name: "Mona Merger", email: "mona@example.com", date: "1800000000 +0000" };

/** main and feature diverged cleanly: three feature commits to replay. */
function fixture() {
  const work = initWork({ "a.txt": "a1\na2\na3\n", "b.txt": "b1\nb2\n" });
  git(work, ["checkout", "-q", "-b", "feature"]);
  commitFiles(work, { "b.txt": "b1\nB2\n" }, "feature: edit b", "Bob");
  commitFiles(work, { "c.txt": "new\n" }, "feature: add c", "Bob");
  commitFiles(work, { "c.txt": "new\nmore\n" }, "feature: more c", "Bob");
  git(work, ["checkout", "-q", "main"]);
  commitFiles(work, { "a.txt": "A1\na2\na3\n" }, "main: edit a");
  return { work, bare: bareCopy(work), main: rev(work, "main"), head: rev(work, "feature") };
}

/** Names of the entries of `dir` created, changed or removed from now until `stop()`, except `objects`. */
function watchTopLevel(dir: string): { stop: () => Promise<string[]> } {
  const seen: string[] = [];
  let sentinelSeen = () => {};
  const watcher = watch(dir, (_event, name) => {
    if (name === "svc-test-sentinel") sentinelSeen();
    else if (name && name !== "objects") seen.push(String(name));
  });
  return {
    // inotify delivers in order: once the sentinel's event arrived, every earlier one has
    stop: async () => {
      const arrived = new Promise<void>((r) => (sentinelSeen = r));
      writeFileSync(path.join(dir, "svc-test-sentinel"), "");
      await arrived;
      watcher.close();
      rmSync(path.join(dir, "svc-test-sentinel"));
      return [...new Set(seen)];
    },
  };
}

describe("rebases side by side", () => {
  it("eight concurrent rebases of one repository from two process copies all succeed and touch nothing but objects", async () => {
    const { bare, main, head } = fixture();
    vi.resetModules();
    const other = (await import("@/server/git/merge-rebase")).rebaseOnto;
    expect(other).not.toBe(rebaseOnto);
    const workRoot = tmpDir("merge-workroot-");
    const watcher = watchTopLevel(bare);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? other : rebaseOnto)(bare, { targetTip: main, head, committer: merger, workRoot })),
    );
    expect(await watcher.stop()).toEqual([]);
    // the committer date is fixed, so every replay writes the very same commits
    const shas = results.map((r) => ("sha" in r ? r.sha : "conflict"));
    expect(new Set(shas).size).toBe(1);
    expect(git(bare, ["rev-list", "--count", `${main}..${shas[0]}`]).trim()).toBe("3");
    // written into the bare repository's own objects
    expect(
      git(bare, ["log", "--format=%s|%cn", `${main}..${shas[0]}`])
        .trim()
        .split("\n"),
    ).toEqual(["feature: more c|Mona Merger", "feature: add c|Mona Merger", "feature: edit b|Mona Merger"]);
    git(bare, ["fsck", "--strict"]);
  });

  it("a fork borrowing its parent's objects rebases; the new commits are in the fork's own objects", async () => {
    const { work, bare, main } = fixture();
    const fork = path.join(tmpDir("fork-"), "fork.git");
    git(bare, ["clone", "-q", "--bare", "--shared", bare, fork]);
    git(work, ["checkout", "-q", "-b", "topic", "main~1"]);
    commitFiles(work, { "d.txt": "d\n" }, "topic: add d", "Carol");
    git(work, ["push", "-q", fork, "topic"]);
    const workRoot = tmpDir("merge-workroot-");
    const r = await rebaseOnto(fork, { targetTip: main, head: rev(work, "topic"), committer: merger, workRoot });
    if (!("sha" in r)) throw new Error("conflict");
    git(fork, ["cat-file", "-e", `${r.sha}^{commit}`]);
    expect(git(bare, ["cat-file", "--batch-check"], "Alice", `${r.sha}\n`).trim()).toBe(`${r.sha} missing`);
    expect(git(fork, ["log", "--format=%s", `${main}..${r.sha}`]).trim()).toBe("topic: add d");
  });
});
