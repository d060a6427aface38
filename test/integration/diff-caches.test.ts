/**
 * The caches and shortcuts behind repos.compare, pulls.getDiff and repos.commit
 * (docs/performance.md "Diffs"; docs/pulls.md "Git processes and caches"): answers are cached per
 * pair of commit ids, so a push (a branch at a new id, a pull request row with a new head) must
 * change the answer, first page and `paths` pages alike; refs are resolved in one process; the pull
 * request's own ids are trusted until git fails, and then a missing commit is still CONFLICT naming
 * it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { getDb } from "@/server/db";
import { gitEnv } from "@/server/git/exec";
import { repoGitDir } from "@/server/git/paths";
import { resolveCommits } from "@/server/git/repository";
import { DIFF_ARGS, DiffParser, diffThreeDot, diffTrees, threeDotCached, warmThreeDot, type DiffLimits } from "@/server/git/diff";
import { listRangeCommits, mergeBase } from "@/server/git/commits";
import type { Profile } from "@/server/services/users/profile";
import { warmPullDiff } from "@/server/services/diff/warm-pull-diff";
import { actorOf, callerFor, makeUser } from "../helpers";
import { workRepo, type WorkRepo } from "../diff-fixtures";

let owner: Profile;
let w: WorkRepo;
let repoId: string;
let gitDir: string;
const sha: Record<string, string> = {};
/** Fetches every branch of the work repository into the served one (a push). */
const push = () =>
  execFileSync("git", ["fetch", "-q", "--force", w.dir, "+refs/heads/*:refs/heads/*"], { env: gitEnv({ GIT_DIR: gitDir }) });
const caller = () => callerFor(actorOf(owner));

beforeAll(async () => {
  owner = await makeUser("cacheowner");
  const repo = await (await caller()).repos.create({ name: "diff-caches" });
  repoId = repo.id;
  gitDir = repoGitDir(owner.username, "diff-caches");
  w = workRepo();
  w.write("a.txt", "one\ntwo\n");
  w.write("b.txt", "b\n");
  sha.root = w.commit("root");
  w.git("checkout", "-q", "-b", "topic");
  w.write("a.txt", "one\nTWO\n");
  sha.t1 = w.commit("topic 1");
  w.git("checkout", "-q", "main");
  w.write("m.txt", "m\n");
  sha.m1 = w.commit("main 1");
  push();
});

afterAll(() => w?.cleanup());

