/**
 * The immutable-read cache (server/git/immutable-cache.ts) and what the repository page keeps in
 * it (docs/performance.md "Hardening II, item 18"): a directory's entries per (commit, path), the
 * commit count per commit (counted on from the last count after a push), and the README's
 * rendered Markdown per (text, repository base). Keys are immutable, so a push is a new key and
 * the answer follows it; bounded in bytes; no git process for a repeat.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { gitEnv, gitProcessCounts } from "@/server/git/exec";
import { repoGitDir } from "@/server/git/paths";
import { readTree } from "@/server/git/repository";
import { countReachable } from "@/server/git/commits";
import { clearImmutableCache, IMMUTABLE_CACHE_BYTES, immutableCacheStats, immutableRead } from "@/server/git/immutable-cache";
import { MarkdownView } from "@/components/code/markdown";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { workRepo, type WorkRepo } from "../diff-fixtures";

let owner: Profile;
let w: WorkRepo;
let repoId: string;
let gitDir: string;

/** Copies the work repository's branches into the svc repository (a push, force included). */
function push(): void {
  execFileSync("git", ["fetch", "-q", w.dir, "+refs/heads/*:refs/heads/*"], { env: gitEnv({ GIT_DIR: gitDir }) });
}
const revListCount = (sha: string) => Number(execFileSync("git", ["--git-dir", gitDir, "rev-list", "--count", sha]).toString().trim());
/** Git processes `fn` starts. */
async function gitRuns(fn: () => Promise<unknown>): Promise<number> {
  const before = gitProcessCounts().started;
  await fn();
  return gitProcessCounts().started - before;
}

beforeAll(async () => {
  owner = await makeUser("immut");
  repoId = (await (await callerFor(actorOf(owner))).repos.create({ name: "immut" })).id;
  gitDir = repoGitDir(owner.username, "immut");
  w = workRepo();
  w.write("README.md", "# One\n");
  w.write("src/a.ts", "a\n");
  w.commit("first");
  push();
});

afterAll(() => w?.cleanup());
beforeEach(() => clearImmutableCache());

describe("immutableRead", () => {
  it("computes once per key, shares concurrent misses and keeps no failure", async () => {
    let runs = 0;
    const compute = async () => ++runs;
    const [a, b] = await Promise.all([
      immutableRead("t", "/g", ["k"], () => 8, compute),
      immutableRead("t", "/g", ["k"], () => 8, compute),
    ]);
    expect([a, b, runs]).toEqual([1, 1, 1]);
    expect(await immutableRead("t", "/g", ["k"], () => 8, compute)).toBe(1);
    // another repository or kind is another key
    expect(await immutableRead("t", "/other", ["k"], () => 8, compute)).toBe(2);
    expect(await immutableRead("u", "/g", ["k"], () => 8, compute)).toBe(3);
    let fail = true;
    const flaky = async () => {
      if (fail) throw new Error("git failed");
      return "ok";
    };
    await expect(immutableRead("t", "/g", ["f"], () => 8, flaky)).rejects.toThrow("git failed");
    fail = false;
    expect(await immutableRead("t", "/g", ["f"], () => 8, flaky)).toBe("ok");
  });

  it("stays within its byte bound, dropping the least recently used", async () => {
    const big = IMMUTABLE_CACHE_BYTES / 8;
    for (let i = 0; i < 20; i++)
      await immutableRead(
        "t",
        "/g",
        [`big${i}`],
        () => big,
        async () => i,
      );
    expect(immutableCacheStats().bytes).toBeLessThanOrEqual(IMMUTABLE_CACHE_BYTES);
    expect(immutableCacheStats().entries).toBeLessThan(20);
    let again = 0;
    expect(
      await immutableRead(
        "t",
        "/g",
        ["big0"],
        () => big,
        async () => ++again + 100,
      ),
    ).toBe(101); // evicted: computed again
    expect(
      await immutableRead(
        "t",
        "/g",
        ["big19"],
        () => big,
        async () => ++again + 100,
      ),
    ).toBe(19); // still kept
  });
});

