/**
 * pulls.list benchmark (docs/performance.md "pulls.list"): `npx tsx bench/pulls-list.bench.ts` (not
 * part of the tests). SQLite in a temp DATA_DIR: one repository with 100k pull requests (states
 * open 30 % / closed 20 % / merged 50 %, 50 authors, 0–3 of 20 labels each). Measures p50/p95 of a
 * page of 20 through the tRPC caller (authorization included) and as the bare service call, each
 * against a raw SQL baseline measured in the same run: the best indexed statement a careful
 * engineer would write for the same rows and fields (better-sqlite3 prepared statement; the page's
 * ids from the index, then the author join and the JSON label aggregate for those rows only).
 * Prints the ratio (p50 / raw p50; goal ≤ 3×) and statements per call (Prisma's and the read
 * path's). Env: BENCH_PULLS (100000), BENCH_RUNS (50).
 */
import path from "node:path";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { migrateSqlite } from "@/server/db/migrate";
import { measureRuns, openBenchDatabase } from "./support";
import { observeReads, readerFor, registerReader } from "@/server/db/read";
import { createCaller } from "@/server/api/root";
import type { Actor } from "@/server/auth/actor";
import { SCOPES } from "@/server/auth/scopes";
import { authorizeRepo } from "@/server/services/repos/access";
import { listPullRequests, pullsListSql } from "@/server/services/pulls/list-pull-requests";

const N = Number(process.env.BENCH_PULLS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);

delete process.env.BENCH_DATABASE_URL; // SQLite only
const bench = await openBenchDatabase("pulls");
const { dir, file } = bench;

// ---- seed with raw SQL ----
const raw = new Database(file);
raw.pragma("journal_mode = WAL");
const now = new Date().toISOString();
const users = Array.from({ length: 50 }, (_, i) => ({ id: randomUUID(), username: `user${i}` }));
const insUser = raw.prepare(`INSERT INTO "User" (id, username, usernameLower, name, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)`);
for (const u of users) insUser.run(u.id, u.username, u.username, `User ${u.username}`, now, now);
const owner = users[0];
const repoId = randomUUID();
raw
  .prepare(
    `INSERT INTO "Repository" (id, ownerId, name, nameLower, isPrivate, nextIssueNumber, createdAt, updatedAt) VALUES (?, ?, ?, ?, 1, ?, ?, ?)`,
  )
  .run(repoId, owner.id, "big", "big", N + 1, now, now);
const labels = Array.from({ length: 20 }, (_, i) => ({ id: randomUUID(), name: `l${i}` }));
const insLabel = raw.prepare(`INSERT INTO "Label" (id, repoId, name, nameLower, color, createdAt) VALUES (?, ?, ?, ?, ?, ?)`);
for (const l of labels) insLabel.run(l.id, repoId, l.name, l.name, "#abcdef", now);
const insPull =
  raw.prepare(`INSERT INTO "PullRequest" (id, repoId, number, title, body, state, isDraft, sourceRepoId, sourceBranch, targetBranch, headSha, baseSha, authorId, mergedAt, closedAt, createdAt, updatedAt)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
const insPL = raw.prepare(`INSERT INTO "PullRequestLabel" (pullRequestId, labelId, createdAt) VALUES (?, ?, ?)`);
const insComment = raw.prepare(
  `INSERT INTO "PullRequestComment" (id, pullRequestId, authorId, body, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)`,
);
const insRequest = raw.prepare(`INSERT OR IGNORE INTO "PullRequestReviewRequest" (pullRequestId, reviewerId, createdAt) VALUES (?, ?, ?)`);
const insReview = raw.prepare(
  `INSERT INTO "PullRequestReview" (id, pullRequestId, authorId, state, commitSha, createdAt) VALUES (?, ?, ?, ?, ?, ?)`,
);
let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const t0 = Date.now();
raw.transaction(() => {
  for (let n = 1; n <= N; n++) {
    const id = randomUUID();
    const r = rnd();
    const state = r < 0.3 ? "open" : r < 0.5 ? "closed" : "merged";
    insPull.run(
      id,
      repoId,
      n,
      `Pull request ${n}`,
      "body",
      state,
      rnd() < 0.1 ? 1 : 0,
      repoId,
      `topic-${n}`,
      "main",
      "a".repeat(40),
      "b".repeat(40),
      users[Math.floor(rnd() * users.length)].id,
      state === "merged" ? now : null,
      state === "closed" ? now : null,
      now,
      now,
    );
    const k = Math.floor(rnd() * 4);
    const chosen = new Set<number>();
    while (chosen.size < k) chosen.add(Math.floor(rnd() * 20));
    for (const c of chosen) insPL.run(id, labels[c].id, now);
    // conversation: a third have 1–5 comments, a tenth a review request, a tenth 1–2 reviews
    if (rnd() < 0.33)
      for (let k = Math.floor(rnd() * 5); k >= 0; k--)
        insComment.run(randomUUID(), id, users[Math.floor(rnd() * users.length)].id, "looks good", now, now);
    if (rnd() < 0.1) insRequest.run(id, users[Math.floor(rnd() * users.length)].id, now);
    if (rnd() < 0.1)
      for (let k = Math.floor(rnd() * 2); k >= 0; k--)
        insReview.run(
          randomUUID(),
          id,
          users[Math.floor(rnd() * users.length)].id,
          rnd() < 0.5 ? "approved" : "changes_requested",
          "a".repeat(40),
          new Date(Date.now() + k).toISOString(),
        );
  }
})();
migrateSqlite(file, path.resolve(import.meta.dirname, "../prisma/migrations")); // PRAGMA optimize, as at server start
console.log(`seeded ${N} pull requests in ${((Date.now() - t0) / 1000).toFixed(1)}s (${dir})`);

// ---- Prisma with query counting ----
const db = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${file}` }), log: [{ emit: "event", level: "query" }] });
let queries = 0;
db.$on("query", () => {
  queries++;
});
// the server's read path (server/db/read.ts): lists and the authorization query run on the driver
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

