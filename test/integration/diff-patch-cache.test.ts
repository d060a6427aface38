/**
 * The patch cache (server/git/diff-patch-cache.ts; docs/performance.md "Hardening II, item 14"):
 * a range's whole patch kept on disk by its metadata run, with each file's byte offset, so later
 * hunk pages parse their files' bytes without a git process. Checked through the real router on
 * real repositories: the index's metadata is `--raw --numstat`'s exactly (any chunking); pages
 * from the cache equal pages computed by git; a cached page starts no git; the cache stays under
 * its bound, evicts the least recently used range and never keeps a range larger than its share;
 * a first page asked while the range's run is under way reads that run's file (no second git);
 * a force-pushed head never gets the old head's patch; a cached file gone from disk falls back to git.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { getDb } from "@/server/db";
import { getConfig } from "@/server/config";
import { gitEnv, gitProcessCounts } from "@/server/git/exec";
import { repoGitDir } from "@/server/git/paths";
import { DIFF_ARGS, DiffParser, rangeMetadata } from "@/server/git/diff";
import { PatchIndexer } from "@/server/git/diff-patch-index";
import { patchCacheStats, setPatchCacheLimits } from "@/server/git/diff-patch-cache";
import { diffPageRange } from "@/server/git/diff-page";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { workRepo, type WorkRepo } from "../diff-fixtures";

let owner: Profile;
let w: WorkRepo;
let gitDir: string;
let repoId: string;
let prId: string;
const sha: Record<string, string> = {};
const push = () =>
  execFileSync("git", ["fetch", "-q", "--force", w.dir, "+refs/heads/*:refs/heads/*"], { env: gitEnv({ GIT_DIR: gitDir }) });
const lines = (n: number, v: (i: number) => string) => Array.from({ length: n }, (_, i) => v(i)).join("\n") + "\n";
const caller = () => callerFor(actorOf(owner));
/** The cached patches on disk (this process's directory). */
const cachedFiles = () => {
  const root = path.join(getConfig().dataDir, "cache", "diff-patches");
  return readdirSync(root).flatMap((d) => readdirSync(path.join(root, d)).map((f) => path.join(root, d, f)));
};

beforeAll(async () => {
  owner = await makeUser("patchowner");
  const repo = await (await caller()).repos.create({ name: "patch-cache" });
  repoId = repo.id;
  gitDir = repoGitDir(owner.username, "patch-cache");
  w = workRepo();
  w.write(
    "a-big.txt",
    lines(400, (i) => `big ${i}`),
  );
  for (let f = 0; f < 12; f++)
    w.write(
      `dir/f${String(f).padStart(2, "0")}.txt`,
      lines(120, (i) => `file ${f} line ${i}`),
    );
  w.write("gone.txt", "bye\n");
  w.write(
    "move-from.txt",
    lines(30, (i) => `moving ${i}`),
  );
  w.write("no-eol.txt", "a\nb");
  w.write("run.sh", "echo hi\n");
  w.write("tricky.txt", "x\n");
  w.write(
    "ünï/cödé.txt",
    lines(20, (i) => `grüße ${i}`),
  );
  w.write("crlf.txt", "one\r\ntwo\r\n");
  sha.base = w.commit("base");
  w.git("checkout", "-q", "-b", "topic");
  w.write(
    "a-big.txt",
    lines(400, (i) => (i % 20 === 10 ? `BIG ${i}` : `big ${i}`)),
  );
  for (let f = 0; f < 12; f++)
    w.write(
      `dir/f${String(f).padStart(2, "0")}.txt`,
      lines(120, (i) => ([10, 50, 90].includes(i) ? `FILE ${f} ${i}` : `file ${f} line ${i}`)),
    );
  w.remove("gone.txt");
  w.remove("move-from.txt");
  w.write(
    "move-to.txt",
    lines(30, (i) => (i === 3 ? "moved and edited" : `moving ${i}`)),
  );
  w.write("new.txt", "fresh\n");
  w.write("no-eol.txt", "a\nc");
  w.write("pic.bin", Buffer.from([0, 1, 2, 3, 0, 255]));
  w.write("run.sh", "echo hi\n", 0o755);
  // content that looks like patch headers inside a hunk
  w.write("tricky.txt", "x\ndiff --git a/x b/x\n@@ -1 +1 @@\nBinary files a and b differ\n--- a/x\n+++ b/x\n");
  w.write(
    "ünï/cödé.txt",
    lines(20, (i) => (i % 5 === 0 ? `GRÜSSE ${i} ✓` : `grüße ${i}`)),
  );
  w.write("crlf.txt", "one\r\nTWO\r\n");
  sha.topic = w.commit("topic");
  push();
  const db = await getDb();
  const pr = await db.pullRequest.create({
    data: {
      repoId,
      number: 1,
      title: "patch cache",
      sourceRepoId: repoId,
      sourceBranch: "topic",
      targetBranch: "main",
      headSha: sha.topic,
      baseSha: sha.base,
    },
  });
  prId = pr.id;
});