describe("directory entries per (commit, path)", () => {
  it("reads a directory from git once per commit, and a push shows the new entries", async () => {
    const caller = await callerFor(actorOf(owner));
    const first = await caller.repos.tree({ repoId, path: "" });
    expect(first.entries.map((e) => e.name)).toEqual(["src", "README.md"]);
    // a repeat only resolves the ref (rev-parse); the listing comes from the cache
    expect(await gitRuns(() => caller.repos.tree({ repoId, path: "" }))).toBe(1);
    w.write("b.txt", "b\n");
    w.write("src/c.ts", "c\n");
    w.commit("second");
    push();
    const second = await caller.repos.tree({ repoId, path: "" });
    expect(second.sha).not.toBe(first.sha);
    expect(second.entries.map((e) => e.name)).toEqual(["src", "b.txt", "README.md"]);
    expect((await caller.repos.tree({ repoId, path: "src" })).entries.map((e) => e.name)).toEqual(["a.ts", "c.ts"]);
    // the old commit still answers its own listing
    expect((await caller.repos.tree({ repoId, ref: first.sha, path: "" })).entries.map((e) => e.name)).toEqual(["src", "README.md"]);
  });

  it("answers NOT_FOUND for a file or a missing path with one git process, and keeps callers' copies apart", async () => {
    const sha = w.git("rev-parse", "HEAD").trim();
    expect(await gitRuns(() => expect(readTree(gitDir, sha, "README.md")).rejects.toMatchObject({ code: "NOT_FOUND" }))).toBe(1);
    await expect(readTree(gitDir, sha, "nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
    const a = await readTree(gitDir, sha, "src");
    a[0]!.name = "changed by a caller";
    expect((await readTree(gitDir, sha, "src"))[0]!.name).toBe("a.ts");
  });
});

describe("commit count per commit", () => {
  it("equals git rev-list --count through pushes, force-pushes and old commits, and a repeat runs no git", async () => {
    const caller = await callerFor(actorOf(owner));
    const count = async () => (await caller.repos.commitCount({ repoId })).count;
    const before = await count();
    const oldSha = w.git("rev-parse", "HEAD").trim();
    expect(before).toBe(revListCount(oldSha));
    expect(await gitRuns(() => countReachable(gitDir, oldSha))).toBe(0);
    for (let i = 0; i < 3; i++) w.commit(`more ${i}`);
    push();
    // counted on from the last count: one git process (rev-list --left-right), not a whole walk
    const head = w.git("rev-parse", "HEAD").trim();
    expect(await gitRuns(async () => expect(await countReachable(gitDir, head)).toBe(before + 3))).toBe(1);
    expect(await count()).toBe(before + 3);
    // a force-push to a shorter, diverged history
    w.git("reset", "-q", "--hard", oldSha);
    w.commit("diverged");
    push();
    const diverged = w.git("rev-parse", "HEAD").trim();
    expect(await count()).toBe(revListCount(diverged));
    expect(revListCount(diverged)).toBe(before + 1);
    // the earlier commits keep their own counts
    expect(await countReachable(gitDir, head)).toBe(before + 3);
    expect(await countReachable(gitDir, oldSha)).toBe(before);
    // another process, with nothing kept, answers the same
    clearImmutableCache();
    expect(await countReachable(gitDir, head)).toBe(revListCount(head));
  });
});

describe("README renders per (text, repository base)", () => {
  const render = (source: string, gitRef = "main") =>
    renderToStaticMarkup(createElement(MarkdownView, { source, owner: "alice", repo: "app", gitRef, dir: "" }));

  it("renders a repeat the same, and another text or ref anew", () => {
    const one = render("# Title\n\nSee [the guide](docs/guide.md).\n");
    expect(render("# Title\n\nSee [the guide](docs/guide.md).\n")).toBe(one);
    expect(one).toContain('href="/alice/app/blob/main/docs/guide.md"');
    expect(render("# Title\n\nSee [the guide](docs/guide.md).\n", "dev")).toContain('href="/alice/app/blob/dev/docs/guide.md"');
    expect(render("# Changed\n")).toContain("Changed");
  });
});
