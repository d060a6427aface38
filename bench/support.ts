/**
 * What the database benches share (inbox, issues, pulls-list, pulls-review): a fresh migrated
 * database — SQLite in a temp DATA_DIR, or a new database on the PostgreSQL server of
 * BENCH_DATABASE_URL, dropped at the end — and the timing loop that reports p50 / p95 in ms with
 * the number of statements the measured call ran.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migratePostgres, migrateSqlite } from "@/server/db/migrate";
import { resetConfig } from "@/server/config";

export interface BenchDatabase {
  provider: "sqlite" | "postgresql";
  /** The temp DATA_DIR (repositories, and the SQLite file). */
  dir: string;
  /** DATABASE_URL: `file:<dir>/svc.db` or the new PostgreSQL database's URL. */
  url: string;
  /** The SQLite file (sqlite only). */
  file: string;
  /** The PostgreSQL database's name (postgresql only). */
  pgName: string;
  /** Drops the PostgreSQL database (unless BENCH_KEEP is set) and removes the temp dir. */
  drop(): Promise<void>;
}

/**
 * Makes and migrates the bench's database, and points this process at it (DATA_DIR,
 * DATABASE_URL, NEXTAUTH_SECRET). `prefix` names the temp dir (`svc-bench-<prefix>-`).
 */
export async function openBenchDatabase(prefix: string): Promise<BenchDatabase> {
  const server = process.env.BENCH_DATABASE_URL;
  const dir = mkdtempSync(path.join(os.tmpdir(), `svc-bench-${prefix}-`));
  const file = path.join(dir, "svc.db");
  process.env.DATA_DIR = dir;
  process.env.NEXTAUTH_SECRET = "bench";
  let url = `file:${file}`;
  let pgName = "";
  if (server) {
    pgName = `svc_bench_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${pgName}`);
    await admin.end();
    const u = new URL(server);
    u.pathname = `/${pgName}`;
    url = u.toString();
  }
  process.env.DATABASE_URL = url;
  resetConfig();
  if (server) await migratePostgres(url, path.resolve(import.meta.dirname, "../prisma/postgresql/migrations"));
  else migrateSqlite(file, path.resolve(import.meta.dirname, "../prisma/migrations"));
  return {
    provider: server ? "postgresql" : "sqlite",
    dir,
    url,
    file,
    pgName,
    async drop() {
      if (server && process.env.BENCH_KEEP) console.log(`kept ${pgName}`);
      else if (server) {
        const admin = new pg.Client({ connectionString: server });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
        await admin.end();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Measured {
  /** Median and 95th percentile of the runs, ms. */
  p50: number;
  p95: number;
  /** Statements the last run executed (from `statements()`). */
  queries: number;
  /** `rows(out)` of the last run's result. */
  rows: number;
  /** The first (cold) call, ms. */
  first: number;
}

/**
 * Times `fn`: one cold call, `warmup` more, then `runs` measured calls.
 * `statements` reads a running statement counter; `rows` sizes a result (default: array length, else 1).
 */
export async function measureRuns(
  fn: () => unknown | Promise<unknown>,
  opts: { runs: number; warmup?: number; statements?: () => number; rows?: (out: unknown) => number },
): Promise<Measured> {
  const count = opts.statements ?? (() => 0);
  const rowsOf = opts.rows ?? ((out: unknown) => (Array.isArray(out) ? out.length : 1));
  const s0 = process.hrtime.bigint();
  await fn();
  const first = Number(process.hrtime.bigint() - s0) / 1e6;
  for (let i = 1; i < (opts.warmup ?? 5); i++) await fn();
  const times: number[] = [];
  let queries = 0;
  let rows = 0;
  for (let i = 0; i < opts.runs; i++) {
    const before = count();
    const s = process.hrtime.bigint();
    const out = await fn();
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
    queries = count() - before;
    rows = rowsOf(out);
  }
  times.sort((a, b) => a - b);
  return {
    p50: times[Math.floor(opts.runs / 2)]!,
    p95: times[Math.min(opts.runs - 1, Math.floor(opts.runs * 0.95))]!,
    queries,
    rows,
    first,
  };
}