afterAll(() => w?.cleanup());
afterEach(() => setPatchCacheLimits());

type Caller = Awaited<ReturnType<typeof callerFor>>;
type PageInput = { limit?: number; maxLines?: number };

/** Every page of the pull request from `cursor` on, following nextCursor. */
async function walk(c: Caller, input: PageInput, cursor?: string) {
  const pages = [];
  for (let n = 0; n < 500; n++) {
    const page = await c.pulls.getDiffPage({ prId, cursor, ...input });
    pages.push(page);
    if (page.nextCursor === null) return pages;
    cursor = page.nextCursor;
  }
  throw new Error("no last page");
}

describe("the patch index", () => {
  it("lists the files and counts of `--raw --numstat` exactly, with each file's offset, however the output is chunked", () => {
    const run = (args: string[]) => execFileSync("git", [...args, `${sha.base}...${sha.topic}`], { env: gitEnv({ GIT_DIR: gitDir }) });
    const numstat = new DiffParser({ metadataOnly: true });
    numstat.push(run(DIFF_ARGS.map((a) => (a === "--patch" ? "--numstat" : a))));
    const expected = numstat.finish();
    expect(expected.files.find((f) => f.newPath === "pic.bin")).toMatchObject({ isBinary: true });
    const out = run(DIFF_ARGS);
    for (const size of [1, 7, 100, 4096, out.length]) {
      const ix = new PatchIndexer(3000);
      for (let i = 0; i < out.length; i += size) ix.push(out.subarray(i, i + size));
      const index = ix.finish();
      expect(index.meta, `chunks of ${size}`).toEqual(expected);
      expect(index.size).toBe(out.length);
      expect(index.offsets).toHaveLength(expected.files.length);
      for (const at of index.offsets) expect(out.toString("latin1", at, at + 11)).toBe("diff --git ");
    }
    // files past maxFiles are counted, not listed; the first unlisted file's offset ends the last listed one's bytes
    const ix = new PatchIndexer(3);
    ix.push(out);
    const few = ix.finish();
    expect(few.meta).toMatchObject({ totalFiles: expected.totalFiles, totalAdditions: expected.totalAdditions, truncated: true });
    expect(few.meta.files).toHaveLength(3);
    expect(few.offsets).toHaveLength(4);
  });
});

