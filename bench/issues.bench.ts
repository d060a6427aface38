/**
 * Issue tracker benchmark (issue #3): `npx tsx bench/issues.bench.ts` (not part of the tests).
 * SQLite in a temp DATA_DIR: one repository with 100k issues, 20 labels (0–3 per issue),
 * 50 assignees; a second repository with 10k issues for the board. Measures p50 (and p95) of
 *   issues.list            page of 20 with author, assignee and labels
 *   listGroupedByStatus    10k issues, every column
 *   getIssuesByView        status ∈ {todo,in_progress} ∧ label ∈ {l3,l7} ∧ priority ∈ {urgent,high}, page of 50
 * each through the tRPC caller (authorization included: 3 queries) and as the bare service call,
 * against the raw SQL returning the same rows and fields (better-sqlite3 prepared statements, one
 * query with joins and JSON aggregation), and counts Prisma queries per call (query event log).
 * Env: BENCH_ISSUES (100000), BENCH_BOARD (10000), BENCH_RUNS (30).
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
import { getIssuesByView, listGroupedByStatus, listIssues } from "@/server/services/issues";

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
raw.exec("ANALYZE");
console.log(`seeded ${N} + ${BOARD} issues in ${((Date.now() - t0) / 1000).toFixed(1)}s (${dir})`);

// ---- Prisma with query counting ----
const db = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: `file:${file}` }), log: [{ emit: "event", level: "query" }] });
let queries = 0;
db.$on("query", (e) => { queries++; if (process.env.BENCH_TRACE) console.log(e.duration, e.query.slice(0, Number(process.env.BENCH_TRACE))); });
const actor: Actor = { user: { id: owner.id, username: owner.username, name: null, email: null, isAdmin: false }, via: "session", scopes: SCOPES };
const caller = createCaller({ db: db as never, headers: new Headers(), actor, publicUrl: "http://localhost", requestId: "bench" });

const viewId = randomUUID();
raw.prepare(`INSERT INTO "IssueView" (id, repoId, name, filters, sort, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
  viewId, big.repoId, "bench", JSON.stringify({ status: ["todo", "in_progress"], labels: ["l3", "l7"], priority: ["urgent", "high"] }), JSON.stringify({ field: "priority", direction: "asc" }), now, now);


// ---- raw SQL equivalents (same rows, same fields) ----
const SELECT = `SELECT i.id, i.number, i.title, i.body, i.state, i.status, i.priority, i.dueDate, i.estimate, i.projectId, i.cycleId, i.authorId, i.assigneeId, i.createdAt, i.updatedAt, i.closedAt,
  au.username AS authorUsername, au.name AS authorName, asg.username AS assigneeUsername, asg.name AS assigneeName, p.number AS parentNumber,
  (SELECT json_group_array(json_object('id', l.id, 'name', l.name, 'color', l.color, 'description', l.description)) FROM "IssueLabel" il JOIN "Label" l ON l.id = il.labelId WHERE il.issueId = i.id) AS labels,
  (SELECT count(*) FROM "Issue" c WHERE c.parentId = i.id) AS subIssueCount,
  (SELECT count(*) FROM "Issue" c WHERE c.parentId = i.id AND c.state = 'closed') AS subIssueClosed
  FROM "Issue" i LEFT JOIN "User" au ON au.id = i.authorId LEFT JOIN "User" asg ON asg.id = i.assigneeId LEFT JOIN "Issue" p ON p.id = i.parentId`;
const rawList = raw.prepare(`${SELECT} WHERE i.repoId = ? ORDER BY i.number DESC LIMIT 20`);
const rawBoard = raw.prepare(`${SELECT} WHERE i.repoId = ? ORDER BY i.status, i.boardPosition, i.number`);
const rawView = raw.prepare(`${SELECT} WHERE i.repoId = ? AND i.status IN ('todo', 'in_progress') AND i.priority IN (0, 1)
  AND EXISTS (SELECT 1 FROM "IssueLabel" il JOIN "Label" l ON l.id = il.labelId WHERE il.issueId = i.id AND l.nameLower IN ('l3', 'l7'))
  ORDER BY i.priority ASC, i.number DESC LIMIT 50`);
const shapeRaw = (rows: Record<string, unknown>[]) => rows.map((r) => ({ ...r, labels: JSON.parse(r.labels as string) }));

async function measure(name: string, fn: () => unknown | Promise<unknown>): Promise<{ p50: number; p95: number; queries: number; rows: number }> {
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
    rows = Array.isArray(out) ? out.length : Object.values(out as Record<string, unknown[]>).reduce((n, v) => n + v.length, 0);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(RUNS / 2)], p95: times[Math.floor(RUNS * 0.95)], queries: q, rows };
}

const bigRepo = { id: big.repoId, ownerId: owner.id, isPrivate: true, permission: "admin" as const };
const boardRepo = { ...bigRepo, id: board.repoId };
const sdb = db as never;
const cases: [string, () => Promise<unknown>, () => unknown][] = [
  ["issues.list via tRPC", () => caller.issues.list({ repoId: big.repoId }), () => shapeRaw(rawList.all(big.repoId) as never)],
  ["issues.list service", () => listIssues(sdb, bigRepo, {}), () => shapeRaw(rawList.all(big.repoId) as never)],
  ["listGroupedByStatus via tRPC", () => caller.issues.listGroupedByStatus({ repoId: board.repoId }), () => shapeRaw(rawBoard.all(board.repoId) as never)],
  ["listGroupedByStatus service", () => listGroupedByStatus(sdb, boardRepo, {}), () => shapeRaw(rawBoard.all(board.repoId) as never)],
  ["getIssuesByView via tRPC", () => caller.issues.getIssuesByView({ viewId }), () => shapeRaw(rawView.all(big.repoId) as never)],
  ["getIssuesByView service", () => getIssuesByView(sdb, bigRepo, viewId), () => shapeRaw(rawView.all(big.repoId) as never)],
];

console.log(`\n${"case".padEnd(30)} ${"rows".padStart(6)} ${"p50 ms".padStart(9)} ${"p95 ms".padStart(9)} ${"raw p50".padStart(9)} ${"ratio".padStart(6)} ${"queries".padStart(8)}`);
for (const [name, api, sql] of cases) {
  const a = await measure(name, api);
  const r = await measure(name + " raw", sql);
  if (a.rows !== r.rows) console.warn(`  ! row count differs: api ${a.rows}, raw ${r.rows}`);
  console.log(`${name.padEnd(30)} ${String(a.rows).padStart(6)} ${a.p50.toFixed(2).padStart(9)} ${a.p95.toFixed(2).padStart(9)} ${r.p50.toFixed(2).padStart(9)} ${(a.p50 / r.p50).toFixed(2).padStart(6)} ${String(a.queries).padStart(8)}`);
}
// query count is constant: the same calls on other page sizes
const q = async (fn: () => Promise<unknown>) => { const b = queries; await fn(); return queries - b; };
console.log(`\nqueries per issues.list at limit 1 / 20 / 100: ${await q(() => caller.issues.list({ repoId: big.repoId, limit: 1 }))} / ${await q(() => caller.issues.list({ repoId: big.repoId, limit: 20 }))} / ${await q(() => caller.issues.list({ repoId: big.repoId, limit: 100 }))}`);

await db.$disconnect();
raw.close();
rmSync(dir, { recursive: true, force: true });
