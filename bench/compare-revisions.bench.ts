/**
 * pulls.compareRevisions benchmark (docs/pulls.md "Interdiff", issue #24):
 * `npx tsx bench/compare-revisions.bench.ts` (not part of the tests). SQLite in a temp DATA_DIR;
 * the generated repository of bench/interdiff-fixture.ts (no network) as a real repository of
 * the server: a 500-file pull request rebased onto a moved base — revision 1 the old head on the
 * old base, revision 2 the rebased head (one line of 10 files amended) on the new base.
 * Measures, through the tRPC caller (`createCaller`: authorization, the pull request's and the
 * revisions' rows, the replay, the diff), `pulls.compareRevisions {from: 1, to: 2}` (the whole
 * interdiff) and `pulls.compareRevisionsPage` (its first page) against `git range-diff` of the
 * same ranges (oldBase..oldHead newBase..newHead, read to the end) measured in the same run: the
 * physical limit of a rebase-aware comparison in git. Rows: the process's first interdiff
 * (revision 2 → 1, after one pulls.revisions call warmed the router and the database connection:
 * every code path runs for the first time), the first call of 1 → 2 (a warm server viewing these
 * revisions for the first time: no replay, no diff cached, the patch cache on as in production),
 * cold p50 (the replay and diff caches emptied before each run, the patch cache off) and warm p50
 * (the same revisions again). Goal: cold ≤ 2× range-diff. Env: BENCH_FILES (500), BENCH_BASE_FILES (1000), BENCH_RUNS (9).
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import Database from "better-sqlite3";
import { getDb } from "@/server/db";
import { createCaller } from "@/server/api/root";
import type { Actor } from "@/server/auth/actor";
import { SCOPES } from "@/server/auth/scopes";
import { setPatchCacheLimits } from "@/server/git/diff-patch-cache";
import { repoGitDir } from "@/server/git/paths";
import { forgetInterdiffCaches, makeInterdiffRepo, rangeDiff } from "./interdiff-fixture";
import { measureRuns, openBenchDatabase } from "./support";

const FILES = Number(process.env.BENCH_FILES ?? 500);
const BASE_FILES = Math.max(FILES, Number(process.env.BENCH_BASE_FILES ?? 1000));
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

delete process.env.BENCH_DATABASE_URL; // SQLite only
const bench = await openBenchDatabase("compare-revisions");

// ---- git: the server's repository of user0/big ----
const t0 = Date.now();
const gitDir = repoGitDir("user0", "big");
const fixture = makeInterdiffRepo(gitDir, { files: FILES, baseFiles: BASE_FILES });
const { revs } = fixture;
console.log(
  `repository: ${BASE_FILES} files, change of ${FILES} files, base moved (${fixture.upstreamFiles} files), in ${((Date.now() - t0) / 1000).toFixed(1)}s`,
);

// ---- rows: the owner, the repository, the pull request and its two revisions ----
const raw = new Database(bench.file);
const iso = (ms: number) => new Date(ms).toISOString();
const start = Date.now() - 86_400_000;
const owner = { id: randomUUID(), username: "user0" };
const repoId = randomUUID();
const prId = randomUUID();
raw
  .prepare(`INSERT INTO "User" (id, username, usernameLower, name, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)`)
  .run(owner.id, owner.username, owner.username, "User 0", iso(start), iso(start));
raw
  .prepare(
    `INSERT INTO "Repository" (id, ownerId, name, nameLower, isPrivate, nextIssueNumber, createdAt, updatedAt) VALUES (?, ?, ?, ?, 1, 2, ?, ?)`,
  )
  .run(repoId, owner.id, "big", "big", iso(start), iso(start));
raw
  .prepare(
    `INSERT INTO "PullRequest" (id, repoId, number, title, state, isDraft, sourceRepoId, sourceBranch, targetBranch, headSha, baseSha, authorId, createdAt, updatedAt)
  VALUES (?, ?, 1, 'rebased', 'open', 0, ?, 'new', 'main', ?, ?, ?, ?, ?)`,
  )
  .run(prId, repoId, repoId, revs.newHead, revs.newBase, owner.id, iso(start), iso(start));
const insRevision = raw.prepare(
  `INSERT INTO "PullRequestRevision" (id, pullRequestId, number, headSha, baseSha, pushedAt, pushedById, forced) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
);
insRevision.run(randomUUID(), prId, 1, revs.oldHead, revs.oldBase, iso(start), owner.id, 0);
insRevision.run(randomUUID(), prId, 2, revs.newHead, revs.newBase, iso(start + 60_000), owner.id, 1);
raw.close();

const actor: Actor = {
  user: { id: owner.id, username: owner.username, name: null, email: null, isAdmin: false },
  via: "session",
  scopes: SCOPES,
};
const caller = createCaller({ db: await getDb(), headers: new Headers(), actor, publicUrl: "http://localhost", requestId: "bench" });
const whole = () => caller.pulls.compareRevisions({ prId, from: 1, to: 2 });
const firstPage = () => caller.pulls.compareRevisionsPage({ prId, from: 1, to: 2 });

// ---- measure ----
// the server running: the router and the database connection warmed by pulls.revisions. The
// process's first interdiff (revision 2 → 1: its own replay, trees and diff range, nothing shared
// with 1 → 2) also runs every code path for the first time (the diff parser, the patch cache …);
// the first call of 1 → 2 after it is the first view of those revisions in a warm server
await caller.pulls.revisions({ prId });
const timed = async (fn: () => Promise<unknown>) => {
  const s0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - s0) / 1e6;
};
const firstOfProcess = await timed(() => caller.pulls.compareRevisions({ prId, from: 2, to: 1 }));
const first = await timed(whole);
const check = await whole();
console.log(
  `interdiff: ${check.totalFiles} files, +${check.totalAdditions} -${check.totalDeletions}, replayed ${check.replayed}, conflicted ${check.rebaseConflicted}`,
);
if (check.totalFiles !== 10 || check.rebaseConflicted || !check.replayed) throw new Error("the interdiff should be the 10 amended files");
const page = await firstPage();
if (page.files.length !== 10 || page.nextCursor !== null || page.empty) throw new Error("the first page should hold the 10 files");

const base = await measureRuns(() => rangeDiff(fixture), { runs: RUNS, warmup: 2 });
const cold = async (fn: () => Promise<unknown>) => {
  setPatchCacheLimits({ maxBytes: 0 });
  const m = await measureRuns(
    () => {
      forgetInterdiffCaches();
      return fn();
    },
    { runs: RUNS, warmup: 2 },
  );
  setPatchCacheLimits();
  forgetInterdiffCaches();
  return m;
};
const warm = (fn: () => Promise<unknown>) => measureRuns(fn, { runs: RUNS, warmup: 2 });
const rows: [string, number][] = [
  ["git range-diff (baseline)", base.p50],
  ["pulls.compareRevisions, the process's first (2 → 1, code cold)", firstOfProcess],
  ["pulls.compareRevisions, first call of 1 → 2 (nothing cached)", first],
  ["pulls.compareRevisions, cold (caches emptied)", (await cold(whole)).p50],
  ["pulls.compareRevisions, warm (same revisions again)", (await warm(whole)).p50],
  ["pulls.compareRevisionsPage, cold (first page)", (await cold(firstPage)).p50],
  ["pulls.compareRevisionsPage, warm (first page)", (await warm(firstPage)).p50],
];
console.log(
  `load average: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (${os.cpus().length} cores)`,
);
console.log(`| case | p50 ms | × range-diff |`);
console.log("|---|---:|---:|");
for (const [label, ms] of rows) console.log(`| ${label} | ${ms.toFixed(1)} | ${(ms / base.p50).toFixed(2)} |`);
const coldWhole = rows[3][1];
console.log(coldWhole <= 2 * base.p50 ? "goal met: cold ≤ 2× range-diff" : "goal missed: cold > 2× range-diff");
await (await getDb()).$disconnect();
await bench.drop();