describe("pages from the cached patch", () => {
  it("equal the pages git computes, and start no git process", async () => {
    const c = await caller();
    const inputs: PageInput[] = [{ maxLines: 100 }, { maxLines: 100, limit: 3 }, { maxLines: 250 }, {}];
    // git's pages: no cache (the metadata from --numstat, every page a git run on its files)
    setPatchCacheLimits({ maxBytes: 0 });
    const fresh = [];
    for (const input of inputs) fresh.push(await walk(c, input));
    expect(patchCacheStats().entries).toBe(0);
    // a new range (a push: the same tree under a new head) with the cache on: the list's metadata run fills it
    setPatchCacheLimits();
    w.git("checkout", "-q", "topic");
    sha.topic2 = w.git("commit-tree", `${sha.topic}^{tree}`, "-p", sha.topic, "-m", "again").trim();
    w.git("update-ref", "refs/heads/topic", sha.topic2);
    w.git("checkout", "-q", "main");
    push();
    await (await getDb()).pullRequest.update({ where: { id: prId }, data: { headSha: sha.topic2 } });
    const entries = patchCacheStats().entries;
    await c.pulls.getDiffFiles({ prId });
    expect(patchCacheStats().entries).toBe(entries + 1);
    const started = gitProcessCounts().started;
    for (const [k, input] of inputs.entries()) {
      const cached = await walk(c, input);
      expect(cached.map(({ headSha, ...p }) => (void headSha, p))).toEqual(fresh[k].map(({ headSha, ...p }) => (void headSha, p)));
      expect(cached.length).toBeGreaterThan(input.maxLines === 100 ? 5 : 0);
    }
    // a cursor inside a file, and a limit
    const [inside] = fresh[0].filter((p) => p.nextCursor?.includes(":")).map((p) => p.nextCursor!);
    expect(await c.pulls.getDiffPage({ prId, cursor: inside, limit: 2 })).toMatchObject({ files: [{ fromHunk: expect.any(Number) }, {}] });
    expect(gitProcessCounts().started).toBe(started); // every page from the cache
    // the plain diff of a cached range reads the cache too, and answers as git
    const whole = await c.pulls.getDiff({ prId });
    expect(gitProcessCounts().started).toBe(started);
    expect(whole.files.find((f) => f.newPath === "ünï/cödé.txt")!.hunks[0].lines.some((l) => l.content === "GRÜSSE 5 ✓")).toBe(true);
    expect(whole.files.find((f) => f.newPath === "tricky.txt")).toMatchObject({ additions: 5, deletions: 0 });
  });

  it("a cached file gone from disk: the page runs git and answers the same", async () => {
    const c = await caller();
    await c.pulls.getDiffFiles({ prId });
    const before = await walk(c, { maxLines: 300 });
    for (const f of cachedFiles()) rmSync(f);
    const started = gitProcessCounts().started;
    expect(await walk(c, { maxLines: 300 })).toEqual(before);
    expect(gitProcessCounts().started).toBeGreaterThan(started);
  });
});

describe("a first page asked while the range's run is under way", () => {
  /** A new range (the same tree under a new head), so no cache knows it. */
  const newRange = () => {
    const head = w.git("commit-tree", `${sha.topic}^{tree}`, "-p", sha.topic, "-m", `again ${Math.random()}`).trim();
    w.git("update-ref", `refs/heads/again-${head.slice(0, 8)}`, head);
    push();
    return [`${sha.base}...${head}`];
  };

  it("is read from that run's file as git writes it: one git process for the list and the page", async () => {
    setPatchCacheLimits({ maxBytes: 0 });
    const expected = await diffPageRange(gitDir, newRange(), { limits: { maxTotalLines: 300 } }); // git's
    setPatchCacheLimits();
    const range = newRange();
    const started = gitProcessCounts().started;
    const list = rangeMetadata(gitDir, range, {}, true); // the file list's run, under way
    const page = await diffPageRange(gitDir, range, { limits: { maxTotalLines: 300 } });
    await list;
    expect(gitProcessCounts().started - started).toBe(1);
    expect(page).toEqual(expected);
    expect(page.files.length).toBeGreaterThan(0);
  });

  it("falls back to git when that run is not kept (too large)", async () => {
    setPatchCacheLimits({ maxBytes: 0 });
    const expected = await diffPageRange(gitDir, newRange(), { limits: { maxTotalLines: 300 } });
    const range = newRange();
    setPatchCacheLimits({ maxBytes: 4096 }); // a quarter is far less than the patch: the run is stopped
    const list = rangeMetadata(gitDir, range, {}, true);
    expect(await diffPageRange(gitDir, range, { limits: { maxTotalLines: 300 } })).toEqual(expected);
    expect((await list).totalFiles).toBeGreaterThan(10); // the list still comes (from --numstat)
    expect(patchCacheStats().entries).toBe(0);
  });
});

