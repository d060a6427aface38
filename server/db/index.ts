/**
 * The only database handle. `getDb()` returns the Prisma client for DATABASE_URL (SQLite by
 * default at DATA_DIR/svc.db, PostgreSQL when the URL starts with postgres), migrating the
 * database on first use. Both generated clients share one model, so the PostgreSQL client is
 * typed as the SQLite client's type (docs/data.md "Schema and clients").
 */
import path from "node:path";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PgPrismaClient } from "@/generated/prisma-pg/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { getConfig, postgresPoolSizesFromEnv } from "@/server/config";
import { migratePostgres, migrateSqlite } from "./migrate";
import { serializedSqlite } from "./serialized-sqlite";
import { closeReader, postgresReader, registerReader, sqliteReader, type Reader } from "./read";

export type Db = PrismaClient;
export type { Prisma } from "@/generated/prisma/client";

/**
 * How long (ms) a SQLite connection waits for another connection's write lock (busy_timeout, set
 * by better-sqlite3's `timeout`) before failing with "database is locked", which requests answer
 * as 503 + Retry-After (server/errors.ts `databaseBusy`). Only other processes on the same file
 * contend for it; within this process writes queue (serialized-sqlite.ts). 10 000 by default;
 * `SVC_SQLITE_BUSY_TIMEOUT_MS` (1–600 000) overrides it, read when the database is first opened.
 */
export function sqliteBusyTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env.SVC_SQLITE_BUSY_TIMEOUT_MS;
  const n = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  return n >= 1 && n <= 600_000 ? n : 10_000;
}

const globalForDb = globalThis as unknown as { __svcDb?: { url: string; db: Promise<Db> } };

async function open(): Promise<Db> {
  const config = getConfig();
  let db: Db;
  let reader: Reader | null;
  if (config.provider === "postgresql") {
    await migratePostgres(config.databaseUrl, path.join(config.appRoot, "prisma/postgresql/migrations"));
    // pool sizes: SVC_DB_POOL_MAX, SVC_DB_READER_POOL_MAX (config.ts; docs/data.md "Connections");
    // the name shows in pg_stat_activity unless the URL sets its own application_name
    const pools = postgresPoolSizesFromEnv();
    const adapter = new PrismaPg({ connectionString: config.databaseUrl, max: pools.prisma, application_name: "svc" });
    db = new PgPrismaClient({ adapter }) as unknown as Db;
    reader = pools.reader > 0 ? postgresReader(config.databaseUrl, pools.reader) : null;
  } else {
    const file = config.databaseUrl.slice("file:".length);
    migrateSqlite(file, path.join(config.appRoot, "prisma/migrations"));
    // one connection: serialize plain queries with transactions, BEGIN IMMEDIATE (serialized-sqlite.ts)
    const adapter = serializedSqlite(new PrismaBetterSQLite3({ url: `file:${file}`, timeout: sqliteBusyTimeoutMs() }));
    db = new PrismaClient({ adapter });
    // hot SELECTs on a read connection of their own (read.ts)
    reader = sqliteReader(file, sqliteBusyTimeoutMs());
  }
  if (reader) registerReader(db, reader);
  return db;
}

/** The Prisma client for this process (one per DATABASE_URL), migrated on first call. */
export function getDb(): Promise<Db> {
  const url = getConfig().databaseUrl;
  const current = globalForDb.__svcDb;
  if (current && current.url === url) return current.db;
  const db = open();
  globalForDb.__svcDb = { url, db };
  db.catch(() => {
    if (globalForDb.__svcDb?.db === db) globalForDb.__svcDb = undefined;
  });
  return db;
}

/** Disconnects and forgets the client (tests, CLI exit). */
export async function closeDb(): Promise<void> {
  const current = globalForDb.__svcDb;
  globalForDb.__svcDb = undefined;
  const db = current && (await current.db.catch(() => undefined));
  if (!db) return;
  await closeReader(db);
  await db.$disconnect();
}
