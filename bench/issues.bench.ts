/**
 * Issue tracker benchmark (docs/performance.md "Issue queries"): `npx tsx bench/issues.bench.ts`
 * (not part of the tests). SQLite in a temp DATA_DIR: one repository with 100k issues, 20 labels
 * (0–3 per issue), 50 assignees; a second repository with 10k issues for the board. Planner
 * statistics come from the same `PRAGMA optimize` the server runs at start (server/db/migrate.ts).
 * Measures p50 (and p95) of lists, filtered lists, saved views and the board, each through the tRPC
 * caller (authorization included) and/or as the bare service call, against a raw SQL baseline
 * measured in the same run: the best indexed query a careful engineer would write for the same rows
 * and fields (prepared statements; filter, order and LIMIT on the indexes for ids first, then joins
 * and JSON aggregation for just that page). Prints the ratio to the baseline and the Prisma queries
 * per call (query event log). Goal: views and filtered lists ≤ 3× their baseline and under 10 ms
 * for a page over 100k issues.
 * Closed issues carry the activity row that records who closed them, so "closed … by" (a
 * correlated subquery in both the API's statement and the baseline) has real rows to find, and
 * every list case checks the API and the baseline return the same numbers and closers in order.
 * PostgreSQL: `BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres` runs the same
 * cases in a new database on that server (migrated, seeded, VACUUM ANALYZEd; dropped at the end), with
 * the server's pg adapter for Prisma and one pg client with named prepared statements for the
 * baseline.
 * Env: BENCH_ISSUES (100000), BENCH_BOARD (10000), BENCH_RUNS (30), BENCH_TRACE (print SQL),
 * BENCH_DATABASE_URL (PostgreSQL server), BENCH_ONLY (a regular expression: only the cases it matches), BENCH_KEEP (keep the
 * PostgreSQL database, e.g. for EXPLAIN ANALYZE; drop it yourself).
 */
import { observeReads, readerFor, registerReader } from "@/server/db/read";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PgPrismaClient } from "@/generated/prisma-pg/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { migrateSqlite } from "@/server/db/migrate";
import { measureRuns, openBenchDatabase } from "./support";
import { createCaller } from "@/server/api/root";
import type { Actor } from "@/server/auth/actor";
import { SCOPES } from "@/server/auth/scopes";
import { STATUS_KEYS } from "@/lib/issues/model";
import { listGroupedByStatus } from "@/server/services/issues/board";
import { boardColumn, boardColumns } from "@/server/services/issues/board-page";
import { listIssues } from "@/server/services/issues/list-issues";
import { getIssuesByView } from "@/server/services/issues/views";