describe("the bound", () => {
  /** `n` ranges whose patches have one size: range i changes one file of 200 lines from the base. */
  const ranges = (n: number, tag: string) => {
    const out: string[][] = [];
    for (let i = 0; i < n; i++) {
      w.git("checkout", "-q", "-b", `${tag}${i}`, sha.base);
      w.write(
        "bound.txt",
        lines(200, (k) => `${tag} ${i} ${k}`),
      );
      out.push([`${sha.base}...${w.commit(`${tag} ${i}`)}`]);
    }
    w.git("checkout", "-q", "main");
    push();
    return out;
  };
  const sizeOf = (range: string[]) => execFileSync("git", [...DIFF_ARGS, ...range], { env: gitEnv({ GIT_DIR: gitDir }) }).length;
  /** The first page (from the cache when the range is cached, else from git) and the git processes it started. */
  const firstPage = async (range: string[]) => {
    const started = gitProcessCounts().started;
    const page = await diffPageRange(gitDir, range, { limit: 1 });
    return { page, git: gitProcessCounts().started - started };
  };
  /** A later page: fills the cache (one run of the whole patch) unless the range is cached. */
  const fill = (range: string[]) => diffPageRange(gitDir, range, { cursor: { file: 1, hunk: 0 } });

  it("evicts the least recently used range; never holds more than the bound on disk", async () => {
    const rs = ranges(6, "lru");
    const size = sizeOf(rs[0]);
    expect(rs.map(sizeOf)).toEqual(rs.map(() => size));
    setPatchCacheLimits({ maxBytes: 0 }); // off: every page from git, and the cache emptied
    const expected = [];
    for (const r of rs) expected.push((await firstPage(r)).page);
    setPatchCacheLimits({ maxBytes: Math.floor(size * 4.5) }); // four ranges fit; one is within a quarter of it
    for (const r of rs.slice(0, 4)) await fill(r);
    expect(patchCacheStats()).toEqual({ entries: 4, bytes: size * 4 });
    expect(cachedFiles()).toHaveLength(4);
    expect(await firstPage(rs[0])).toEqual({ page: expected[0], git: 0 }); // used: rs[1] is now the least recently used
    await fill(rs[4]);
    await fill(rs[5]);
    expect(patchCacheStats()).toEqual({ entries: 4, bytes: size * 4 });
    expect(cachedFiles()).toHaveLength(4);
    // rs[1] and rs[2] were evicted: their pages come from git again, equal
    for (const [i, r] of rs.entries()) expect(await firstPage(r)).toEqual({ page: expected[i], git: i === 1 || i === 2 ? 1 : 0 });
  });

  it("keeps no range larger than a quarter of the bound, and does not try again", async () => {
    const [r] = ranges(1, "large");
    setPatchCacheLimits({ maxBytes: 0 }); // emptied
    setPatchCacheLimits({ maxBytes: sizeOf(r) * 3 });
    await fill(r);
    expect(patchCacheStats()).toEqual({ entries: 0, bytes: 0 });
    expect(cachedFiles()).toHaveLength(0);
    const started = gitProcessCounts().started;
    expect(await fill(r)).toEqual({ files: [], nextCursor: null }); // past its one file
    expect(gitProcessCounts().started - started).toBe(0); // metadata cached, the patch known too large: no second run
  });
});

describe("a force-push", () => {
  it("never serves the old head's patch", async () => {
    const c = await caller();
    await (await getDb()).pullRequest.update({ where: { id: prId }, data: { headSha: sha.topic } });
    await c.pulls.getDiffFiles({ prId });
    const old = await walk(c, {});
    expect(old.flatMap((p) => p.files).some((f) => f.oldPath === "a-big.txt")).toBe(true);
    // rewrite topic: another commit on the base (not a descendant of the old head), other content
    w.git("checkout", "-q", "-B", "topic", sha.base);
    w.write(
      "a-big.txt",
      lines(400, (i) => (i % 50 === 7 ? `REWRITTEN ${i}` : `big ${i}`)),
    );
    const rewritten = w.commit("rewritten");
    w.git("checkout", "-q", "main");
    push();
    await (await getDb()).pullRequest.update({ where: { id: prId }, data: { headSha: rewritten } });
    const list = await c.pulls.getDiffFiles({ prId });
    expect(list).toMatchObject({ headSha: rewritten, totalFiles: 1, files: [{ newPath: "a-big.txt" }] });
    const pages = await walk(c, { maxLines: 100 });
    const whole = await c.pulls.getDiff({ prId });
    const got = pages.flatMap((p) => p.files).flatMap((f) => f.hunks.flatMap((h) => h.lines));
    expect(got.filter((l) => l.startsWith("+"))).toEqual(
      whole.files[0].hunks.flatMap((h) => h.lines.filter((l) => l.type === "add").map((l) => `+${l.content}`)),
    );
    expect(got.some((l) => l.includes("REWRITTEN"))).toBe(true);
    expect(got.some((l) => l.includes("BIG"))).toBe(false);
  });
});
