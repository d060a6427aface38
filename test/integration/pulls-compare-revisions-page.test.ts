/**
 * pulls.compareRevisionsPage (docs/pulls.md "Interdiff"): the interdiff between two revisions in
 * hunk pages, as pulls.getDiffPage pages the pull request's diff. Reading every page from the
 * first cursor to the last gives the same files and lines as pulls.compareRevisions; a rebase
 * that changed nothing says `empty`; unknown revisions and strangers get NOT_FOUND. Real git over
 * smart HTTP.
 */
import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromPageHunks } from "@/components/diff/model";
import type { DiffHunk } from "@/server/git/diff-types";
import { codeOf, team, type Team } from "./pulls-fixtures";

let t: Team;
let prId: string;

const FILES = 12;
const name = (i: number) => `src/f${String(i).padStart(2, "0")}.txt`;
/**
 * 60 lines of file i: lines 10, 30 and 50 changed by the change; `amended`: every third file also
 * has lines 4, 12, …, 52 amended (seven hunks apart, so a small line budget cuts between them).
 */
const content = (i: number, opts: { change?: boolean; amended?: boolean; top?: boolean } = {}) =>
  (opts.top ? "top 1\ntop 2\ntop 3\n" : "") +
  Array.from({ length: 60 }, (_, l) => {
    if (opts.amended && i % 3 === 0 && l % 8 === 4) return `amended ${i}.${l}`;
    return opts.change && l % 20 === 10 ? `changed ${i}.${l}` : `file ${i} line ${l}`;
  }).join("\n") +
  "\n";

/** Writes every file with `of(i)` and commits them. */
async function commitAll(of: (i: number) => string, message: string): Promise<string> {
  for (let i = 0; i < FILES; i++) {
    const p = path.join(t.wt.dir, name(i));
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, of(i));
  }
  await t.wt.run("add", "-A");
  await t.wt.run("commit", "--quiet", "-m", message);
  return t.wt.sha("HEAD");
}

/** Every page from the first cursor to the last (each `limit` files, `maxLines` lines), joined per file: path → hunks. */
async function allPages(input: { from: number; to: number; limit?: number; maxLines?: number }) {
  const files = new Map<number, { path: string; hunks: DiffHunk[] }>();
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const page = await t.reader.as.pulls.compareRevisionsPage({ prId, ...input, cursor });
    pages += 1;
    for (const f of page.files) {
      const got = files.get(f.index) ?? { path: f.newPath, hunks: [] };
      expect(f.fromHunk ?? 0).toBe(got.hunks.length); // a continued file picks up where the last page stopped
      got.hunks.push(...fromPageHunks(f.hunks));
      files.set(f.index, got);
    }
    if (page.nextCursor === null) break;
    cursor = page.nextCursor;
    if (pages > 200) throw new Error("the pages do not end");
  }
  return { pages, files: [...files.entries()].sort((a, b) => a[0] - b[0]).map(([, f]) => f) };
}

beforeAll(async () => {
  t = await team("crp");
  await commitAll((i) => content(i), "sixty lines each");
  await t.wt.push("main");
  await t.wt.run("checkout", "--quiet", "-b", "feat");
  const first = await commitAll((i) => content(i, { change: true }), "change three lines of each");
  await t.wt.push("feat");
  const pr = await t.owner.as.pulls.create({
    repoId: t.repo.id,
    title: "feat",
    sourceBranch: "feat",
    targetBranch: "main",
    headSha: first,
    baseSha: await t.wt.sha("main"),
  });
  prId = pr.id;
  // main moves (three lines inserted at the top of every file); the change is rebased onto it (revision 2),
  // then amended at line 30 of every third file (revision 3)
  await t.wt.run("checkout", "--quiet", "main");
  await commitAll((i) => content(i, { top: true }), "upstream: a header in every file");
  await t.wt.push("main");
  await t.wt.run("checkout", "--quiet", "feat");
  await t.wt.run("rebase", "--quiet", "main");
  await t.wt.push("--force", "feat");
  await commitAll((i) => content(i, { change: true, amended: true, top: true }), "amend");
  await t.wt.push("feat");
  expect((await t.reader.as.pulls.revisions({ prId })).map((r) => r.number)).toEqual([1, 2, 3]);
});

