/**
 * Review reads benchmark (docs/performance.md "Review reads"):
 * `npx tsx bench/pulls-review.bench.ts` (not part of the tests).
 * SQLite in a temp DATA_DIR, a real bare repository: a pull request changing 500 files (40 lines
 * each), pushed twice (the second push rewrites 50 of them), with 5,000 comments — one thread per
 * file, a root and 9 replies, half the threads made on the first head (so the outdated check runs
 * `git diff` across the 500 files), 20 authors, 200 pending comments of another user.
 * Measures p50/p95 of `pulls.comments` (every thread) and `pulls.getFileComments` (one file)
 * through the tRPC caller (authorization included) and as the bare service call, against a raw
 * SQL baseline measured in the same run: the same rows (comments joined to their authors and
 * resolvers, on the (pullRequestId, createdAt) / (pullRequestId, path) indexes) read with a
 * prepared better-sqlite3 statement, nothing else. Prints the ratio (p50 / raw p50; goal ≤ 3×),
 * statements per call and the very first call's time (cold: the outdated check's git diff, not cached yet).
 * Env: BENCH_FILES (500), BENCH_PER_THREAD (10), BENCH_RUNS (30).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { migrateSqlite } from "@/server/db/migrate";
import { observeReads, readerFor, registerReader } from "@/server/db/read";
import { createCaller } from "@/server/api/root";
import type { Actor } from "@/server/auth/actor";
import { SCOPES } from "@/server/auth/scopes";
import { gitText } from "@/server/git/exec";
import { repoGitDir } from "@/server/git/paths";
import { initBareRepository } from "@/server/git/repository";
import { commentsSql, listPullComments } from "@/server/services/pulls/list-comments";
import { measureRuns, openBenchDatabase } from "./support";

const FILES = Number(process.env.BENCH_FILES ?? 500);
const PER_THREAD = Number(process.env.BENCH_PER_THREAD ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

delete process.env.BENCH_DATABASE_URL; // SQLite only
const bench = await openBenchDatabase("review");
const { dir, file } = bench;

// ---- git: main, then a topic branch changing every file, then a second push changing 50 ----
const t0 = Date.now();
const gitDir = repoGitDir("user0", "big");
await initBareRepository(gitDir, "main");
const work = path.join(dir, "work");
mkdirSync(work);
const wgit = (...args: string[]) => gitText(["-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], { cwd: work });
await wgit("init", "--quiet", "--initial-branch=main");
const writeAll = (tag: string, every = 1) => {
  for (let f = 0; f < FILES; f += every) {
    mkdirSync(path.join(work, `dir${f % 20}`), { recursive: true });
    writeFileSync(
      path.join(work, `dir${f % 20}`, `f${f}.txt`),
      Array.from({ length: 40 }, (_, i) => `${tag} ${f}:${i + 1}`).join("\n") + "\n",
    );
  }
};
const commit = async (msg: string) => {
  await wgit("add", "-A");
  await wgit("commit", "--quiet", "-m", msg);
  return (await wgit("rev-parse", "HEAD")).trim();
};
writeAll("base");
const base = await commit("base");
await wgit("checkout", "--quiet", "-b", "topic");
writeAll("v1");
const head1 = await commit("v1");
writeAll("v2", FILES / 50);
const head2 = await commit("v2");
await wgit("push", "--quiet", gitDir, "main", "topic");
console.log(`git: ${FILES} files, 3 commits in ${((Date.now() - t0) / 1000).toFixed(1)}s`);

// ---- seed with raw SQL ----
const raw = new Database(file);
raw.pragma("journal_mode = WAL");
const users = Array.from({ length: 20 }, (_, i) => ({ id: randomUUID(), username: `user${i}` }));
const insUser = raw.prepare(`INSERT INTO "User" (id, username, usernameLower, name, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)`);
const iso = (ms: number) => new Date(ms).toISOString();
const start = Date.now() - 86_400_000;
for (const u of users) insUser.run(u.id, u.username, u.username, `User ${u.username}`, iso(start), iso(start));
const owner = users[0];
const repoId = randomUUID();
raw
  .prepare(
    `INSERT INTO "Repository" (id, ownerId, name, nameLower, isPrivate, nextIssueNumber, createdAt, updatedAt) VALUES (?, ?, ?, ?, 1, 2, ?, ?)`,
  )
  .run(repoId, owner.id, "big", "big", iso(start), iso(start));
const prId = randomUUID();
raw
  .prepare(
    `INSERT INTO "PullRequest" (id, repoId, number, title, state, isDraft, sourceRepoId, sourceBranch, targetBranch, headSha, baseSha, authorId, createdAt, updatedAt)
  VALUES (?, ?, 1, 'big review', 'open', 0, ?, 'topic', 'main', ?, ?, ?, ?, ?)`,
  )
  .run(prId, repoId, repoId, head2, base, owner.id, iso(start), iso(start));
const insComment =
  raw.prepare(`INSERT INTO "PullRequestComment" (id, pullRequestId, authorId, body, path, line, side, endLine, commitSha, replyToId, isPending, diffHunk, createdAt, updatedAt)
  VALUES (?, ?, ?, ?, ?, ?, 'RIGHT', ?, ?, ?, ?, ?, ?, ?)`);
let t = start;
raw.transaction(() => {
  for (let f = 0; f < FILES; f++) {
    const p = `dir${f % 20}/f${f}.txt`;
    const line = (f % 40) + 1;
    const sha = f % 4 < 2 ? head1 : head2; // half on the first head; v2 rewrote every 10th file
    const hunk = `@@ -1,40 +1,40 @@\n-base ${f}:${line}\n+v1 ${f}:${line}`;
    const root = randomUUID();
    insComment.run(
      root,
      prId,
      users[f % 20].id,
      `Root comment on ${p} with some **Markdown** text.`,
      p,
      line,
      line,
      sha,
      null,
      0,
      hunk,
      iso(++t),
      iso(t),
    );
    for (let k = 1; k < PER_THREAD; k++)
      insComment.run(
        randomUUID(),
        prId,
        users[(f + k) % 20].id,
        `Reply ${k}: a sentence or two of review discussion.`,
        p,
        line,
        line,
        sha,
        root,
        0,
        null,
        iso(++t),
        iso(t),
      );
    if (f % 5 === 0) insComment.run(randomUUID(), prId, users[1].id, "pending", p, line, line, sha, null, 1, hunk, iso(++t), iso(t));
  }
})();
migrateSqlite(file, path.resolve(import.meta.dirname, "../prisma/migrations")); // PRAGMA optimize, as at server start
console.log(
  `seeded ${FILES * PER_THREAD} comments (+${Math.ceil(FILES / 5)} pending) in ${((Date.now() - t0) / 1000).toFixed(1)}s (${dir})`,
);

// ---- Prisma with query counting ----
const db = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${file}` }), log: [{ emit: "event", level: "query" }] });
let queries = 0;
db.$on("query", () => {
  queries++;
});
registerReader(db as never, readerFor(`file:${file}`));
observeReads(() => {
  queries++;
});
const actor: Actor = {
  user: { id: owner.id, username: owner.username, name: null, email: null, isAdmin: false },
  via: "session",
  scopes: SCOPES,
};
const caller = createCaller({ db: db as never, headers: new Headers(), actor, publicUrl: "http://localhost", requestId: "bench" });
const repo = { id: repoId, gitDir, permission: "admin" as const, ownerId: owner.id, isPrivate: true, owner: owner.username, name: "big" };

// ---- raw SQL baseline: the same rows, prepared once ----
const onePath = `dir3/f3.txt`;
const allSql = commentsSql(prId, owner.id);
const fileSql = commentsSql(prId, owner.id, onePath);
// a connection opened after PRAGMA optimize, like the server's read connection (the seeding one
// keeps the plans it had before the statistics existed)
const baseline = new Database(file, { readonly: true });
const rawAll = baseline.prepare(allSql.text);
const rawFile = baseline.prepare(fileSql.text);
for (const [name, st] of [
  ["all", allSql],
  ["file", fileSql],
] as const) {
  const plan = baseline
    .prepare(`EXPLAIN QUERY PLAN ${st.text}`)
    .all(...st.params.map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v))) as { detail: string }[];
  console.log(`plan (${name}): ${plan.map((r) => r.detail).join("; ")}`);
}
const sqliteParams = (ps: unknown[]) => ps.map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v));

const measure = (fn: () => unknown | Promise<unknown>) => measureRuns(fn, { runs: RUNS, warmup: 4, statements: () => queries });

// the first read runs git (the outdated check's diff across the threads' files); later ones hit its cache
const c0 = process.hrtime.bigint();
const cold = await listPullComments(db as never, actor, repo, prId);
console.log(
  `threads: ${cold.length}, outdated: ${cold.filter((x) => x.isOutdated).length}; cold first call (git diff of ${FILES} files): ${(Number(process.hrtime.bigint() - c0) / 1e6).toFixed(1)} ms`,
);
const cases: [string, () => Promise<unknown>, () => unknown][] = [
  [
    `pulls.comments via tRPC (${FILES * PER_THREAD} comments)`,
    () => caller.pulls.comments({ prId }),
    () => rawAll.all(...sqliteParams(allSql.params)),
  ],
  ["pulls.comments service", () => listPullComments(db as never, actor, repo, prId), () => rawAll.all(...sqliteParams(allSql.params))],
  [
    `pulls.getFileComments via tRPC (one file, ${PER_THREAD} comments)`,
    () => caller.pulls.getFileComments({ prId, path: onePath }),
    () => rawFile.all(...sqliteParams(fileSql.params)),
  ],
  [
    "pulls.getFileComments service",
    () => listPullComments(db as never, actor, repo, prId, onePath),
    () => rawFile.all(...sqliteParams(fileSql.params)),
  ],
];
console.log(`| case | p50 ms | p95 ms | first call ms | raw p50 ms | ratio | queries |`);
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const [name, fn, baseline] of cases) {
  const m = await measure(fn);
  const b = await measure(baseline);
  console.log(
    `| ${name} | ${m.p50.toFixed(2)} | ${m.p95.toFixed(2)} | ${m.first.toFixed(1)} | ${b.p50.toFixed(2)} | ${(m.p50 / b.p50).toFixed(2)} | ${m.queries} |`,
  );
}
await db.$disconnect();
baseline.close();
raw.close();
await bench.drop();
