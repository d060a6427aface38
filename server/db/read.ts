/**
 * The read path for svc's own hot SELECT statements (lists, inboxes, the authorization query on
 * every repository request): `readRows` runs a statement svc wrote itself (values bound, never
 * spliced) on the database driver directly instead of through Prisma's raw-query path.
 *
 * Why (measured: docs/performance.md "Hot reads off Prisma"): a page of 20
 * issues is 0.25–0.35 ms of SQL, and Prisma's raw-query path added ~0.5 ms to every statement
 * (its driver adapter prepares the statement on each call, and it converts every value of every
 * row); the authorization query paid it again. Prisma stays the only writer and the only path
 * for everything else: models, relations, transactions. The statements here are the same text
 * Prisma ran before, and the row readers in server/db/raw.ts accept either driver's values.
 *
 * - SQLite: a second better-sqlite3 connection to the same file (WAL: readers never wait for
 *   the writer and always see the last commit), statements prepared once and kept (a bounded
 *   map), refusing any statement that could write (`Statement.readonly`). Reads on their own
 *   connection also never join another request's open transaction on the writer connection
 *   (the hazard serialized-sqlite.ts queues against).
 * - PostgreSQL: a small pg pool of its own (SVC_DB_READER_POOL_MAX connections, default 5; 0:
 *   none, hot reads go through Prisma) with named prepared statements (parsed once per
 *   connection), unnamed ones behind PgBouncer (`pgbouncer=true` in DATABASE_URL: a transaction
 *   pooler hands each statement any server connection, where the name is unknown); timestamps
 *   without a zone come back as text, as read by `isoOf`.
 *
 * Only for statements outside a transaction: a caller holding a transaction client (anything
 * not registered by `registerReader`) reads through it, with its own uncommitted writes.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { behindPgBouncer } from "@/server/config";
import type { Db } from "./index";

/** Runs one read-only statement with bound values; rows as the driver returns them. */
export interface Reader {
  all<T>(text: string, params: readonly unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** Most distinct statements kept prepared per process (more are run unprepared / evicted). */
export const MAX_PREPARED = 500;

/**
 * The registry lives on globalThis, like the client itself (server/db/index.ts `__svcDb`): Next's
 * production server evaluates this module once per bundle (instrumentation, route handlers,
 * server components each have their own copy), and the client is opened by whichever runs first
 * (the job worker at start-up). A module-level map registered the reader in that copy only, and
 * every request's `readRows` fell back to Prisma (docs/performance.md "Hardening II, item 15").
 */
const shared = globalThis as unknown as { __svcReaders?: WeakMap<object, Reader>; __svcReadObservers?: Set<(text: string) => void> };
const readers = (shared.__svcReaders ??= new WeakMap<object, Reader>());
const observers = (shared.__svcReadObservers ??= new Set<(text: string) => void>());

/**
 * Calls `listener` with each statement `readRows` runs on a driver (tests and benchmarks count
 * queries with it, beside Prisma's query event). Returns the function that stops it.
 */
export function observeReads(listener: (text: string) => void): () => void {
  observers.add(listener);
  return () => observers.delete(listener);
}

/** Makes `reader` the read path for `db` (server/db/index.ts, when it opens the client). */
export function registerReader(db: Db, reader: Reader): void {
  readers.set(db, reader);
}

/** Closes and forgets `db`'s read connections (closeDb). */
export async function closeReader(db: Db): Promise<void> {
  const reader = readers.get(db);
  readers.delete(db);
  await reader?.close();
}

/**
 * Rows of `text` (placeholders `?` on SQLite, `$n` on PostgreSQL) with `params` bound, read on
 * the driver when `db` is the process's client, through `db.$queryRawUnsafe` otherwise (a
 * transaction client). Values are the driver's: use server/db/raw.ts to read them. Errors: the
 * driver's (a statement that is not read-only is refused on SQLite).
 */
export function readRows<T>(db: Pick<Db, "$queryRawUnsafe">, text: string, params: readonly unknown[]): Promise<T[]> {
  const reader = readers.get(db as object);
  if (!reader) return db.$queryRawUnsafe<T[]>(text, ...params);
  for (const observe of observers) observe(text);
  return reader.all<T>(text, params);
}

/**
 * The reader for a DATABASE_URL as server/db/index.ts makes it: `file:<path>` (SQLite, already
 * migrated) or a postgres URL. For code that builds its own Prisma client (benchmarks, tests).
 */
export function readerFor(databaseUrl: string, busyTimeoutMs = 10_000): Reader {
  return databaseUrl.startsWith("file:") ? sqliteReader(databaseUrl.slice("file:".length), busyTimeoutMs) : postgresReader(databaseUrl);
}

/** A read connection to the SQLite file `file` (already migrated, WAL). */
export function sqliteReader(file: string, busyTimeoutMs: number): Reader {
  const conn = new Database(file, { fileMustExist: true, timeout: busyTimeoutMs });
  const statements = new Map<string, Database.Statement>();
  const prepare = (text: string): Database.Statement => {
    let stmt = statements.get(text);
    if (stmt) return stmt;
    stmt = conn.prepare(text);
    if (!stmt.readonly || !stmt.reader) throw new Error("readRows runs read-only SELECT statements only");
    if (statements.size >= MAX_PREPARED) statements.delete(statements.keys().next().value!);
    statements.set(text, stmt);
    return stmt;
  };
  return {
    async all<T>(text: string, params: readonly unknown[]): Promise<T[]> {
      return prepare(text).all(...params.map(sqliteValue)) as T[];
    },
    async close() {
      statements.clear();
      conn.close();
    },
  };
}

function sqliteValue(v: unknown): unknown {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString();
  return v;
}

/** Type parsers: timestamps without a zone stay text (the stored UTC value, read by `isoOf`). */
const TIMESTAMP = 1114;
const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === TIMESTAMP) return (s: string) => s;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * A pool of at most `max` read connections to the PostgreSQL database at `url` (application_name
 * `svc-read` unless the URL sets one). Statements are prepared by name once per connection, except
 * behind PgBouncer (behindPgBouncer(url)), where every statement is sent unnamed.
 */
export function postgresReader(url: string, max = 5): Reader {
  const pool = new pg.Pool({ connectionString: url, max, types: pgTypes, application_name: "svc-read" });
  pool.on("error", () => {}); // an idle client's error (server restart): the next query reconnects
  const named = !behindPgBouncer(url);
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    if (!named) return undefined;
    let name = names.get(text);
    if (!name && names.size < MAX_PREPARED) names.set(text, (name = `svc_read_${names.size + 1}`));
    return name;
  };
  return {
    async all<T>(text: string, params: readonly unknown[]): Promise<T[]> {
      const result = await pool.query({ name: nameOf(text), text, values: params as unknown[] });
      return result.rows as T[];
    },
    close: () => pool.end(),
  };
}