afterAll(async () => {
  await t.server.close();
});

describe("pulls.compareRevisionsPage", () => {
  it("pages concatenate to the same files and lines as pulls.compareRevisions", async () => {
    for (const [from, to] of [
      [1, 3],
      [2, 3],
      [3, 1],
    ]) {
      const whole = await t.reader.as.pulls.compareRevisions({ prId, from, to });
      expect(whole.empty).toBe(false);
      expect(whole.truncated).toBe(false);
      const expected = whole.files.map((f) => ({ path: f.newPath, hunks: f.hunks }));
      // one page, then pages of one file, then pages cut inside files by a small line budget
      for (const opts of [{}, { limit: 1 }, { limit: 3, maxLines: 100 }]) {
        const got = await allPages({ from, to, ...opts });
        expect(got.files).toEqual(expected);
        if ("limit" in opts) expect(got.pages).toBeGreaterThan(1);
      }
      const cut = await t.reader.as.pulls.compareRevisionsPage({ prId, from, to, maxLines: 100 });
      expect(cut.files.at(-1)?.continues).toBe(true); // the budget ran out inside a file
    }
    // the amend: the four files 0, 3, 6, 9, the base's header left out
    const amend = await t.reader.as.pulls.compareRevisionsPage({ prId, from: 2, to: 3 });
    expect(amend).toMatchObject({
      empty: false,
      replayed: false,
      rebaseConflicted: false,
      conflicts: [],
      nextCursor: null,
      fromRevision: { number: 2 },
      toRevision: { number: 3 },
    });
    expect(amend.files.map((f) => [f.index, f.newPath])).toEqual([0, 3, 6, 9].map((i, k) => [k, name(i)]));
    const across = await t.reader.as.pulls.compareRevisionsPage({ prId, from: 1, to: 3, limit: 2 });
    expect(across).toMatchObject({ empty: false, replayed: true, nextCursor: "2" });
    const changed = across.files.flatMap((f) => f.hunks.flatMap((h) => h.lines.filter((l) => l[0] !== " ")));
    expect(changed).toContain("+amended 0.4");
    expect(changed.filter((l) => !/^(\+amended [03]\.|-file [03] line )/.test(l))).toEqual([]);
    // a later page: not empty either (read off the trees, not the page)
    expect(await t.reader.as.pulls.compareRevisionsPage({ prId, from: 1, to: 3, cursor: "3" })).toMatchObject({ empty: false });
  });

  it("says empty for a rebase that changed nothing in the change, on every page", async () => {
    const whole = await t.reader.as.pulls.compareRevisions({ prId, from: 1, to: 2 });
    expect(whole).toMatchObject({ empty: true, totalFiles: 0, replayed: true });
    const first = await t.reader.as.pulls.compareRevisionsPage({ prId, from: 1, to: 2 });
    expect(first).toMatchObject({ empty: true, files: [], nextCursor: null, replayed: true, rebaseConflicted: false });
    expect(await t.reader.as.pulls.compareRevisionsPage({ prId, from: 1, to: 2, cursor: "4" })).toMatchObject({
      empty: true,
      files: [],
      nextCursor: null,
    });
    // the head → head diff would carry the base's header in every file
    expect((await t.reader.as.pulls.compareRevisionsPage({ prId, from: 2, to: 1 })).empty).toBe(true);
  });

  it("answers NOT_FOUND for an unknown revision and to strangers; refuses a malformed cursor", async () => {
    expect(await codeOf(t.reader.as.pulls.compareRevisionsPage({ prId, from: 1, to: 9 }))).toBe("NOT_FOUND");
    expect(await codeOf(t.stranger.as.pulls.compareRevisionsPage({ prId, from: 1, to: 3 }))).toBe("NOT_FOUND");
    expect(await codeOf(t.reader.as.pulls.compareRevisionsPage({ prId, from: 1, to: 3, cursor: "-1" }))).toBe("BAD_REQUEST");
    expect(await codeOf(t.reader.as.pulls.compareRevisionsPage({ prId, from: 1, to: 3, limit: 501 }))).toBe("BAD_REQUEST");
  });
});
