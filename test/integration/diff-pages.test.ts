/**
 * The file list and hunk pages of a pull request's diff (pulls.getDiffFiles, pulls.getDiffPage;
 * docs/pulls.md "File list and hunk pages") through the real router on a real repository: the
 * list comes once, pages carry hunks only, page boundaries fall inside files, every hunk
 * arrives exactly once, and the plain spec call `pulls.getDiff {prId}` still answers the whole
 * diff. Also the large-diff gate (server/git/diff-gate.ts): a large parse waits for a slot and
 * gets TOO_MANY_REQUESTS when none frees; small diffs never wait.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { getDb } from "@/server/db";
import { gitEnv } from "@/server/git/exec";
import { repoGitDir } from "@/server/git/paths";
import { acquireLargeDiff, largeDiffLoad, setLargeDiffLimits } from "@/server/git/diff-gate";
import type { DiffFile } from "@/server/git/diff";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { workRepo, type WorkRepo } from "../diff-fixtures";

let owner: Profile;
let stranger: Profile;
let w: WorkRepo;
let prId: string;
let repoId: string;

const lines = (n: number, v: (i: number) => string) => Array.from({ length: n }, (_, i) => v(i)).join("\n") + "\n";

beforeAll(async () => {
  owner = await makeUser("pagesowner");
  stranger = await makeUser("pagesstranger");
  const repo = await (await callerFor(actorOf(owner))).repos.create({ name: "pages", isPrivate: true });
  repoId = repo.id;
  w = workRepo();
  // a-big.txt: 30 hunks; f00…f39: 5 hunks each; and the special cases
  w.write(
    "a-big.txt",
    lines(600, (i) => `big ${i}`),
  );
  for (let f = 0; f < 40; f++)
    w.write(
      `dir/f${String(f).padStart(2, "0")}.txt`,
      lines(200, (i) => `file ${f} line ${i}`),
    );
  w.write("gone.txt", "bye\n");
  w.write(
    "move-from.txt",
    lines(30, (i) => `moving ${i}`),
  );
  w.write("no-eol.txt", "a\nb");
  w.write("run.sh", "echo hi\n");
  w.commit("base");
  w.git("checkout", "-q", "-b", "topic");
  w.write(
    "a-big.txt",
    lines(600, (i) => (i % 20 === 10 ? `BIG ${i}` : `big ${i}`)),
  );
  for (let f = 0; f < 40; f++)
    w.write(
      `dir/f${String(f).padStart(2, "0")}.txt`,
      lines(200, (i) => ([10, 50, 90, 130, 170].includes(i) ? `FILE ${f} ${i}` : `file ${f} line ${i}`)),
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
  const head = w.commit("topic");
  w.git("checkout", "-q", "-b", "huge", "main");
  w.write(
    "huge.txt",
    lines(6_000, (i) => `huge ${i}`),
  );
  w.commit("huge");
  const gitDir = repoGitDir(owner.username, "pages");
  execFileSync("git", ["fetch", "-q", w.dir, "+refs/heads/*:refs/heads/*"], { env: gitEnv({ GIT_DIR: gitDir }) });
  const base = w.git("rev-parse", "main").trim();
  const db = await getDb();
  const pr = await db.pullRequest.create({
    data: {
      repoId: repo.id,
      number: 1,
      title: "pages",
      sourceRepoId: repo.id,
      sourceBranch: "topic",
      targetBranch: "main",
      headSha: head,
      baseSha: base,
    },
  });
  prId = pr.id;
});

afterAll(() => w?.cleanup());
afterEach(() => setLargeDiffLimits());

/** A DiffFile's hunks with their lines as git prints them (the page format). */
function asText(f: DiffFile) {
  return f.hunks.map(({ lines: ls, ...h }) => ({
    ...h,
    lines: ls.flatMap((l) => [
      `${l.type === "add" ? "+" : l.type === "delete" ? "-" : " "}${l.content}`,
      ...(l.noNewlineAtEnd ? ["\\ No newline at end of file"] : []),
    ]),
  }));
}

type Caller = Awaited<ReturnType<typeof callerFor>>;

