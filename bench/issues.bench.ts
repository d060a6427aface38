/**
 * Issue tracker benchmark (issues #3 and #7): `npx tsx bench/issues.bench.ts` (not part of the
 * tests). SQLite in a temp DATA_DIR: one repository with 100k issues, 20 labels (0–3 per issue),
 * 50 assignees; a second repository with 10k issues for the board. Planner statistics come from
 * the same `PRAGMA optimize` the server runs at start (server/db/migrate.ts). Measures p50 (and
 * p95) of lists, filtered lists, saved views and the board, each through the tRPC caller
 * (authorization included) and/or as the bare service call, against a raw SQL baseline measured
 * in the same run: the best indexed query a careful engineer would write for the same rows and
 * fields (better-sqlite3 prepared statements; filter, order and LIMIT on the indexes for ids
 * first, then joins and JSON aggregation for just that page). Prints the ratio to the baseline
 * and the Prisma queries per call (query event log). Goal (issue #7): views and filtered lists
 * ≤ 3× their baseline and under 10 ms for a page over 100k issues.
 * Env: BENCH_ISSUES (100000), BENCH_BOARD (10000), BENCH_RUNS (30), BENCH_TRACE (print SQL).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { migrateSqlite } from "@/server/db/migrate";
import { createCaller } from "@/server/api/root";
import type { Actor } from "@/server/auth/actor";
import { SCOPES } from "@/server/auth/scopes";
import { STATUS_KEYS } from "@/server/services/issues/model";
import { boardColumn, boardColumns, getIssuesByView, listGroupedByStatus, listIssues } from "@/server/services/issues";

const N = Number(process.env.BENCH_ISSUES ?? 100_000);
const BOARD = Number(process.env.BENCH_BOARD ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const dir = mkdtempSync(path.join(os.tmpdir(), "svc-bench-"));
const file = path.join(dir, "svc.db");
process.env.DATA_DIR = dir;
process.env.DATABASE_URL = `file:${file}`;
process.env.NEXTAUTH_SECRET = "bench";
migrateSqlite(file, path.resolve(import.meta.dirname, "../prisma/migrations"));

// ---- seed with raw SQL (fast) ----
const raw = new Database(file);
raw.pragma("journal_mode = WAL");
const now = new Date().toISOString();
const users = Array.from({ length: 51 }, (_, i) => ({ id: randomUUID(), username: `user${i}` }));
const insUser = raw.prepare(`INSERT INTO "User" (id, username, usernameLower, name, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)`);
for (const u of users) insUser.run(u.id, u.username, u.username, `User ${u.username}`, now, now);
const owner = users[0];
const assignees = users.slice(1);

function seedRepo(name: string, count: number) {
  const repoId = randomUUID();
  raw.prepare(`INSERT INTO "Repository" (id, ownerId, name, nameLower, isPrivate, nextIssueNumber, createdAt, updatedAt) VALUES (?, ?, ?, ?, 1, ?, ?, ?)`).run(repoId, owner.id, name, name, count + 1, now, now);
  const labels = Array.from({ length: 20 }, (_, i) => ({ id: randomUUID(), name: `l${i}` }));
  const insLabel = raw.prepare(`INSERT INTO "Label" (id, repoId, name, nameLower, color, createdAt) VALUES (?, ?, ?, ?, ?, ?)`);
  for (const l of labels) insLabel.run(l.id, repoId, l.name, l.name, "#abcdef", now);
  const insIssue = raw.prepare(`INSERT INTO "Issue" (id, repoId, number, title, body, state, status, priority, dueDate, estimate, parentId, authorId, assigneeId, boardPosition, createdAt, updatedAt, closedAt)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insIL = raw.prepare(`INSERT INTO "IssueLabel" (issueId, labelId, createdAt) VALUES (?, ?, ?)`);
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const ids: string[] = [];
  raw.transaction(() => {
    for (let n = 1; n <= count; n++) {
      const id = randomUUID();
      ids.push(id);
      const status = STATUS_KEYS[Math.floor(rnd() * STATUS_KEYS.length)];
      const closed = status === "done" || status === "canceled";
      const due = rnd() < 0.3 ? new Date(Date.UTC(2026, 0, 1 + Math.floor(rnd() * 700))).toISOString().slice(0, 10) : null;
      const parent = n > 10 && rnd() < 0.1 ? ids[Math.floor(rnd() * (n - 1))] : null;
      insIssue.run(id, repoId, n, `Issue ${n} title`, "body", closed ? "closed" : "open", status, Math.floor(rnd() * 5), due, rnd() < 0.5 ? Math.floor(rnd() * 8) : null,
        parent, users[Math.floor(rnd() * users.length)].id, rnd() < 0.7 ? assignees[Math.floor(rnd() * 50)].id : null, n * 1024, now, now, closed ? now : null);
      const k = Math.floor(rnd() * 4);
      const chosen = new Set<number>();
      while (chosen.size < k) chosen.add(Math.floor(rnd() * 20));
      for (const c of chosen) insIL.run(id, labels[c].id, now);
    }
  })();
  return { repoId, labels };
}

const t0 = Date.now();
const big = seedRepo("big", N);
const board = seedRepo("board", BOARD);
migrateSqlite(file, path.resolve(import.meta.dirname, "../prisma/migrations")); // nothing to apply: its PRAGMA optimize gathers statistics, as at server start
console.log(`seeded ${N} + ${BOARD} issues in ${((Date.now() - t0) / 1000).toFixed(1)}s (${dir})`);

// ---- Prisma with query counting ----
const db = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${file}` }), log: [{ emit: "event", level: "query" }] });
let queries = 0;
db.$on("query", (e) => { queries++; if (process.env.BENCH_TRACE) console.log(e.duration, e.query.slice(0, Number(process.env.BENCH_TRACE))); });
const actor: Actor = { user: { id: owner.id, username: owner.username, name: null, email: null, isAdmin: false }, via: "session", scopes: SCOPES };
const caller = createCaller({ db: db as never, headers: new Headers(), actor, publicUrl: "http://localhost", requestId: "bench" });

const makeView = (filters: object, sort: object | null) => {
  const id = randomUUID();
  raw.prepare(`INSERT INTO "IssueView" (id, repoId, name, filters, sort, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
    id, big.repoId, "bench", JSON.stringify(filters), sort ? JSON.stringify(sort) : null, now, now);
  return id;
};
const viewId = makeView({ status: ["todo", "in_progress"], labels: ["l3", "l7"], priority: ["urgent", "high"] }, { field: "priority", direction: "asc" });
const recentView = makeView({ status: ["in_review"], assignee: [assignees[7].id] }, { field: "updatedAt", direction: "desc" });
const overdueView = makeView({ dueDate: "overdue", labels: ["l5"] }, { field: "dueDate", direction: "asc" });

// ---- raw SQL baselines (same rows, same fields) ----
// `page` selects the page's ids from the indexes alone; the joins and subqueries run for those rows only
const full = (page: string, order: string) => `WITH page AS (${page})
SELECT i.id, i.number, i.title, i.body, i.state, i.status, i.priority, i.dueDate, i.estimate, i.projectId, i.cycleId, i.authorId, i.assigneeId, i.createdAt, i.updatedAt, i.closedAt,
  au.username AS authorUsername, au.name AS authorName, asg.username AS assigneeUsername, asg.name AS assigneeName, p.number AS parentNumber,
  (SELECT json_group_array(json_object('id', l.id, 'name', l.name, 'color', l.color, 'description', l.description)) FROM "IssueLabel" il JOIN "Label" l ON l.id = il.labelId WHERE il.issueId = i.id) AS labels,
  (SELECT count(*) FROM "Issue" c WHERE c.parentId = i.id) AS subIssueCount,
  (SELECT count(*) FROM "Issue" c WHERE c.parentId = i.id AND c.state = 'closed') AS subIssueClosed
FROM page JOIN "Issue" i ON i.id = page.id LEFT JOIN "User" au ON au.id = i.authorId LEFT JOIN "User" asg ON asg.id = i.assigneeId LEFT JOIN "Issue" p ON p.id = i.parentId
ORDER BY ${order}`;
// the label ids once (not correlated with i: a LIST SUBQUERY evaluated once, with a Bloom filter), then one primary-key probe per candidate
const hasLabel = (names: string[]) => `EXISTS (SELECT 1 FROM "IssueLabel" fil WHERE fil.issueId = i.id AND fil.labelId IN (SELECT fl.id FROM "Label" fl WHERE fl.repoId = '${big.repoId}' AND fl.nameLower IN (${names.map((n) => `'${n}'`).join(", ")})))`;
const pageOf = (where: string, order: string, limit: number) => full(`SELECT i.id FROM "Issue" i WHERE i.repoId = ? AND ${where} ORDER BY ${order} LIMIT ${limit}`, order);
const today = new Date().toISOString().slice(0, 10);
const rawList = raw.prepare(pageOf("1 = 1", "i.number DESC", 20));
const rawListOpenLabel = raw.prepare(pageOf(`i.state = 'open' AND ${hasLabel(["l3"])}`, "i.number DESC", 20));
const rawListStatus = raw.prepare(pageOf(`i.status = 'in_review'`, "i.number DESC", 20));
const rawListAssignee = raw.prepare(pageOf(`i.state = 'open' AND i.assigneeId = '${assignees[3].id}'`, "i.number DESC", 20));
const rawView = raw.prepare(pageOf(`i.status IN ('todo', 'in_progress') AND i.priority IN (0, 1) AND ${hasLabel(["l3", "l7"])}`, "i.priority ASC, i.number DESC", 50));
const rawRecentView = raw.prepare(pageOf(`i.status = 'in_review' AND i.assigneeId = '${assignees[7].id}'`, "i.updatedAt DESC, i.number DESC", 50));
const rawOverdueView = raw.prepare(pageOf(`i.state = 'open' AND i.dueDate < '${today}' AND ${hasLabel(["l5"])}`, "i.dueDate ASC NULLS LAST, i.number DESC", 50));
const rawBoard = raw.prepare(full(`SELECT id FROM "Issue" WHERE repoId = ?`, "i.status, i.boardPosition, i.number"));
// the paged board: exact counts and estimate sums in one GROUP BY, 51 cards of each column from its index range
const rawBoardTotals = raw.prepare(`SELECT status, count(*) AS n, sum(estimate) AS est FROM "Issue" WHERE repoId = ? GROUP BY status`);
const rawBoardPage = raw.prepare(full(STATUS_KEYS.map((s) => `SELECT id FROM (SELECT id FROM "Issue" WHERE repoId = @repo AND status = '${s}' ORDER BY boardPosition, number LIMIT 51)`).join(" UNION ALL "), "i.status, i.boardPosition, i.number"));
const rawColumnNext = raw.prepare(full(`SELECT id FROM "Issue" WHERE repoId = @repo AND status = 'todo' AND (boardPosition > @pos OR (boardPosition = @pos AND number > @num)) ORDER BY boardPosition, number LIMIT 51`, "i.boardPosition, i.number"));
const rawColumnTotals = raw.prepare(`SELECT count(*) AS n, sum(estimate) AS est FROM "Issue" WHERE repoId = ? AND status = 'todo'`);
const shapeRaw = (rows: Record<string, unknown>[]) => rows.map((r) => ({ ...r, labels: JSON.parse(r.labels as string) }));

/** Issues in a result: a list, {status: list} (listGroupedByStatus), {columns} (board) or a column. */
function countRows(out: unknown): number {
  if (Array.isArray(out)) return out.length;
  const o = out as { columns?: { issues: unknown[] }[]; issues?: unknown[] };
  if (o.columns) return o.columns.reduce((n, c) => n + c.issues.length, 0);
  if (o.issues) return o.issues.length;
  return Object.values(out as Record<string, unknown[]>).reduce((n, v) => n + v.length, 0);
}

