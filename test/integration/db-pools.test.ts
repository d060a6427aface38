/**
 * Connections of one svc process to PostgreSQL (docs/data.md "Connections"): the three pools
 * (Prisma's, the hot reader's, pg-boss's) open no more than SVC_DB_POOL_MAX,
 * SVC_DB_READER_POOL_MAX and SVC_JOB_POOL_MAX connections, counted in pg_stat_activity while
 * more statements than that run at once; SVC_DB_READER_POOL_MAX=0 sends hot reads through
 * Prisma; with `pgbouncer=true` in the URL the reader prepares no named statement. On SQLite only
 * the settings' parsing is checked (there are no pools).
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { getConfig, postgresPoolSizesFromEnv, resetConfig } from "@/server/config";
import { closeDb, getDb } from "@/server/db";
import { postgresReader, readRows } from "@/server/db/read";
import { closeJobs, getJob } from "@/server/jobs";

const postgres = getConfig().provider === "postgresql";
const saved = { ...process.env };

afterAll(() => {
  for (const k of ["SVC_DB_POOL_MAX", "SVC_DB_READER_POOL_MAX", "SVC_JOB_POOL_MAX"]) delete process.env[k];
  process.env.DATABASE_URL = saved.DATABASE_URL;
  resetConfig();
});

/** Connections to this test's database per application_name (svc, svc-read, svc-jobs). */
async function connectionsByPool(): Promise<Record<string, number>> {
  const admin = new pg.Client({ connectionString: saved.DATABASE_URL, application_name: "svc-test-admin" });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ app: string; n: number }>(
      `SELECT application_name AS app, count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY application_name`,
    );
    return Object.fromEntries(rows.map((r) => [r.app, r.n]));
  } finally {
    await admin.end();
  }
}

/** `n` copies of `run` at once. */
const atOnce = (n: number, run: () => Promise<unknown>) => Promise.all(Array.from({ length: n }, run));

describe("PostgreSQL pool sizes", () => {
  it("reads the settings with their defaults and bounds", () => {
    expect(postgresPoolSizesFromEnv({})).toEqual({ prisma: 10, reader: 5, jobs: 4 });
    expect(postgresPoolSizesFromEnv({ SVC_DB_POOL_MAX: "3", SVC_DB_READER_POOL_MAX: "0", SVC_JOB_POOL_MAX: " 2 " })).toEqual({
      prisma: 3,
      reader: 0,
      jobs: 2,
    });
    // out of range or not an integer: the default
    expect(postgresPoolSizesFromEnv({ SVC_DB_POOL_MAX: "0", SVC_DB_READER_POOL_MAX: "1001", SVC_JOB_POOL_MAX: "2.5" })).toEqual({
      prisma: 10,
      reader: 5,
      jobs: 4,
    });
  });

  it("opens at most the configured connections per pool", async () => {
    if (!postgres) return expect(getConfig().provider).toBe("sqlite");
    await closeJobs();
    await closeDb();
    Object.assign(process.env, { SVC_DB_POOL_MAX: "2", SVC_DB_READER_POOL_MAX: "1", SVC_JOB_POOL_MAX: "1" });
    const db = await getDb();
    // six statements at once on each pool: each opens as many connections as it may
    await atOnce(6, () => db.$queryRawUnsafe(`SELECT pg_sleep(0.05)::text AS "x"`));
    await atOnce(6, () => readRows(db, `SELECT pg_sleep(0.05)::text AS "x"`, []));
    await atOnce(6, () => getJob("test.none", "00000000-0000-4000-8000-000000000000"));
    const open = await connectionsByPool();
    expect({ prisma: open.svc, reader: open["svc-read"], jobs: open["svc-jobs"] }).toEqual({ prisma: 2, reader: 1, jobs: 1 });
    await closeJobs();
    await closeDb();
  });

  it("SVC_DB_READER_POOL_MAX=0: hot reads go through Prisma's pool, no reader pool", async () => {
    if (!postgres) return expect(getConfig().provider).toBe("sqlite");
    await closeDb();
    Object.assign(process.env, { SVC_DB_POOL_MAX: "2", SVC_DB_READER_POOL_MAX: "0" });
    const db = await getDb();
    const rows = await readRows<{ one: number }>(db, `SELECT 1::int AS "one"`, []);
    expect(rows).toEqual([{ one: 1 }]);
    const open = await connectionsByPool();
    expect(open["svc-read"]).toBeUndefined();
    expect(open.svc).toBeGreaterThan(0);
    await closeDb();
  });

  it("with pgbouncer=true the reader prepares no named statement; without, it does", async () => {
    if (!postgres) return expect(getConfig().provider).toBe("sqlite");
    const prepared = `SELECT count(*)::int AS "n" FROM pg_prepared_statements`;
    const url = new URL(saved.DATABASE_URL!);
    const direct = postgresReader(url.toString(), 1);
    url.searchParams.set("pgbouncer", "true");
    const pooled = postgresReader(url.toString(), 1);
    try {
      for (const reader of [direct, pooled]) await reader.all(`SELECT $1::int AS "x"`, [1]);
      // one connection each: the count is of the connection that ran the statement above
      expect(await direct.all(prepared, [])).toEqual([{ n: 2 }]);
      expect(await pooled.all(prepared, [])).toEqual([{ n: 0 }]);
    } finally {
      await direct.close();
      await pooled.close();
    }
  });
});