const N = Number(process.env.BENCH_ISSUES ?? 100_000);
const BOARD = Number(process.env.BENCH_BOARD ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
/** A PostgreSQL server URL: the bench then runs there, in a new database dropped at the end. */
const PG_SERVER = process.env.BENCH_DATABASE_URL;
const isPg = !!PG_SERVER;

const bench = await openBenchDatabase("issues");
const { dir, file } = bench;
const pgDbName = bench.pgName;
const pgUrl = isPg ? bench.url : "";

// ---- the raw connection: better-sqlite3, or one pg client (named prepared statements) ----
let sqlite = isPg ? null : new Database(file);
sqlite?.pragma("journal_mode = WAL");
const pgc = isPg ? new pg.Client({ connectionString: pgUrl }) : null;
await pgc?.connect();
/** Placeholder n (1-based) of the dialect: SQLite ?NNN, PostgreSQL $n. */
const P = (n: number) => (isPg ? `$${n}` : `?${n}`);
type Rows = Record<string, unknown>[];
/** A prepared statement: SQLite's compiled once; PostgreSQL's parsed once per connection by name. */
function prepare(text: string): (...params: unknown[]) => Promise<Rows> {
  if (sqlite) {
    const st = sqlite.prepare(text);
    // numbered ?NNN parameters are bound by number in better-sqlite3
    return async (...params) => st.all(Object.fromEntries(params.map((v, i) => [i + 1, v]))) as Rows;
  }
  const name = `q${randomBytes(4).toString("hex")}`;
  return async (...params) => (await pgc!.query({ name, text, values: params })).rows;
}
/** Inserts rows in a transaction (PostgreSQL: 1000 rows a statement). */
async function insert(table: string, columns: string[], rows: unknown[][]): Promise<void> {
  const cols = columns.map((c) => `"${c}"`).join(", ");
  if (sqlite) {
    const st = sqlite.prepare(`INSERT INTO "${table}" (${cols}) VALUES (${columns.map(() => "?").join(", ")})`);
    sqlite.transaction(() => {
      for (const r of rows) st.run(...r);
    })();
    return;
  }
  await pgc!.query("BEGIN");
  for (let at = 0; at < rows.length; at += 1000) {
    const chunk = rows.slice(at, at + 1000);
    const values = chunk.map((_, i) => `(${columns.map((__, j) => `$${i * columns.length + j + 1}`).join(", ")})`).join(", ");
    await pgc!.query(`INSERT INTO "${table}" (${cols}) VALUES ${values}`, chunk.flat());
  }
  await pgc!.query("COMMIT");
}

// ---- seed with raw SQL (fast) ----
const now = new Date().toISOString();
const bool = (b: boolean) => (isPg ? b : b ? 1 : 0);
const users = Array.from({ length: 51 }, (_, i) => ({ id: randomUUID(), username: `user${i}` }));
await insert(
  "User",
  ["id", "username", "usernameLower", "name", "createdAt", "updatedAt"],
  users.map((u) => [u.id, u.username, u.username, `User ${u.username}`, now, now]),
);
const owner = users[0];
const assignees = users.slice(1);

async function seedRepo(name: string, count: number) {
  const repoId = randomUUID();
  await insert(
    "Repository",
    ["id", "ownerId", "name", "nameLower", "isPrivate", "nextIssueNumber", "createdAt", "updatedAt"],
    [[repoId, owner.id, name, name, bool(true), count + 1, now, now]],
  );
  const labels = Array.from({ length: 20 }, (_, i) => ({ id: randomUUID(), name: `l${i}` }));
  await insert(
    "Label",
    ["id", "repoId", "name", "nameLower", "color", "createdAt"],
    labels.map((l) => [l.id, repoId, l.name, l.name, "#abcdef", now]),
  );
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const ids: string[] = [];
  const issueRows: unknown[][] = [];
  const labelRows: unknown[][] = [];
  const activityRows: unknown[][] = [];
  for (let n = 1; n <= count; n++) {
    const id = randomUUID();
    ids.push(id);
    const status = STATUS_KEYS[Math.floor(rnd() * STATUS_KEYS.length)];
    const closed = status === "done" || status === "canceled";
    const due = rnd() < 0.3 ? new Date(Date.UTC(2026, 0, 1 + Math.floor(rnd() * 700))).toISOString().slice(0, 10) : null;
    const parent = n > 10 && rnd() < 0.1 ? ids[Math.floor(rnd() * (n - 1))] : null;
    issueRows.push([
      id,
      repoId,
      n,
      `Issue ${n} title`,
      "body",
      closed ? "closed" : "open",
      status,
      Math.floor(rnd() * 5),
      due,
      rnd() < 0.5 ? Math.floor(rnd() * 8) : null,
      parent,
      users[Math.floor(rnd() * users.length)].id,
      rnd() < 0.7 ? assignees[Math.floor(rnd() * 50)].id : null,
      n * 1024,
      now,
      now,
      closed ? now : null,
    ]);
    // who closed it ("closed … by"): the state change status.ts records
    if (closed) activityRows.push([repoId, id, "status_changed", "state", "open", "closed", assignees[n % 50].id, now]);
    const k = Math.floor(rnd() * 4);
    const chosen = new Set<number>();
    while (chosen.size < k) chosen.add(Math.floor(rnd() * 20));
    for (const c of chosen) labelRows.push([id, labels[c].id, now]);
  }
  await insert(
    "Issue",
    [
      "id",
      "repoId",
      "number",
      "title",
      "body",
      "state",
      "status",
      "priority",
      "dueDate",
      "estimate",
      "parentId",
      "authorId",
      "assigneeId",
      "boardPosition",
      "createdAt",
      "updatedAt",
      "closedAt",
    ],
    issueRows,
  );
  await insert("IssueLabel", ["issueId", "labelId", "createdAt"], labelRows);
  await insert("IssueActivity", ["repoId", "issueId", "action", "field", "oldValue", "newValue", "actorId", "createdAt"], activityRows);
  return { repoId, labels };
}

const t0 = Date.now();
const big = await seedRepo("big", N);
const board = await seedRepo("board", BOARD);
// what autovacuum does after a bulk load, now rather than in a minute: statistics, and the
// visibility map, without which every index-only probe of IssueLabel also reads the table
if (isPg) await pgc!.query("VACUUM ANALYZE");
else migrateSqlite(file, path.resolve(import.meta.dirname, "../prisma/migrations")); // nothing to apply: its PRAGMA optimize gathers statistics, as at server start
// a SQLite connection reads the statistics when it opens: reopen the baseline's, so it plans with
// the same statistics as Prisma's (opened below)
if (sqlite) {
  sqlite.close();
  sqlite = new Database(file);
}
console.log(
  `${isPg ? "PostgreSQL" : "SQLite"}: seeded ${N} + ${BOARD} issues in ${((Date.now() - t0) / 1000).toFixed(1)}s (${isPg ? pgDbName : dir})`,
);

// ---- Prisma with query counting (the server's adapters) ----
const log = [{ emit: "event" as const, level: "query" as const }];
const db = isPg
  ? (new PgPrismaClient({ adapter: new PrismaPg({ connectionString: pgUrl, max: 10 }), log }) as unknown as PrismaClient)
  : new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${file}` }), log });
let queries = 0;
(db as unknown as { $on: (e: "query", f: (e: { duration: number; query: string }) => void) => void }).$on("query", (e) => {
  queries++;
  if (process.env.BENCH_TRACE) console.log(e.duration, e.query.slice(0, Number(process.env.BENCH_TRACE)));
});
// the server's read path (server/db/read.ts): lists and the authorization query run on the driver
const reader = readerFor(isPg ? pgUrl : `file:${file}`);
registerReader(db as never, reader);
observeReads((text) => {
  queries++;
  if (process.env.BENCH_TRACE) console.log("read", text.slice(0, Number(process.env.BENCH_TRACE)));
});
const actor: Actor = {
  user: { id: owner.id, username: owner.username, name: null, email: null, isAdmin: false },
  via: "session",
  scopes: SCOPES,
};
const caller = createCaller({ db: db as never, headers: new Headers(), actor, publicUrl: "http://localhost", requestId: "bench" });

const makeView = async (filters: object, sort: object | null) => {
  const id = randomUUID();
  await insert(
    "IssueView",
    ["id", "repoId", "name", "filters", "sort", "createdAt", "updatedAt"],
    [[id, big.repoId, "bench", JSON.stringify(filters), sort ? JSON.stringify(sort) : null, now, now]],
  );
  return id;
};
const viewId = await makeView(
  { status: ["todo", "in_progress"], labels: ["l3", "l7"], priority: ["urgent", "high"] },
  { field: "priority", direction: "asc" },
);
const recentView = await makeView({ status: ["in_review"], assignee: [assignees[7].id] }, { field: "updatedAt", direction: "desc" });
const overdueView = await makeView({ dueDate: "overdue", labels: ["l5"] }, { field: "dueDate", direction: "asc" });

// ---- raw SQL baselines (same rows, same fields) ----
// `page` selects the page's ids from the indexes alone; the joins and subqueries run for those rows only
const labelJson = isPg
  ? `COALESCE(json_agg(json_build_object('id', l."id", 'name', l."name", 'color', l."color", 'description', l."description")), '[]'::json)`
  : `json_group_array(json_object('id', l."id", 'name', l."name", 'color', l."color", 'description', l."description"))`;
// SQLite: the parentId index by name, as the API does (server/services/issues/query.ts: NULL-heavy statistics)
const children = isPg ? "" : ` INDEXED BY "Issue_parentId_idx"`;
const full = (page: string, order: string) => `WITH page AS (${page})
SELECT i."id", i."number", i."title", i."body", i."state", i."status", i."priority", i."dueDate", i."estimate", i."projectId", i."cycleId", i."authorId", i."assigneeId", i."createdAt", i."updatedAt", i."closedAt",
  au."username" AS "authorUsername", au."name" AS "authorName", asg."username" AS "assigneeUsername", asg."name" AS "assigneeName", p."number" AS "parentNumber",
  (SELECT ${labelJson} FROM "IssueLabel" il JOIN "Label" l ON l."id" = il."labelId" WHERE il."issueId" = i."id") AS "labels",
  (SELECT count(*) FROM "Issue" c${children} WHERE c."parentId" = i."id") AS "subIssueCount",
  (SELECT count(*) FROM "Issue" c${children} WHERE c."parentId" = i."id" AND c."state" = 'closed') AS "subIssueClosed",
  cb."id" AS "closedById", cb."username" AS "closedByUsername", cb."name" AS "closedByName"
FROM page JOIN "Issue" i ON i."id" = page."id" LEFT JOIN "User" au ON au."id" = i."authorId" LEFT JOIN "User" asg ON asg."id" = i."assigneeId" LEFT JOIN "Issue" p ON p."id" = i."parentId"
LEFT JOIN "User" cb ON i."state" = 'closed' AND cb."id" = (SELECT ca."actorId" FROM "IssueActivity" ca WHERE ca."issueId" = i."id" AND ca."action" = 'status_changed' AND ca."field" = 'state' AND ca."newValue" = 'closed' ORDER BY ca."id" DESC LIMIT 1)
ORDER BY ${order}`;
// the label ids once (not correlated with i: a LIST SUBQUERY evaluated once, with a Bloom filter), then one primary-key probe per candidate
const hasLabel = (names: string[]) =>
  `EXISTS (SELECT 1 FROM "IssueLabel" fil WHERE fil."issueId" = i."id" AND fil."labelId" IN (SELECT fl."id" FROM "Label" fl WHERE fl."repoId" = '${big.repoId}' AND fl."nameLower" IN (${names.map((n) => `'${n}'`).join(", ")})))`;
const pageOf = (where: string, order: string, limit: number) =>
  full(`SELECT i."id" FROM "Issue" i WHERE i."repoId" = ${P(1)} AND ${where} ORDER BY ${order} LIMIT ${limit}`, order);
const today = new Date().toISOString().slice(0, 10);
const rawList = prepare(pageOf("1 = 1", `i."number" DESC`, 20));
const rawListOpenLabel = prepare(pageOf(`i."state" = 'open' AND ${hasLabel(["l3"])}`, `i."number" DESC`, 20));
const rawListStatus = prepare(pageOf(`i."status" = 'in_review'`, `i."number" DESC`, 20));
const rawListAssignee = prepare(pageOf(`i."state" = 'open' AND i."assigneeId" = '${assignees[3].id}'`, `i."number" DESC`, 20));
const rawView = prepare(
  pageOf(
    `i."status" IN ('todo', 'in_progress') AND i."priority" IN (0, 1) AND ${hasLabel(["l3", "l7"])}`,
    `i."priority" ASC, i."number" DESC`,
    50,
  ),
);
const rawRecentView = prepare(
  pageOf(`i."status" = 'in_review' AND i."assigneeId" = '${assignees[7].id}'`, `i."updatedAt" DESC, i."number" DESC`, 50),
);
const rawOverdueView = prepare(
  pageOf(`i."state" = 'open' AND i."dueDate" < '${today}' AND ${hasLabel(["l5"])}`, `i."dueDate" ASC NULLS LAST, i."number" DESC`, 50),
);
const rawBoard = prepare(full(`SELECT "id" FROM "Issue" WHERE "repoId" = ${P(1)}`, `i."status", i."boardPosition", i."number"`));
// the paged board: exact counts and estimate sums in one GROUP BY, 51 cards of each column from its index range
const rawBoardTotals = prepare(
  `SELECT "status", count(*) AS n, sum("estimate") AS est FROM "Issue" WHERE "repoId" = ${P(1)} GROUP BY "status"`,
);
const rawBoardPage = prepare(
  full(
    STATUS_KEYS.map(
      (s) =>
        `SELECT "id" FROM (SELECT "id" FROM "Issue" WHERE "repoId" = ${P(1)} AND "status" = '${s}' ORDER BY "boardPosition", "number" LIMIT 51) c_${s}`,
    ).join(" UNION ALL "),
    `i."status", i."boardPosition", i."number"`,
  ),
);
const rawColumnNext = prepare(
  full(
    `SELECT "id" FROM "Issue" WHERE "repoId" = ${P(1)} AND "status" = 'todo' AND ("boardPosition" > ${P(2)} OR ("boardPosition" = ${P(2)} AND "number" > ${P(3)})) ORDER BY "boardPosition", "number" LIMIT 51`,
    `i."boardPosition", i."number"`,
  ),
);
const rawColumnTotals = prepare(`SELECT count(*) AS n, sum("estimate") AS est FROM "Issue" WHERE "repoId" = ${P(1)} AND "status" = 'todo'`);
const shapeRaw = (rows: Rows): Rows => rows.map((r) => ({ ...r, labels: typeof r.labels === "string" ? JSON.parse(r.labels) : r.labels }));

/** Issues in a result: a list, {status: list} (listGroupedByStatus), {columns} (board) or a column. */
function countRows(out: unknown): number {
  if (Array.isArray(out)) return out.length;
  const o = out as { columns?: { issues: unknown[] }[]; issues?: unknown[] };
  if (o.columns) return o.columns.reduce((n, c) => n + c.issues.length, 0);
  if (o.issues) return o.issues.length;
  return Object.values(out as Record<string, unknown[]>).reduce((n, v) => n + v.length, 0);
}

/** The page's issue numbers and who closed each, in order (lists only): the API and the baseline must agree. */
function keysOf(out: unknown): string {
  if (!Array.isArray(out)) return "";
  return out
    .map((r: Record<string, unknown>) => `${Number(r.number)}:${(r.closedBy as { id: string } | null)?.id ?? r.closedById ?? "-"}`)
    .join(",");
}

const measure = (fn: () => unknown | Promise<unknown>) =>
  measureRuns(fn, { runs: RUNS, warmup: 3, statements: () => queries, rows: countRows });

const bigRepo = { id: big.repoId, ownerId: owner.id, isPrivate: true, permission: "admin" as const };
const boardRepo = { ...bigRepo, id: board.repoId };
const sdb = db as never;
const firstTodo = await boardColumn(sdb, boardRepo, { status: "todo" });
const cursorRow = (
  await prepare(`SELECT "boardPosition" AS pos, "number" AS num FROM "Issue" WHERE "repoId" = ${P(1)} AND "number" = ${P(2)}`)(
    board.repoId,
    firstTodo.issues.at(-1)!.number,
  )
)[0] as { pos: number; num: number };
const rawBoardFirst = async () => {
  const totals = await rawBoardTotals(board.repoId);
  const cards = shapeRaw(await rawBoardPage(board.repoId));
  const by = new Map<string, unknown[]>();
  for (const c of cards) by.set(c.status as string, [...(by.get(c.status as string) ?? []), c]);
  return { totals, columns: STATUS_KEYS.map((s) => ({ issues: (by.get(s) ?? []).slice(0, 50) })) };
};
const rawColumn = async () => ({
  totals: (await rawColumnTotals(board.repoId))[0],
  issues: shapeRaw(await rawColumnNext(board.repoId, cursorRow.pos, cursorRow.num)).slice(0, 50),
});
type Case = [string, () => Promise<unknown>, () => Promise<unknown>];
const cases: Case[] = [
  ["issues.list via tRPC", () => caller.issues.list({ repoId: big.repoId }), async () => shapeRaw(await rawList(big.repoId))],
  ["issues.list service", () => listIssues(sdb, bigRepo, {}), async () => shapeRaw(await rawList(big.repoId))],
  [
    "list open+label via tRPC",
    () => caller.issues.list({ repoId: big.repoId, state: "open", labels: ["l3"] }),
    async () => shapeRaw(await rawListOpenLabel(big.repoId)),
  ],
  [
    "list status via tRPC",
    () => caller.issues.list({ repoId: big.repoId, status: "in_review" }),
    async () => shapeRaw(await rawListStatus(big.repoId)),
  ],
  [
    "list open+assignee via tRPC",
    () => caller.issues.list({ repoId: big.repoId, state: "open", assignee: assignees[3].id }),
    async () => shapeRaw(await rawListAssignee(big.repoId)),
  ],
  ["getIssuesByView via tRPC", () => caller.issues.getIssuesByView({ viewId }), async () => shapeRaw(await rawView(big.repoId))],
  ["getIssuesByView service", () => getIssuesByView(sdb, bigRepo, viewId), async () => shapeRaw(await rawView(big.repoId))],
  [
    "view by updatedAt via tRPC",
    () => caller.issues.getIssuesByView({ viewId: recentView }),
    async () => shapeRaw(await rawRecentView(big.repoId)),
  ],
  [
    "view overdue+label via tRPC",
    () => caller.issues.getIssuesByView({ viewId: overdueView }),
    async () => shapeRaw(await rawOverdueView(big.repoId)),
  ],
  [
    "listGroupedByStatus via tRPC",
    () => caller.issues.listGroupedByStatus({ repoId: board.repoId }),
    async () => shapeRaw(await rawBoard(board.repoId)),
  ],
  ["listGroupedByStatus service", () => listGroupedByStatus(sdb, boardRepo, {}), async () => shapeRaw(await rawBoard(board.repoId))],
  ["board (7×50) via tRPC", () => caller.issues.board({ repoId: board.repoId }), rawBoardFirst],
  ["board (7×50) service", () => boardColumns(sdb, boardRepo, {}), rawBoardFirst],
  [
    "boardColumn next via tRPC",
    () => caller.issues.boardColumn({ repoId: board.repoId, status: "todo", cursor: firstTodo.nextCursor! }),
    rawColumn,
  ],
];

console.log(
  `\n${"case".padEnd(30)} ${"rows".padStart(6)} ${"p50 ms".padStart(9)} ${"p95 ms".padStart(9)} ${"raw p50".padStart(9)} ${"ratio".padStart(6)} ${"queries".padStart(8)}`,
);
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
for (const [name, api, sql] of cases.filter(([name]) => !only || only.test(name))) {
  const a = await measure(api);
  const r = await measure(sql);
  if (a.rows !== r.rows) console.warn(`  ! row count differs: api ${a.rows}, raw ${r.rows}`);
  const [ka, kr] = [keysOf(await api()), keysOf(await sql())];
  if (ka && kr && ka !== kr) console.warn(`  ! rows differ (number:closedBy in order): api ${ka.slice(0, 120)}…, raw ${kr.slice(0, 120)}…`);
  console.log(
    `${name.padEnd(30)} ${String(a.rows).padStart(6)} ${a.p50.toFixed(2).padStart(9)} ${a.p95.toFixed(2).padStart(9)} ${r.p50.toFixed(2).padStart(9)} ${(a.p50 / r.p50).toFixed(2).padStart(6)} ${String(a.queries).padStart(8)}`,
  );
}
// query count is constant: the same calls on other page sizes
const q = async (fn: () => Promise<unknown>) => {
  const b = queries;
  await fn();
  return queries - b;
};
console.log(
  `\nqueries per issues.list at limit 1 / 20 / 100: ${await q(() => caller.issues.list({ repoId: big.repoId, limit: 1 }))} / ${await q(() => caller.issues.list({ repoId: big.repoId, limit: 20 }))} / ${await q(() => caller.issues.list({ repoId: big.repoId, limit: 100 }))}`,
);

await reader.close();
await db.$disconnect();
sqlite?.close();
await pgc?.end();
await bench.drop();
