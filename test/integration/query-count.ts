/**
 * Counting the statements a service runs (no-N+1 tests): a second Prisma client over the test
 * database (SQLite file or PostgreSQL) with Prisma's query event log, plus the read path's
 * statements (server/db/read.ts `observeReads`) — the client reads through its own driver
 * connection as the server's client does.
 */
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PgPrismaClient } from "@/generated/prisma-pg/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { getConfig } from "@/server/config";
import { getDb, type Db } from "@/server/db";
import { closeReader, observeReads, readerFor, registerReader } from "@/server/db/read";

export interface CountingDb {
  db: Db;
  /** Statements run (Prisma's and the read path's) while `fn` runs. */
  count(fn: () => Promise<unknown>): Promise<number>;
  close(): Promise<void>;
}

/** A counting client; call `close` in afterAll. */
export async function countingDb(): Promise<CountingDb> {
  await getDb(); // migrated
  const config = getConfig();
  const log = [{ emit: "event" as const, level: "query" as const }];
  const db =
    config.provider === "postgresql"
      ? (new PgPrismaClient({ adapter: new PrismaPg({ connectionString: config.databaseUrl }), log }) as unknown as Db)
      : new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: config.databaseUrl }), log });
  let queries = 0;
  (db as unknown as { $on: (e: "query", f: () => void) => void }).$on("query", () => {
    queries++;
  });
  registerReader(db, readerFor(config.databaseUrl));
  const stop = observeReads(() => {
    queries++;
  });
  return {
    db,
    async count(fn) {
      const before = queries;
      await fn();
      return queries - before;
    },
    async close() {
      stop();
      await closeReader(db);
      await db.$disconnect();
    },
  };
}