// ---- raw SQL baseline: page ids from the index, then joins and labels for those rows ----
const rawPage = (where: string) =>
  raw.prepare(`WITH page AS (SELECT p.id FROM "PullRequest" p WHERE p.repoId = ? ${where} ORDER BY p.number DESC LIMIT 20)
SELECT p.id, p.number, p.title, p.body, p.state, p.sourceBranch, p.targetBranch, p.headSha, p.baseSha, p.authorId, p.isDraft, p.createdAt, p.updatedAt, p.mergedAt, p.closedAt,
  au.username AS authorUsername, au.name AS authorName,
  (SELECT json_group_array(json_object('id', l.id, 'name', l.name, 'color', l.color)) FROM "PullRequestLabel" pl JOIN "Label" l ON l.id = pl.labelId WHERE pl.pullRequestId = p.id) AS labels,
  (SELECT count(*) FROM "PullRequestComment" c WHERE c.pullRequestId = p.id AND c.isPending = 0 AND c.deletedAt IS NULL) AS commentCount,
  -- the review decision: one pass over the pull request's reviews (latest non-comment review per reviewer), then the requests
  (SELECT CASE WHEN sum(d.state = 'changes_requested') > 0 THEN 'changes_requested' WHEN sum(d.state = 'approved') > 0 THEN 'approved' END
     FROM (SELECT rv.state, max(rv.createdAt) FROM "PullRequestReview" rv WHERE rv.pullRequestId = p.id AND rv.state <> 'commented' GROUP BY rv.authorId) d) AS decided,
  EXISTS (SELECT 1 FROM "PullRequestReviewRequest" rq WHERE rq.pullRequestId = p.id) AS requested
FROM page JOIN "PullRequest" p ON p.id = page.id LEFT JOIN "User" au ON au.id = p.authorId ORDER BY p.number DESC`);
const rawAll = rawPage("");
const rawOpen = rawPage(`AND p.state = 'open'`);
const rawAuthor = rawPage(`AND p.authorId = '${users[7].id}' AND p.state = 'merged'`);
// svc's own statement through the raw driver: separates the SQL's cost from Prisma's and tRPC's
const svcSql = pullsListSql("sqlite", repoId, { limit: 20, offset: 0 });
const svcStatement = raw.prepare(svcSql.text);
const shape = (rows: Record<string, unknown>[]) =>
  rows.map(({ decided, requested, ...r }) => ({
    ...r,
    labels: JSON.parse(r.labels as string),
    ...(requested === undefined ? {} : { reviewDecision: decided ?? (requested ? "review_required" : null) }),
  }));

const measure = (fn: () => unknown | Promise<unknown>) => measureRuns(fn, { runs: RUNS, statements: () => queries });

const repo = { id: repoId };
const sdb = db as never;
const cases: [string, () => Promise<unknown>, () => unknown][] = [
  ["pulls.list via tRPC (newest, page of 20)", () => caller.pulls.list({ repoId }), () => shape(rawAll.all(repoId) as never)],
  ["pulls.list service", () => listPullRequests(sdb, repo, {}), () => shape(rawAll.all(repoId) as never)],
  [
    "svc's list SQL on the raw driver",
    async () => shape(svcStatement.all(...svcSql.params) as never),
    () => shape(rawAll.all(repoId) as never),
  ],
  [
    "Prisma $queryRawUnsafe of svc's SQL",
    () => db.$queryRawUnsafe(svcSql.text, ...svcSql.params) as Promise<unknown[]>,
    () => shape(rawAll.all(repoId) as never),
  ],
  [
    "the repo tier's authorization query (authorizeRepo)",
    async () => [await authorizeRepo(sdb, actor, { repoId }, "read")],
    () => shape(rawAll.all(repoId) as never),
  ],
  ["pulls.list state=open via tRPC", () => caller.pulls.list({ repoId, state: "open" }), () => shape(rawOpen.all(repoId) as never)],
  [
    "pulls.list author+merged via tRPC",
    () => caller.pulls.list({ repoId, authorId: users[7].id, state: "merged" }),
    () => shape(rawAuthor.all(repoId) as never),
  ],
];
console.log(`| case (over ${N} pull requests) | rows | p50 ms | p95 ms | raw p50 ms | ratio | queries |`);
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const [name, fn, base] of cases) {
  const m = await measure(fn);
  const b = await measure(base as () => unknown[]);
  console.log(
    `| ${name} | ${m.rows} | ${m.p50.toFixed(2)} | ${m.p95.toFixed(2)} | ${b.p50.toFixed(2)} | ${(m.p50 / b.p50).toFixed(2)} | ${m.queries} |`,
  );
}
await db.$disconnect();
raw.close();
await bench.drop();