async function measure(fn: () => unknown | Promise<unknown>): Promise<{ p50: number; p95: number; queries: number; rows: number }> {
  let rows = 0;
  for (let i = 0; i < 3; i++) await fn(); // warm-up
  const times: number[] = [];
  let q = 0;
  for (let i = 0; i < RUNS; i++) {
    const before = queries;
    const s = process.hrtime.bigint();
    const out = await fn();
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
    q = queries - before;
    rows = countRows(out);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(RUNS / 2)], p95: times[Math.floor(RUNS * 0.95)], queries: q, rows };
}

const bigRepo = { id: big.repoId, ownerId: owner.id, isPrivate: true, permission: "admin" as const };
const boardRepo = { ...bigRepo, id: board.repoId };
const sdb = db as never;
const firstTodo = await boardColumn(sdb, boardRepo, { status: "todo" });
const cursorRow = raw.prepare(`SELECT boardPosition AS pos, number AS num FROM "Issue" WHERE repoId = ? AND number = ?`).get(board.repoId, firstTodo.issues.at(-1)!.number) as { pos: number; num: number };
const rawBoardFirst = () => {
  const totals = rawBoardTotals.all(board.repoId);
  const cards = shapeRaw(rawBoardPage.all({ repo: board.repoId }) as never);
  const by = new Map<string, unknown[]>();
  for (const c of cards as Record<string, unknown>[]) by.set(c.status as string, [...(by.get(c.status as string) ?? []), c]);
  return { totals, columns: STATUS_KEYS.map((s) => ({ issues: (by.get(s) ?? []).slice(0, 50) })) };
};
const rawColumn = () => ({ totals: rawColumnTotals.get(board.repoId), issues: shapeRaw(rawColumnNext.all({ repo: board.repoId, ...cursorRow }) as never).slice(0, 50) });
type Case = [string, () => Promise<unknown>, () => unknown];
const cases: Case[] = [
  ["issues.list via tRPC", () => caller.issues.list({ repoId: big.repoId }), () => shapeRaw(rawList.all(big.repoId) as never)],
  ["issues.list service", () => listIssues(sdb, bigRepo, {}), () => shapeRaw(rawList.all(big.repoId) as never)],
  ["list open+label via tRPC", () => caller.issues.list({ repoId: big.repoId, state: "open", labels: ["l3"] }), () => shapeRaw(rawListOpenLabel.all(big.repoId) as never)],
  ["list status via tRPC", () => caller.issues.list({ repoId: big.repoId, status: "in_review" }), () => shapeRaw(rawListStatus.all(big.repoId) as never)],
  ["list open+assignee via tRPC", () => caller.issues.list({ repoId: big.repoId, state: "open", assignee: assignees[3].id }), () => shapeRaw(rawListAssignee.all(big.repoId) as never)],
  ["getIssuesByView via tRPC", () => caller.issues.getIssuesByView({ viewId }), () => shapeRaw(rawView.all(big.repoId) as never)],
  ["getIssuesByView service", () => getIssuesByView(sdb, bigRepo, viewId), () => shapeRaw(rawView.all(big.repoId) as never)],
  ["view by updatedAt via tRPC", () => caller.issues.getIssuesByView({ viewId: recentView }), () => shapeRaw(rawRecentView.all(big.repoId) as never)],
  ["view overdue+label via tRPC", () => caller.issues.getIssuesByView({ viewId: overdueView }), () => shapeRaw(rawOverdueView.all(big.repoId) as never)],
  ["listGroupedByStatus via tRPC", () => caller.issues.listGroupedByStatus({ repoId: board.repoId }), () => shapeRaw(rawBoard.all(board.repoId) as never)],
  ["listGroupedByStatus service", () => listGroupedByStatus(sdb, boardRepo, {}), () => shapeRaw(rawBoard.all(board.repoId) as never)],
  ["board (7×50) via tRPC", () => caller.issues.board({ repoId: board.repoId }), rawBoardFirst],
  ["board (7×50) service", () => boardColumns(sdb, boardRepo, {}), rawBoardFirst],
  ["boardColumn next via tRPC", () => caller.issues.boardColumn({ repoId: board.repoId, status: "todo", cursor: firstTodo.nextCursor! }), rawColumn],
];