/** Every page from the first: the pages, and each file's hunks put together (checking each page continues where the last stopped). */
async function readAll(caller: Caller, input: { limit?: number; maxLines?: number }) {
  const pages = [];
  const hunks = new Map<number, unknown[]>();
  let cursor: string | undefined;
  for (let n = 0; n < 200; n++) {
    const page = await caller.pulls.getDiffPage({ prId, cursor, ...input });
    pages.push(page);
    for (const f of page.files) {
      const got = hunks.get(f.index) ?? [];
      expect(f.fromHunk ?? 0, `file ${f.index} continues where the last page stopped`).toBe(got.length);
      hunks.set(f.index, [...got, ...f.hunks]);
    }
    if (page.nextCursor === null) break;
    expect(page.nextCursor).not.toBe(cursor);
    cursor = page.nextCursor;
  }
  return { pages, hunks };
}

describe("pulls.getDiffFiles and pulls.getDiffPage", () => {
  it("sends the file list once, without hunks, as getDiff lists it", async () => {
    const caller = await callerFor(actorOf(owner));
    const whole = await caller.pulls.getDiff({ prId });
    const list = await caller.pulls.getDiffFiles({ prId });
    expect(list).toMatchObject({
      totalFiles: whole.totalFiles,
      totalAdditions: whole.totalAdditions,
      totalDeletions: whole.totalDeletions,
      truncated: false,
      headSha: whole.headSha,
      mergeBaseSha: whole.mergeBaseSha,
    });
    expect(list.files).toEqual(
      whole.files.map(({ hunks, truncated, truncatedReason, ...f }) => (void hunks, void truncated, void truncatedReason, f)),
    );
    expect(list.files.some((f) => "hunks" in f)).toBe(false);
    expect(list.files.map((f) => f.newPath)).toContain("pic.bin");
  });

  it("pages carry hunks only; boundaries fall inside files; every file's hunks arrive exactly once", async () => {
    const caller = await callerFor(actorOf(owner));
    const whole = await caller.pulls.getDiff({ prId });
    expect(whole.truncated).toBe(false);
    for (const input of [{ maxLines: 100 }, { maxLines: 100, limit: 3 }, { maxLines: 250, limit: 500 }, {}]) {
      const { pages, hunks } = await readAll(caller, input);
      for (const page of pages) {
        for (const f of page.files) {
          expect(
            Object.keys(f).filter((k) => !["index", "oldPath", "newPath", "hunks", "fromHunk", "continues", "truncated"].includes(k)),
          ).toEqual([]);
          expect([f.oldPath, f.newPath]).toEqual([whole.files[f.index].oldPath, whole.files[f.index].newPath]);
        }
        expect(page.files.length).toBeLessThanOrEqual(input.limit ?? 500);
        // the budget holds, except a page's first hunk, which is always kept whole
        const kept = page.files.flatMap((f) => f.hunks).map((h) => h.lines.filter((l) => !l.startsWith("\\")).length);
        if (input.maxLines && kept.length > 0) expect(kept.reduce((a, b) => a + b, 0) - kept[0]).toBeLessThan(input.maxLines);
      }
      // every file is covered, in order, and its hunks put together are getDiff's
      expect([...hunks.keys()]).toEqual(whole.files.map((_, i) => i));
      whole.files.forEach((f, i) => expect(hunks.get(i), `${f.newPath} with ${JSON.stringify(input)}`).toEqual(asText(f)));
      if (input.maxLines === 100) {
        expect(pages.length).toBeGreaterThan(10);
        expect(pages.filter((p) => p.files.some((f) => f.continues)).length).toBeGreaterThan(5); // boundaries inside files
        expect(pages[0].files).toHaveLength(1); // a-big.txt's 30 hunks span pages
        expect(pages[0].files[0]).toMatchObject({ newPath: "a-big.txt", continues: true });
        expect(pages[0].nextCursor).toMatch(/^0:\d+$/);
      }
    }
  });

  it("starts at any cursor; past the end is an empty last page", async () => {
    const caller = await callerFor(actorOf(owner));
    const whole = await caller.pulls.getDiff({ prId });
    const at = whole.files.findIndex((f) => f.newPath === "dir/f20.txt");
    const page = await caller.pulls.getDiffPage({ prId, cursor: `${at}:1`, limit: 2 });
    expect(page.files.map((f) => [f.index, f.fromHunk])).toEqual([
      [at, 1],
      [at + 1, undefined],
    ]);
    expect(page.files[0].hunks).toEqual(asText(whole.files[at]).slice(1));
    expect(page.nextCursor).toBe(String(at + 2));
    expect(await caller.pulls.getDiffPage({ prId, cursor: "9999" })).toMatchObject({ files: [], nextCursor: null });
  });

  it("refuses malformed cursors and limits; NOT_FOUND to strangers", async () => {
    const caller = await callerFor(actorOf(owner));
    for (const bad of [{ cursor: "-1" }, { cursor: "1:x" }, { cursor: "--output=x" }, { limit: 0 }, { limit: 501 }, { maxLines: 10 }])
      await expect(caller.pulls.getDiffPage({ prId, ...bad })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect((await callerFor(actorOf(stranger))).pulls.getDiffPage({ prId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await callerFor(actorOf(stranger))).pulls.getDiffFiles({ prId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await callerFor(null)).pulls.getDiffFiles({ prId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("keeps the plain spec call whole for a small pull request", async () => {
    const d = await (await callerFor(actorOf(owner))).pulls.getDiff({ prId });
    expect(d).toMatchObject({ totalFiles: 47, truncated: false });
    expect(d.files).toHaveLength(47);
    expect(d.files.every((f) => !f.truncated && typeof f.additions === "number" && Array.isArray(f.hunks))).toBe(true);
    expect(d.files.find((f) => f.newPath === "a-big.txt")!.hunks).toHaveLength(30);
    expect(d.files[0].hunks[0].lines[0]).toEqual({ type: "context", content: "big 7" });
  });
});

describe("repos.commitDiffPage and repos.compareDiffPage", () => {
  it("page the commit page's and the compare page's diffs the same way", async () => {
    const caller = await callerFor(actorOf(owner));
    const commit = await caller.repos.commit({ repoId, sha: "topic" });
    const compared = await caller.repos.compare({ repoId, base: "main", head: "topic" });
    const walks = [
      { whole: commit.diff, page: (cursor?: string) => caller.repos.commitDiffPage({ repoId, sha: "topic", cursor, maxLines: 100 }) },
      {
        whole: compared.diff,
        page: (cursor?: string) => caller.repos.compareDiffPage({ repoId, base: "main", head: "topic", cursor, maxLines: 100 }),
      },
    ];
    for (const { whole, page } of walks) {
      const hunks = new Map<number, unknown[]>();
      let cursor: string | undefined;
      do {
        const p = await page(cursor);
        for (const f of p.files) hunks.set(f.index, [...(hunks.get(f.index) ?? []), ...f.hunks]);
        cursor = p.nextCursor ?? undefined;
      } while (cursor);
      expect(hunks.size).toBe(whole.files.length);
      whole.files.forEach((f, i) => expect(hunks.get(i)).toEqual(asText(f)));
    }
    await expect(caller.repos.commitDiffPage({ repoId, sha: "f".repeat(40) })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await callerFor(actorOf(stranger))).repos.compareDiffPage({ repoId, base: "main", head: "topic" })).rejects.toMatchObject(
      {
        code: "NOT_FOUND",
      },
    );
  });
});

describe("the large-diff gate", () => {
  it("makes a large parse wait for a slot, TOO_MANY_REQUESTS when none frees in time; small diffs never wait", async () => {
    const caller = await callerFor(actorOf(owner));
    setLargeDiffLimits({ slots: 1, waitMs: 200 });
    let release = await acquireLargeDiff(); // the only slot is taken
    try {
      expect((await caller.pulls.getDiff({ prId })).files).toHaveLength(47); // ~1,300 lines: below the gate
      await expect(caller.repos.commit({ repoId, sha: "huge" })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" }); // 6,000 lines
      setLargeDiffLimits({ slots: 1, waitMs: 60_000 });
      const waiting = caller.repos.commit({ repoId, sha: "huge" });
      await new Promise((r) => setImmediate(r));
      release();
      release = () => {};
      const c = await waiting; // the slot freed: it went on
      expect(c.diff.files[0].hunks[0].lines).toHaveLength(6_000);
      await new Promise((r) => setImmediate(r)); // the slot is released one macrotask after the parse (its answer serialized)
      expect(largeDiffLoad()).toEqual({ active: 0, waiting: 0 });
    } finally {
      release();
    }
  });
});
