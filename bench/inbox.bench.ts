/**
 * Pull request inbox benchmark (docs/performance.md "Inbox"): `npx tsx bench/inbox.bench.ts` (not
 * part of the tests). SQLite in a temp DATA_DIR, or PostgreSQL with BENCH_DATABASE_URL (a server
 * URL: a new database is made and dropped). One user ("me") with 10,000 pull requests across 100
 * repositories (50 private where me collaborates, 50 public): a third authored by me (open 40 %, 1
 * in 10 a draft, half with an approval, a quarter with a pending request), a third with a review
 * request for me, a third commented on or reviewed by me; plus as many pull requests of other users
 * that do not involve me, and 20 private repositories me cannot read holding more requests for me.
 * Measures p50/p95 of each inbox procedure through the tRPC caller (the actor resolved, as in a
 * server component) against the physical limit measured in the same run: the same statement with
 * the same values on the raw driver (better-sqlite3 prepared statement / a pg client with a named
 * prepared statement), rows read and nothing else. Prints the ratio (goal ≤ 3×) and the statements
 * per call. Env: BENCH_PULLS (10000), BENCH_RUNS (50).
 */
import path from "node:path";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PgPrismaClient } from "@/generated/prisma-pg/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { migrateSqlite } from "@/server/db/migrate";
import { observeReads, readerFor, registerReader } from "@/server/db/read";
import { createCaller } from "@/server/api/root";
import type { Actor } from "@/server/auth/actor";
import { SCOPES } from "@/server/auth/scopes";
import { measureRuns, openBenchDatabase } from "./support";
import { inboxAwaitingCountSql, inboxListSql, inboxSummarySql, type InboxList } from "@/server/services/pulls/inbox";

const N = Number(process.env.BENCH_PULLS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const PG = process.env.BENCH_DATABASE_URL;
const dialect = PG ? "postgresql" : "sqlite";

const bench = await openBenchDatabase("inbox");
const { dir, url } = bench;

// ---- raw driver: seeding and the baseline ----
let sqlite = PG ? null : new Database(url.slice("file:".length));
const pgClient = PG
  ? new pg.Client({
      connectionString: url,
      types: {
        getTypeParser: (oid: number, f?: "text" | "binary") => (oid === 1114 ? (s: string) => s : pg.types.getTypeParser(oid, f)),
      } as pg.CustomTypesConfig,
    })
  : null;
await pgClient?.connect();
sqlite?.pragma("journal_mode = WAL");
let stmtNo = 0;
const pgNames = new Map<string, string>();
async function rawAll(text: string, params: unknown[]): Promise<unknown[]> {
  if (sqlite)
    return sqlite.prepare(text).all(...params.map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v instanceof Date ? v.toISOString() : v)));
  let name = pgNames.get(text);
  if (!name) pgNames.set(text, (name = `bench_${++stmtNo}`));
  return (await pgClient!.query({ name, text, values: params })).rows;
}
/** Batched inserts of `rows` into `table` (both dialects). */
async function insert(table: string, cols: string[], rows: unknown[][]): Promise<void> {
  const per = Math.floor(900 / cols.length);
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    let n = 0;
    const values = chunk.map(() => `(${cols.map(() => (PG ? `$${++n}` : "?")).join(", ")})`).join(", ");
    const text = `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES ${values}`;
    const params = chunk
      .flat()
      .map((v) => (sqlite && typeof v === "boolean" ? (v ? 1 : 0) : sqlite && v instanceof Date ? v.toISOString() : v));
    if (sqlite) sqlite.prepare(text).run(...params);
    else await pgClient!.query(text, params);
  }
}

