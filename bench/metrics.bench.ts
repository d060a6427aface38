/**
 * Metrics benchmark (docs/performance.md "Hardening II, item 2: metrics"): `npx tsx bench/metrics.bench.ts`
 * (not part of the tests). SQLite in a temp DATA_DIR, or PostgreSQL with BENCH_DATABASE_URL.
 *
 * 1. What counting costs a procedure call: `agent.getModes` (no database, the cheapest procedure,
 *    so the share is the largest) through the tRPC caller, in batches of BATCH calls, with
 *    METRICS_TOKEN set against the limit measured in the same run, the same calls with it unset.
 *    Prints the ratio (goal ≤ 1.10×) and the cost per call in µs.
 * 2. What a scrape costs: `renderMetrics()` (every metric, the job queue depth query included) with
 *    BENCH_FINISHED finished jobs and 100 waiting ones in the queue table, next to the job queue
 *    depth query alone. Goal: < 50 ms p50 (a scrape every 15 s).
 * Env: BENCH_RUNS (30), BENCH_BATCH (2000), BENCH_FINISHED (100000; SQLite only, PostgreSQL gets
 * 100 waiting jobs through pg-boss).
 */
import { randomUUID } from "node:crypto";
import { createCaller } from "@/server/api/root";
import { contextFor } from "@/server/api/trpc";
import { resetConfig } from "@/server/config";
import { getDb } from "@/server/db";
import { closeJobs, enqueue, jobQueueDepth } from "@/server/jobs";
import { renderMetrics } from "@/server/metrics/collect";
import { measureRuns, openBenchDatabase } from "./support";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const BATCH = Number(process.env.BENCH_BATCH ?? 2000);
const FINISHED = Number(process.env.BENCH_FINISHED ?? 100_000);

const bench = await openBenchDatabase("metrics");
const caller = createCaller(await contextFor(null));
const batch = async () => {
  for (let i = 0; i < BATCH; i++) await caller.agent.getModes();
};

function setToken(token: string | undefined): void {
  if (token) process.env.METRICS_TOKEN = token;
  else delete process.env.METRICS_TOKEN;
  resetConfig();
}

// alternate off/on rounds so both see the same load; the ratio is the median of the rounds' ratios
const ROUNDS = 7;
const off: number[] = [];
const ratios: number[] = [];
const onTimes: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  setToken(undefined);
  const a = (await measureRuns(batch, { runs: Math.ceil(RUNS / ROUNDS), warmup: 1 })).p50;
  setToken("bench-metrics-token-0123456789");
  const b = (await measureRuns(batch, { runs: Math.ceil(RUNS / ROUNDS), warmup: 1 })).p50;
  off.push(a);
  onTimes.push(b);
  ratios.push(b / a);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const offMs = median(off);
const onMs = median(onTimes);
const sorted = [...ratios].sort((a, b) => a - b);
console.log(`procedure calls (${bench.provider}, ${BATCH} × agent.getModes per batch, p50 of batches, ${ROUNDS} alternating rounds)`);
console.log(`  metrics off (limit)  ${offMs.toFixed(1)} ms  (${((offMs / BATCH) * 1000).toFixed(2)} µs per call)`);
console.log(
  `  metrics on           ${onMs.toFixed(1)} ms  (${((onMs / BATCH) * 1000).toFixed(2)} µs per call)  ratio ${median(ratios).toFixed(2)}× ` +
    `(rounds ${sorted[0]!.toFixed(2)}–${sorted[sorted.length - 1]!.toFixed(2)}×; goal ≤ 1.10×)`,
);

// the queue table: FINISHED completed rows (SQLite: what a day of jobs leaves) and 100 waiting jobs
await jobQueueDepth(); // creates the SQLite table
if (bench.provider === "sqlite" && FINISHED > 0) {
  const db = await getDb();
  const now = Date.now();
  for (let start = 0; start < FINISHED; start += 500) {
    const rows = Array.from({ length: Math.min(500, FINISHED - start) }, (_, i) => [
      randomUUID(),
      ["pulls.refreshMergeability", "pulls.aiReview", "search.indexRepo"][i % 3],
      now,
    ]);
    await db.$executeRawUnsafe(
      `INSERT INTO "_svc_jobs" ("id", "name", "payload", "state", "runAt", "createdAt", "completedAt") VALUES ${rows.map(() => "(?, ?, '{}', 'completed', ?, 0, 0)").join(", ")}`,
      ...rows.flat(),
    );
  }
}
const later = new Date(Date.now() + 3_600_000);
for (let i = 0; i < 100; i++) await enqueue("pulls.refreshMergeability", { prId: randomUUID() }, { runAt: later });

const depth = await measureRuns(() => jobQueueDepth(), { runs: RUNS });
const scrape = await measureRuns(() => renderMetrics(), { runs: RUNS });
const finished = bench.provider === "sqlite" ? FINISHED : 0;
console.log(`scrape (${bench.provider}, ${finished} finished + 100 waiting jobs)`);
console.log(`  job queue depth query  p50 ${depth.p50.toFixed(2)} ms  p95 ${depth.p95.toFixed(2)} ms`);
console.log(
  `  whole scrape           p50 ${scrape.p50.toFixed(2)} ms  p95 ${scrape.p95.toFixed(2)} ms  (goal < 50 ms)  ${(await renderMetrics()).body.length} bytes`,
);

await closeJobs();
await bench.drop();
process.exit(0);
