/**
 * Commit status benchmark (issue #23; docs/performance.md "Commit statuses"): `npx tsx
 * bench/statuses.bench.ts` (not part of the tests). One repository whose commit under test has
 * 1,000 statuses (BENCH_STATUSES) over 10 contexts and 5 check runs, among 20,000 statuses of 200
 * other commits. Measures svc's combined status of that commit (`combinedStatus`: latest status per
 * context plus latest check run per name, two statements on the read path) and the history page's
 * batch (`combinedStatuses` of 30 commits), each against a raw SQL baseline in the same run: the
 * latest-per-context statement on the driver with a prepared statement. Prints p50 / p95, the ratio
 * to the baseline, and whether the combined status stays under the 10 ms goal.
 * PostgreSQL: `BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres` (a new database,
 * dropped at the end). Env: BENCH_STATUSES (1000), BENCH_RUNS (50).
 */
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PgPrismaClient } from "@/generated/prisma-pg/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { readerFor, registerReader } from "@/server/db/read";
import { combinedStatus, combinedStatuses } from "@/server/services/statuses/combined-status";
import { measureRuns, openBenchDatabase } from "./support";

const N = Number(process.env.BENCH_STATUSES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const GOAL_MS = 10;

const bench = await openBenchDatabase("statuses");
const isPg = bench.provider === "postgresql";
const db = (isPg
  ? new PgPrismaClient({ adapter: new PrismaPg({ connectionString: bench.url }) })
  : new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: bench.url }) })) as unknown as PrismaClient;
registerReader(db as never, readerFor(bench.url));

const hex = () => randomUUID().replace(/-/g, "").padEnd(40, "0").slice(0, 40);
const user = await db.user.create({ data: { username: "ci", usernameLower: "ci" } });
const repo = await db.repository.create({ data: { ownerId: user.id, name: "r", nameLower: "r" } });
const sha = hex();
const others = Array.from({ length: 200 }, hex);
const STATES = ["pending", "success", "failure", "error"];
const t0 = Date.now();
const rows = (s: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ repoId: repo.id, sha: s, state: STATES[i % 4], context: `ci/job-${i % 10}`, creatorId: user.id }));
for (const o of others) await db.commitStatus.createMany({ data: rows(o, 100) });
for (let i = 0; i < N; i += 500) await db.commitStatus.createMany({ data: rows(sha, Math.min(500, N - i)) });
await db.checkRun.createMany({
  data: Array.from({ length: 5 }, (_, i) => ({
    repoId: repo.id,
    headSha: sha,
    name: `check-${i}`,
    status: "completed",
    conclusion: "success",
  })),
});
console.log(
  `${bench.provider}: seeded ${N} statuses on one sha, ${others.length * 100} on ${others.length} others in ${((Date.now() - t0) / 1000).toFixed(1)}s`,
);

// the baseline: the latest-per-context statement, prepared once, on the driver
const BASE = `SELECT s."id", s."state", s."context", s."description", s."targetUrl", s."updatedAt" FROM "CommitStatus" s
  WHERE s."repoId" = $1 AND s."sha" = $2 AND s."id" IN (SELECT MAX("id") FROM "CommitStatus" WHERE "repoId" = $1 AND "sha" = $2 GROUP BY "context")`;
let baseline: () => Promise<unknown[]>;
let close = async () => {};
if (isPg) {
  const c = new pg.Client({ connectionString: bench.url });
  await c.connect();
  await c.query("ANALYZE");
  baseline = async () => (await c.query({ name: "base", text: BASE, values: [repo.id, sha] })).rows;
  close = () => c.end();
} else {
  const sqlite = new Database(bench.file, { readonly: true });
  const stmt = sqlite.prepare(BASE.replace(/\$\d/g, "?"));
  baseline = async () => stmt.all(repo.id, sha, repo.id, sha);
  close = async () => void sqlite.close();
}

const page = [sha, ...others.slice(0, 29)];
const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
  ["combined status of one sha (1,000 statuses)", () => combinedStatus(db as never, repo.id, sha), baseline],
  ["history page: 30 shas", () => combinedStatuses(db as never, repo.id, page), async () => Promise.all(page.map(() => baseline()))],
];
let ok = true;
for (const [label, svc, raw] of cases) {
  const a = await measureRuns(svc, { runs: RUNS, rows: () => 1 });
  const b = await measureRuns(raw, { runs: RUNS, rows: () => 1 });
  const ratio = a.p50 / b.p50;
  console.log(
    `${label.padEnd(46)} svc p50 ${a.p50.toFixed(2)} ms p95 ${a.p95.toFixed(2)} ms · raw p50 ${b.p50.toFixed(2)} ms · ratio ${ratio.toFixed(2)}×`,
  );
  if (label.startsWith("combined") && a.p95 >= GOAL_MS) ok = false;
}
console.log(ok ? `OK: combined status p95 under ${GOAL_MS} ms` : `SLOW: combined status p95 at or over ${GOAL_MS} ms`);
await close();
await db.$disconnect();
await bench.drop();
process.exit(ok ? 0 : 1);