describe("resolveCommits", () => {
  it("resolves several names in one call, null for what is not a commit", async () => {
    const tree = execFileSync("git", ["rev-parse", "main^{tree}"], { env: gitEnv({ GIT_DIR: gitDir }) })
      .toString()
      .trim();
    expect(await resolveCommits(gitDir, ["main", "topic~1", sha.t1, "nope", tree, "main with space"])).toEqual([
      sha.m1,
      sha.root,
      sha.t1,
      null,
      null,
      null,
    ]);
    await expect(resolveCommits(gitDir, ["main", "--output=/tmp/x"])).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(resolveCommits(gitDir, ["a\nb"])).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("repos.compare after a push", () => {
  it("a new head changes the first page, the paths pages, the commits and the counts", async () => {
    const c = await caller();
    const before = await c.repos.compare({ repoId, base: "main", head: "topic" });
    expect(before).toMatchObject({ headSha: sha.t1, aheadBy: 1, behindBy: 1, totalCommits: 1 });
    expect((await c.repos.compare({ repoId, base: "main", head: "topic", paths: ["c.txt"] })).diff.files).toEqual([]);

    w.git("checkout", "-q", "topic");
    w.write("c.txt", "new\n");
    sha.t2 = w.commit("topic 2");
    w.git("checkout", "-q", "main");
    push();
    const after = await c.repos.compare({ repoId, base: "main", head: "topic" });
    expect(after).toMatchObject({ headSha: sha.t2, mergeBaseSha: sha.root, aheadBy: 2, behindBy: 1, totalCommits: 2 });
    expect(after.commits.map((x) => x.sha)).toEqual([sha.t1, sha.t2]);
    expect(after.diff.files.map((f) => f.newPath)).toEqual(["a.txt", "c.txt"]);
    const page = await c.repos.compare({ repoId, base: "main", head: "topic", paths: ["c.txt"] });
    expect(page).toMatchObject({ headSha: sha.t2, totalCommits: 2, diff: { totalFiles: 2, totalAdditions: 2 } });
    expect(page.diff.files).toMatchObject([{ newPath: "c.txt", status: "added", hunks: [{ lines: [{ type: "add", content: "new" }] }] }]);
  });

  it("a moved base changes behindBy and the merge base", async () => {
    const c = await caller();
    w.git("merge", "-q", "--no-edit", "topic");
    sha.m2 = w.git("rev-parse", "HEAD").trim();
    push();
    const cmp = await c.repos.compare({ repoId, base: "main", head: "topic" });
    expect(cmp).toMatchObject({
      baseSha: sha.m2,
      mergeBaseSha: sha.t2,
      aheadBy: 0,
      behindBy: 2,
      totalCommits: 0,
      commits: [],
      diff: { totalFiles: 0, files: [] },
    });
  });
});

describe("pulls.getDiff after a push", () => {
  let prId: string;
  let number: number;
  beforeAll(async () => {
    w.git("checkout", "-q", "-b", "feature", sha.root);
    w.write("f.txt", "f1\n");
    sha.f1 = w.commit("feature 1");
    w.git("checkout", "-q", "main");
    push();
    number = 7000 + Math.floor(Math.random() * 1000);
    const pr = await (
      await getDb()
    ).pullRequest.create({
      data: {
        repoId,
        number,
        title: "feature",
        sourceRepoId: repoId,
        sourceBranch: "feature",
        targetBranch: "main",
        headSha: sha.f1,
        baseSha: sha.root,
      },
    });
    prId = pr.id;
  });

  it("follows the row's head and the target tip, pages included", async () => {
    const c = await caller();
    expect(await c.pulls.getDiff({ prId })).toMatchObject({ baseSha: sha.m2, headSha: sha.f1, mergeBaseSha: sha.root, totalFiles: 1 });
    expect((await c.pulls.getDiff({ prId, paths: ["g.txt"] })).files).toEqual([]);

    // a push to the source branch: after-push moves the row's head
    w.git("checkout", "-q", "feature");
    w.write("g.txt", "g\n");
    sha.f2 = w.commit("feature 2");
    w.git("checkout", "-q", "main");
    push();
    await (await getDb()).pullRequest.update({ where: { id: prId }, data: { headSha: sha.f2 } });
    const page = await c.pulls.getDiff({ prId, paths: ["g.txt"] });
    expect(page).toMatchObject({
      headSha: sha.f2,
      totalFiles: 2,
      files: [{ newPath: "g.txt", status: "added", hunks: [{ lines: [{ content: "g" }] }] }],
    });
    expect((await c.pulls.getCommits({ prId })).commits.map((x) => x.sha)).toEqual([sha.f1, sha.f2]);

    // a push to the target that merges part of the feature: the merge base moves
    w.git("merge", "-q", "--no-edit", sha.f1);
    sha.m3 = w.git("rev-parse", "HEAD").trim();
    push();
    const d = await c.pulls.getDiff({ prId });
    expect(d).toMatchObject({ baseSha: sha.m3, mergeBaseSha: sha.f1, totalFiles: 1 });
    expect(d.files.map((f) => f.newPath)).toEqual(["g.txt"]);
    expect(await c.pulls.getCommits({ prId })).toMatchObject({ totalCommits: 1, commits: [{ sha: sha.f2 }] });
  });

  it("warmPullDiff (the after-push job) warms the range the page asks for: open pull requests only, once", async () => {
    const db = await getDb();
    w.git("checkout", "-q", "-b", "feature-3", "feature"); // feature itself stays for the tests below
    w.write("h.txt", "h\n");
    const f3 = w.commit("feature 3");
    w.git("checkout", "-q", "main");
    push();
    await db.pullRequest.update({ where: { id: prId }, data: { headSha: f3 } });
    expect(threeDotCached(gitDir, sha.m3, f3)).toBe(false);
    expect(await warmPullDiff(db, prId)).toBe(true);
    expect(threeDotCached(gitDir, sha.m3, f3)).toBe(true); // base: the target's tip, as the page
    expect(await warmPullDiff(db, prId)).toBe(false);
    const p = new DiffParser();
    p.push(execFileSync("git", [...DIFF_ARGS, `${sha.m3}...${f3}`], { env: gitEnv({ GIT_DIR: gitDir }) }));
    expect(await (await caller()).pulls.getDiff({ prId })).toEqual({ ...p.finish(), baseSha: sha.m3, headSha: f3, mergeBaseSha: sha.f1 });
    await db.pullRequest.update({ where: { id: prId }, data: { state: "closed", headSha: sha.f1 } });
    expect(await warmPullDiff(db, prId)).toBe(false);
    expect(await warmPullDiff(db, "no-such-pull")).toBe(false);
    await db.pullRequest.update({ where: { id: prId }, data: { state: "open", headSha: sha.f2 } });
  });

  it("CONFLICT naming the missing commit when the row names one the repository lacks", async () => {
    const db = await getDb();
    const c = await caller();
    await db.pullRequest.update({ where: { id: prId }, data: { headSha: "e".repeat(40) } });
    await expect(c.pulls.getDiff({ prId })).rejects.toMatchObject({
      code: "CONFLICT",
      message: `head commit eeeeeeeeee of pull request #${number} is missing`,
    });
    await expect(c.pulls.getDiff({ prId, paths: ["g.txt"] })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(c.pulls.getCommits({ prId })).rejects.toMatchObject({ code: "CONFLICT" });
    // closed: the diff starts from the row's base, which is gone too
    await db.pullRequest.update({ where: { id: prId }, data: { headSha: sha.f2, baseSha: "d".repeat(40), state: "closed" } });
    await expect(c.pulls.getDiff({ prId })).rejects.toMatchObject({
      code: "CONFLICT",
      message: `base commit dddddddddd of pull request #${number} is missing`,
    });
    await db.pullRequest.update({ where: { id: prId }, data: { baseSha: sha.root } });
    expect(await c.pulls.getDiff({ prId })).toMatchObject({ baseSha: sha.root, headSha: sha.f2, totalFiles: 2 });
  });
});

describe("repos.commit pages", () => {
  it("the paths page of a commit carries its metadata and its files", async () => {
    const c = await caller();
    const page = await c.repos.commit({ repoId, sha: "feature", paths: ["g.txt"] });
    expect(page).toMatchObject({
      sha: sha.f2,
      parents: [sha.f1],
      message: "feature 2",
      diff: { totalFiles: 1, files: [{ newPath: "g.txt" }] },
    });
    expect(await c.repos.commit({ repoId, sha: "feature", paths: ["g.txt"] })).toEqual(page);
  });
});

describe("the git layer", () => {
  it("counts a range from the log below the limit and with rev-list past it", async () => {
    expect(await listRangeCommits(gitDir, sha.root, sha.f2)).toMatchObject({ totalCommits: 2 });
    const capped = await listRangeCommits(gitDir, sha.root, sha.f2, 1);
    expect(capped).toMatchObject({ totalCommits: 2, commits: [{ sha: sha.f1 }] });
    expect(await listRangeCommits(gitDir, sha.root, sha.f2, 0)).toEqual({ totalCommits: 2, commits: [] });
  });

  it("three-dot diffs equal the diff from the first merge base, also with several merge bases", async () => {
    // criss-cross: x and y each merge the other's parent
    w.git("checkout", "-q", "-b", "x", sha.root);
    w.write("x.txt", "x\n");
    const x1 = w.commit("x1");
    w.git("checkout", "-q", "-b", "y", sha.root);
    w.write("y.txt", "y\n");
    const y1 = w.commit("y1");
    w.git("merge", "-q", "--no-edit", x1);
    w.write("y.txt", "y2\n");
    const y2 = w.commit("y2");
    w.git("checkout", "-q", "x");
    w.git("merge", "-q", "--no-edit", y1);
    w.write("x.txt", "x2\n");
    const x2 = w.commit("x2");
    w.git("checkout", "-q", "main");
    push();
    expect(w.git("merge-base", "--all", x2, y2).trim().split("\n")).toHaveLength(2);
    const mb = (await mergeBase(gitDir, x2, y2))!;
    const three = await diffThreeDot(gitDir, x2, y2);
    expect(three.mergeBaseSha).toBe(mb);
    const { mergeBaseSha, ...diff } = three;
    void mergeBaseSha;
    expect(diff).toEqual(await diffTrees(gitDir, mb, y2));
    // an id the repository lacks fails (callers turn it into NOT_FOUND or CONFLICT)
    await expect(diffThreeDot(gitDir, x2, "f".repeat(40))).rejects.toThrow();
  });
});

describe("counts from the cache", () => {
  it("a later unfiltered diff of a range stops git at the budget and answers exactly as a full read", async () => {
    w.git("checkout", "-q", "-b", "wide", sha.root);
    for (let i = 0; i < 12; i++) w.write(`w/f${i}.txt`, Array.from({ length: 30 }, (_, k) => `line ${i} ${k}`).join("\n") + "\n");
    w.write("w/bin.dat", Buffer.from([0, 1, 2, 3, 0, 9]));
    w.write("w/tail.txt", "no newline");
    const from = w.commit("wide base");
    for (let i = 0; i < 12; i++)
      w.write(`w/f${i}.txt`, Array.from({ length: 30 }, (_, k) => (k % 3 ? `line ${i} ${k}` : `LINE ${i} ${k}`)).join("\n") + "\n");
    w.git("mv", "w/f3.txt", "w/moved.txt");
    w.write("w/bin.dat", Buffer.from([0, 1, 2, 4, 0, 9]));
    w.write("w/tail.txt", "still no newline");
    w.write("w/new.txt", "a\nb\n");
    const to = w.commit("wide change");
    w.git("checkout", "-q", "main");
    push();
    const full = (limits: Partial<DiffLimits>, a = from) => {
      const p = new DiffParser({ limits });
      p.push(execFileSync("git", [...DIFF_ARGS, a, to], { env: gitEnv({ GIT_DIR: gitDir }) }));
      return p.finish();
    };
    const budgets = [{}, { maxTotalLines: 25 }, { maxTotalLines: 100 }, { maxTotalLines: 1 }, { maxFileLines: 4, maxTotalLines: 30 }];
    // the first run reads everything and caches the counts; every later run uses them
    expect(await diffTrees(gitDir, from, to, { limits: budgets[1] })).toEqual(full(budgets[1]));
    for (const limits of budgets) expect(await diffTrees(gitDir, from, to, { limits })).toEqual(full(limits));
    const cut = await diffTrees(gitDir, from, to, { limits: { maxTotalLines: 25 } });
    expect(cut.files.find((f) => f.newPath === "w/f11.txt")).toMatchObject({
      additions: 10,
      deletions: 10,
      truncated: true,
      truncatedReason: "total",
      hunks: [],
    });
    expect(cut.files.find((f) => f.newPath === "w/bin.dat")).toMatchObject({ isBinary: true, additions: 0 });
    expect(cut).toMatchObject({
      totalAdditions: full({}).totalAdditions,
      totalDeletions: full({}).totalDeletions,
      totalFiles: 15,
      truncated: true,
    });
    // counts cached by a `paths` page's metadata run (--numstat) serve the same way
    expect((await diffTrees(gitDir, sha.root, to, { paths: ["w/f0.txt"] })).files).toHaveLength(1);
    for (const limits of budgets) expect(await diffTrees(gitDir, sha.root, to, { limits })).toEqual(full(limits, sha.root));
  });

  it("a range warmed ahead of its first request (the after-push job) answers exactly as an unwarmed read", async () => {
    w.git("checkout", "-q", "-b", "warm", sha.root);
    for (let i = 0; i < 10; i++) w.write(`v/f${i}.txt`, Array.from({ length: 20 }, (_, k) => `v ${i} ${k}`).join("\n") + "\n");
    w.write("v/bin.dat", Buffer.from([0, 7, 0]));
    w.commit("warm base");
    w.git("checkout", "-q", "-b", "warm-topic");
    for (let i = 0; i < 10; i++)
      w.write(`v/f${i}.txt`, Array.from({ length: 20 }, (_, k) => (k % 4 ? `v ${i} ${k}` : `V ${i} ${k}`)).join("\n") + "\n");
    w.git("mv", "v/f2.txt", "v/renamed.txt");
    w.write("v/bin.dat", Buffer.from([0, 8, 0]));
    const head = w.commit("warm change");
    w.git("checkout", "-q", "warm");
    w.write("v/other.txt", "moved base\n");
    const tip = w.commit("warm base moves");
    w.git("checkout", "-q", "main");
    push();
    const mb = w.git("merge-base", tip, head).trim();
    const full = (limits: Partial<DiffLimits>) => {
      const p = new DiffParser({ limits });
      p.push(execFileSync("git", [...DIFF_ARGS, `${tip}...${head}`], { env: gitEnv({ GIT_DIR: gitDir }) }));
      return { ...p.finish(), mergeBaseSha: mb };
    };
    expect(threeDotCached(gitDir, tip, head)).toBe(false);
    expect(await warmThreeDot(gitDir, tip, head)).toBe(true);
    expect(threeDotCached(gitDir, tip, head)).toBe(true);
    expect(await warmThreeDot(gitDir, tip, head)).toBe(false); // already cached: no git
    for (const limits of [{ maxTotalLines: 12 }, {}, { maxTotalLines: 40 }, { maxFileLines: 3, maxTotalLines: 30 }])
      expect(await diffThreeDot(gitDir, tip, head, { limits })).toEqual(full(limits));
    const page = await diffThreeDot(gitDir, tip, head, { paths: ["v/renamed.txt", "v/bin.dat"] });
    expect(page.files.map((f) => [f.oldPath, f.newPath, f.status, f.isBinary])).toEqual([
      ["v/bin.dat", "v/bin.dat", "modified", true],
      ["v/f2.txt", "v/renamed.txt", "renamed", false],
    ]);
    expect(page).toMatchObject({
      totalFiles: full({}).totalFiles,
      totalAdditions: full({}).totalAdditions,
      totalDeletions: full({}).totalDeletions,
    });
    // unrelated histories: BAD_REQUEST, as diffThreeDot
    w.git("checkout", "-q", "--orphan", "lonely");
    w.write("lonely.txt", "x\n");
    const lonely = w.commit("lonely");
    w.git("checkout", "-q", "-f", "main");
    push();
    await expect(warmThreeDot(gitDir, tip, lonely)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("counts that do not match the output are refused by the parser", () => {
    const p = new DiffParser({
      counts: {
        totalAdditions: 1,
        totalDeletions: 0,
        totalFiles: 1,
        files: [{ oldPath: "x", newPath: "x", status: "modified", additions: 1, deletions: 0, isBinary: false }],
      },
    });
    expect(() => p.push(Buffer.from(":100644 100644 " + "1".repeat(40) + " " + "2".repeat(40) + " M\0y\0\0"))).toThrow(/another range/);
  });
});