console.log(`\n${"case".padEnd(30)} ${"rows".padStart(6)} ${"p50 ms".padStart(9)} ${"p95 ms".padStart(9)} ${"raw p50".padStart(9)} ${"ratio".padStart(6)} ${"queries".padStart(8)}`);
for (const [name, api, sql] of cases) {
  const a = await measure(api);
  const r = await measure(sql);
  if (a.rows !== r.rows) console.warn(`  ! row count differs: api ${a.rows}, raw ${r.rows}`);
  console.log(`${name.padEnd(30)} ${String(a.rows).padStart(6)} ${a.p50.toFixed(2).padStart(9)} ${a.p95.toFixed(2).padStart(9)} ${r.p50.toFixed(2).padStart(9)} ${(a.p50 / r.p50).toFixed(2).padStart(6)} ${String(a.queries).padStart(8)}`);
}
// query count is constant: the same calls on other page sizes
const q = async (fn: () => Promise<unknown>) => { const b = queries; await fn(); return queries - b; };
console.log(`\nqueries per issues.list at limit 1 / 20 / 100: ${await q(() => caller.issues.list({ repoId: big.repoId, limit: 1 }))} / ${await q(() => caller.issues.list({ repoId: big.repoId, limit: 20 }))} / ${await q(() => caller.issues.list({ repoId: big.repoId, limit: 100 }))}`);

await db.$disconnect();
raw.close();
rmSync(dir, { recursive: true, force: true });