const t0 = Date.now();
const now = Date.now();
const users = Array.from({ length: 20 }, (_, i) => ({ id: randomUUID(), username: `user${i}` }));
const me = users[0];
await insert(
  "User",
  ["id", "username", "usernameLower", "name", "createdAt", "updatedAt"],
  users.map((u) => [u.id, u.username, u.username, `User ${u.username}`, new Date(now), new Date(now)]),
);
const repos = Array.from({ length: 120 }, (_, i) => ({
  id: randomUUID(),
  ownerId: users[1 + (i % 19)].id,
  name: `repo${i}`,
  isPrivate: i % 2 === 0 || i >= 100,
}));
await insert(
  "Repository",
  ["id", "ownerId", "name", "nameLower", "isPrivate", "nextIssueNumber", "createdAt", "updatedAt"],
  repos.map((r) => [r.id, r.ownerId, r.name, r.name, r.isPrivate, 100_000, new Date(now), new Date(now)]),
);
await insert(
  "Collaborator",
  ["id", "repoId", "userId", "role", "createdAt"],
  repos
    .slice(0, 100)
    .filter((r) => r.isPrivate)
    .map((r) => [randomUUID(), r.id, me.id, "write", new Date(now)]),
);
const labels = repos.map((r) => ({ id: randomUUID(), repoId: r.id }));
await insert(
  "Label",
  ["id", "repoId", "name", "nameLower", "color", "createdAt"],
  labels.map((l) => [l.id, l.repoId, "bug", "bug", "#d73a4a", new Date(now)]),
);

let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pulls: unknown[][] = [],
  requests: unknown[][] = [],
  reviews: unknown[][] = [],
  comments: unknown[][] = [],
  pullLabels: unknown[][] = [];
const numbers = new Map<string, number>();
function addPull(repo: (typeof repos)[number], authorId: string): { id: string; state: string } {
  const id = randomUUID();
  const number = (numbers.get(repo.id) ?? 0) + 1;
  numbers.set(repo.id, number);
  const r = rnd();
  const state = r < 0.4 ? "open" : r < 0.6 ? "closed" : "merged";
  const at = new Date(now - Math.floor(rnd() * 365 * 86_400_000));
  pulls.push([
    id,
    repo.id,
    number,
    `Pull request ${number}`,
    "body",
    state,
    rnd() < 0.1,
    repo.id,
    `topic-${number}`,
    "main",
    "a".repeat(40),
    "b".repeat(40),
    authorId,
    state === "merged" ? at : null,
    state === "closed" ? at : null,
    at,
    at,
  ]);
  if (rnd() < 0.3) pullLabels.push([id, labels[repos.indexOf(repo)].id, at]);
  return { id, state };
}
const other = () => users[1 + Math.floor(rnd() * 19)].id;
for (let i = 0; i < N; i++) {
  const repo = repos[i % 100];
  const kind = i % 3;
  if (kind === 0) {
    const p = addPull(repo, me.id);
    if (rnd() < 0.5) reviews.push([randomUUID(), p.id, other(), "approved", "a".repeat(40), new Date(now)]);
    if (rnd() < 0.25) requests.push([p.id, other(), new Date(now)]);
  } else if (kind === 1) {
    requests.push([addPull(repo, other()).id, me.id, new Date(now)]);
  } else {
    const p = addPull(repo, other());
    if (rnd() < 0.5) comments.push([randomUUID(), p.id, me.id, "looks good", false, new Date(now), new Date(now)]);
    else reviews.push([randomUUID(), p.id, me.id, "commented", "a".repeat(40), new Date(now)]);
  }
  addPull(repo, other()); // noise: not involving me
}
for (let i = 0; i < 2000; i++) requests.push([addPull(repos[100 + (i % 20)], other()).id, me.id, new Date(now)]); // unreadable
await insert(
  "PullRequest",
  [
    "id",
    "repoId",
    "number",
    "title",
    "body",
    "state",
    "isDraft",
    "sourceRepoId",
    "sourceBranch",
    "targetBranch",
    "headSha",
    "baseSha",
    "authorId",
    "mergedAt",
    "closedAt",
    "createdAt",
    "updatedAt",
  ],
  pulls,
);
await insert("PullRequestLabel", ["pullRequestId", "labelId", "createdAt"], pullLabels);
await insert("PullRequestReviewRequest", ["pullRequestId", "reviewerId", "createdAt"], requests);
await insert("PullRequestReview", ["id", "pullRequestId", "authorId", "state", "commitSha", "createdAt"], reviews);
await insert("PullRequestComment", ["id", "pullRequestId", "authorId", "body", "isPending", "createdAt", "updatedAt"], comments);
if (sqlite) {
  migrateSqlite(url.slice("file:".length), path.resolve(import.meta.dirname, "../prisma/migrations")); // PRAGMA optimize, as at server start
  // the baseline reads on a connection opened after the statistics exist, as the server's reader is
  sqlite.close();
  sqlite = new Database(url.slice("file:".length), { readonly: true });
} else await pgClient!.query("ANALYZE");
console.log(
  `${dialect}: seeded ${pulls.length} pull requests (${N} involving me) in 120 repositories in ${((Date.now() - t0) / 1000).toFixed(1)}s`,
);

