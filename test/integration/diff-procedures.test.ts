/**
 * repos.commit, repos.compare, repos.commitCount, repos.commits' cursor and pulls.getDiff /
 * pulls.getCommits (docs/pulls.md "Procedures") through the real router: real repositories, the
 * real authorization (a private repository answers NOT_FOUND to strangers), inputs refused with
 * 400s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { getDb } from "@/server/db";
import { gitEnv } from "@/server/git/exec";
import { repoGitDir } from "@/server/git/paths";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { workRepo, type WorkRepo } from "../diff-fixtures";

let owner: Profile;
let stranger: Profile;
let w: WorkRepo;
let repoId: string;
let gitDir: string;
const sha: Record<string, string> = {};

beforeAll(async () => {
  owner = await makeUser("diffowner");
  stranger = await makeUser("diffstranger");
  const repo = await (await callerFor(actorOf(owner))).repos.create({ name: "diffs", isPrivate: true });
  repoId = repo.id;
  gitDir = repoGitDir(owner.username, "diffs");
  w = workRepo();
  w.write("a.txt", "one\ntwo\n");
  w.write("old name.txt", Array.from({ length: 20 }, (_, i) => `r${i}`).join("\n") + "\n");
  sha.root = w.commit("root");
  w.git("checkout", "-q", "-b", "topic");
  w.git("mv", "old name.txt", "new name.txt");
  w.write("a.txt", "one\nTWO\n");
  sha.t1 = w.commit("topic: rename and edit");
  w.write("img.bin", Buffer.from([0, 1, 2, 0]));
  sha.t2 = w.commit("topic: binary");
  w.git("checkout", "-q", "main");
  w.write("main.txt", "m\n");
  sha.m1 = w.commit("main moves");
  for (let i = 0; i < 5; i++) {
    w.write("main.txt", `m${i}\n`);
    sha[`m${i + 2}`] = w.commit(`main ${i}`);
  }
  execFileSync("git", ["fetch", "-q", w.dir, "+refs/heads/*:refs/heads/*"], { env: gitEnv({ GIT_DIR: gitDir }) });
});

afterAll(() => w?.cleanup());

describe("repos.commit", () => {
  it("returns the commit and its first-parent diff", async () => {
    const c = await (await callerFor(actorOf(owner))).repos.commit({ repoId, sha: sha.t1 });
    expect(c).toMatchObject({ sha: sha.t1, parents: [sha.root], message: "topic: rename and edit", author: "svc", committer: "svc" });
    expect(c.diff.files.map((f) => [f.status, f.oldPath, f.newPath])).toEqual([
      ["modified", "a.txt", "a.txt"],
      ["renamed", "old name.txt", "new name.txt"],
    ]);
    expect(c.diff.totalAdditions).toBe(1);
  });

  it("diffs a root commit against the empty tree and accepts branch names", async () => {
    const c = await (await callerFor(actorOf(owner))).repos.commit({ repoId, sha: sha.root });
    expect(c.diff.files.every((f) => f.status === "added")).toBe(true);
    const byName = await (await callerFor(actorOf(owner))).repos.commit({ repoId, sha: "topic", path: "img.bin" });
    expect(byName.diff.files).toMatchObject([{ newPath: "img.bin", isBinary: true, hunks: [] }]);
  });

  it("answers NOT_FOUND for unknown commits and to strangers, BAD_REQUEST for option-like input", async () => {
    await expect((await callerFor(actorOf(owner))).repos.commit({ repoId, sha: "f".repeat(40) })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect((await callerFor(actorOf(stranger))).repos.commit({ repoId, sha: sha.t1 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await callerFor(null)).repos.commit({ repoId, sha: sha.t1 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await callerFor(actorOf(owner))).repos.commit({ repoId, sha: "--output=/tmp/x" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(
      (await callerFor(actorOf(owner))).repos.commit({ repoId, sha: sha.t1, paths: Array(501).fill("a") }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect((await callerFor(actorOf(owner))).repos.commit({ repoId, sha: sha.t1, maxLines: 5 })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("maxLines"),
    });
  });
});

describe("repos.compare", () => {
  it("compares base...head as GitHub does", async () => {
    const c = await (await callerFor(actorOf(owner))).repos.compare({ repoId, base: "main", head: "topic" });
    expect(c).toMatchObject({ baseSha: sha.m6, headSha: sha.t2, mergeBaseSha: sha.root, aheadBy: 2, behindBy: 6, totalCommits: 2 });
    expect(c.commits.map((x) => x.sha)).toEqual([sha.t1, sha.t2]);
    expect(c.diff.files.map((f) => f.newPath)).toEqual(["a.txt", "img.bin", "new name.txt"]);
  });

  it("NOT_FOUND for an unknown ref, BAD_REQUEST for unrelated histories", async () => {
    await expect((await callerFor(actorOf(owner))).repos.compare({ repoId, base: "main", head: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    w.git("checkout", "-q", "--orphan", "orphan");
    w.write("o.txt", "o\n");
    w.commit("orphan");
    execFileSync("git", ["fetch", "-q", w.dir, "+refs/heads/orphan:refs/heads/orphan"], { env: gitEnv({ GIT_DIR: gitDir }) });
    await expect((await callerFor(actorOf(owner))).repos.compare({ repoId, base: "main", head: "orphan" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});

describe("repos.commitCount and the history cursor", () => {
  it("counts commits", async () => {
    expect(await (await callerFor(actorOf(owner))).repos.commitCount({ repoId })).toMatchObject({ ref: "main", sha: sha.m6, count: 7 });
    expect((await (await callerFor(actorOf(owner))).repos.commitCount({ repoId, ref: "topic" })).count).toBe(3);
  });

  it("pages with `after` exactly as with offsets on a linear history", async () => {
    const caller = await callerFor(actorOf(owner));
    const all = (await caller.repos.commits({ repoId, limit: 100 })).map((c) => c.sha);
    const pages: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await caller.repos.commits({ repoId, limit: 3, after });
      if (page.length === 0) break;
      pages.push(...page.map((c) => c.sha));
      after = page[page.length - 1].sha;
    }
    expect(pages).toEqual(all);
    await expect(caller.repos.commits({ repoId, after: "nope" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("pulls.getDiff and pulls.getCommits", () => {
  let prId: string;
  beforeAll(async () => {
    const db = await getDb();
    const pr = await db.pullRequest.create({
      data: {
        repoId,
        number: 9000 + Math.floor(Math.random() * 1000),
        title: "topic",
        sourceRepoId: repoId,
        sourceBranch: "topic",
        targetBranch: "main",
        headSha: sha.t2,
        baseSha: sha.root,
      },
    });
    prId = pr.id;
  });

  it("diffs merge-base(target tip, head) → head and lists the commits", async () => {
    const caller = await callerFor(actorOf(owner));
    const d = await caller.pulls.getDiff({ prId });
    expect(d).toMatchObject({
      baseSha: sha.m6,
      headSha: sha.t2,
      mergeBaseSha: sha.root,
      totalFiles: 3,
      totalAdditions: 1,
      totalDeletions: 1,
      truncated: false,
    });
    const one = await caller.pulls.getDiff({ prId, path: "new name.txt" });
    expect(one.files).toMatchObject([{ status: "renamed", oldPath: "old name.txt", similarity: 100 }]);
    const page = await caller.pulls.getDiff({ prId, paths: ["a.txt", "img.bin"] });
    expect(page.files.map((f) => f.newPath)).toEqual(["a.txt", "img.bin"]);
    const commits = await caller.pulls.getCommits({ prId });
    expect(commits).toMatchObject({ totalCommits: 2 });
    expect(commits.commits.map((c) => c.message)).toEqual(["topic: rename and edit", "topic: binary"]);
    expect(Object.keys(commits.commits[0]).sort()).toEqual(["author", "authorEmail", "date", "message", "sha"]);
  });

  it("answers NOT_FOUND to strangers and for unknown ids, BAD_REQUEST for a malformed id", async () => {
    await expect((await callerFor(actorOf(stranger))).pulls.getDiff({ prId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      (await callerFor(actorOf(owner))).pulls.getCommits({ prId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await callerFor(actorOf(owner))).pulls.getDiff({ prId: "x" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