// ---- svc through tRPC, counting statements ----
const log = [{ emit: "event" as const, level: "query" as const }];
const db = (PG
  ? new PgPrismaClient({ adapter: new PrismaPg({ connectionString: url }), log })
  : new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }), log })) as unknown as PrismaClient;
let queries = 0;
(db as unknown as { $on: (e: "query", f: () => void) => void }).$on("query", () => {
  queries++;
});
registerReader(db as never, readerFor(url));
observeReads(() => {
  queries++;
});
const actor: Actor = {
  user: { id: me.id, username: me.username, name: null, email: null, isAdmin: false },
  via: "session",
  scopes: SCOPES,
};
const caller = createCaller({ db: db as never, headers: new Headers(), actor, publicUrl: "http://localhost", requestId: "bench" });

const measure = (fn: () => Promise<unknown>) => measureRuns(fn, { runs: RUNS, statements: () => queries });

const user = { id: me.id, isAdmin: false };
const listCase = (
  name: string,
  list: InboxList,
  input: { limit?: number; offset?: number; state?: "open" | "closed" | "all"; repoId?: string },
  call: () => Promise<unknown>,
) => {
  const { text, params } = inboxListSql(dialect, list, user, { limit: 20, offset: 0, state: "open", ...input });
  return [name, call, () => rawAll(text, params)] as const;
};
const summary = inboxSummarySql(dialect, user, {});
const awaitingCount = inboxAwaitingCountSql(dialect, user);
const oneRepo = repos[1].id;
const cases = [
  listCase("inboxAwaitingReview (page of 20)", "awaitingReview", {}, () => caller.pulls.inboxAwaitingReview({})),
  listCase("inboxAwaitingReview offset 1000", "awaitingReview", { offset: 1000 }, () => caller.pulls.inboxAwaitingReview({ offset: 1000 })),
  listCase("inboxMyPrs (page of 20)", "myPrs", {}, () => caller.pulls.inboxMyPrs({})),
  listCase("inboxParticipated open", "participated", {}, () => caller.pulls.inboxParticipated({})),
  listCase("inboxParticipated all, limit 100", "participated", { state: "all", limit: 100 }, () =>
    caller.pulls.inboxParticipated({ state: "all", limit: 100 }),
  ),
  listCase("inboxMyPrs one repository", "myPrs", { repoId: oneRepo }, () => caller.pulls.inboxMyPrs({ repoId: oneRepo })),
  ["inboxSummary (three counts)", () => caller.pulls.inboxSummary({}), () => rawAll(summary.text, summary.params)] as const,
  [
    "inboxAwaitingCount (top navigation badge)",
    () => caller.pulls.inboxAwaitingCount(),
    () => rawAll(awaitingCount.text, awaitingCount.params),
  ] as const,
];
console.log(
  `| case (${dialect}, ${N} pull requests involving the caller) | rows | p50 ms | p95 ms | raw SQL p50 ms | ratio | statements |`,
);
console.log("|---|---:|---:|---:|---:|---:|---:|");
const explain = (text: string, params: unknown[]) =>
  sqlite
    ? rawAll(`EXPLAIN QUERY PLAN ${text}`, params).then((r) => (r as { detail: string }[]).map((x) => x.detail).join("\n"))
    : rawAll(`EXPLAIN ANALYZE ${text}`, params).then((r) => (r as Record<string, string>[]).map((x) => Object.values(x)[0]).join("\n"));
if (process.env.BENCH_EXPLAIN) {
  for (const list of ["awaitingReview", "myPrs", "participated"] as const) {
    const { text, params } = inboxListSql(dialect, list, user, { limit: 20, offset: 0, state: "open" });
    console.log(`--- ${list}\n${await explain(text, params)}`);
  }
  console.log(`--- summary\n${await explain(summary.text, summary.params)}`);
}
for (const [name, fn, base] of cases) {
  const m = await measure(fn);
  const b = await measure(base);
  console.log(
    `| ${name} | ${m.rows} | ${m.p50.toFixed(2)} | ${m.p95.toFixed(2)} | ${b.p50.toFixed(2)} | ${(m.p50 / b.p50).toFixed(2)} | ${m.queries} |`,
  );
}
await db.$disconnect();
sqlite?.close();
await pgClient?.end();
await bench.drop();
process.exit(0);
