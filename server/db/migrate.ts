/**
 * Applies the committed migrations in order, once each, on first use of a database: SQLite from
 * prisma/migrations, PostgreSQL from prisma/postgresql/migrations. Applied migrations are recorded
 * in `_svc_migrations` (name, checksum, applied_at). Runs in one transaction under a lock
 * (SQLite BEGIN IMMEDIATE, PostgreSQL advisory lock) so concurrent first starts are safe.
 * Why not `prisma migrate deploy`: it needs the CLI and a process per database (seconds), this
 * takes milliseconds and works the same inside Next, the CLI and tests (docs/data.md).
 */
import { readdirSync, readFileSync, existsSync, mkdirSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** Lists `<dir>/<14-digit stamp>_<name>/migration.sql` in name order. */
export function readMigrations(dir: string): Migration[] {
  if (!existsSync(dir)) throw new Error(`migrations folder missing: ${dir}`);
  return readdirSync(dir)
    .filter((d) => /^\d{14}_[a-z0-9_]+$/.test(d))
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Planner statistics (docs/data.md "Applying"). Without sqlite_stat1 SQLite guesses between the
 * Issue indexes: measured over 100k issues, a label-filtered list took 153 ms instead of 0.4 ms. After
 * migrations (new indexes have no statistics) every table is analyzed with a bounded
 * `analysis_limit`; otherwise `PRAGMA optimize` with 0x10000 checks every table and analyzes
 * only those without statistics or whose row count changed a lot since (usually a no-op; about
 * 0.25 s on 110k issues the first time).
 */
function refreshStatistics(db: Database.Database, migrated: boolean): void {
  if (migrated) {
    db.pragma("analysis_limit = 1000");
    db.exec("ANALYZE");
  } else {
    db.pragma("optimize=0x10002");
  }
}

/**
 * Migrates the SQLite file at `file` (created with its folder if missing); WAL mode; then
 * refreshes the planner statistics (refreshStatistics). Runs at every start. Returns names applied.
 */
export function migrateSqlite(file: string, migrationsDir: string): string[] {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 10000");
    db.exec(`CREATE TABLE IF NOT EXISTS "_svc_migrations" (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
    const applied: string[] = [];
    // SQLite's procedure for schema changes that rebuild a table (lang_altertable.html "Making
    // Other Kinds Of Table Schema Changes"): foreign keys off *outside* the transaction (the
    // migration's own `PRAGMA foreign_keys=OFF` is a no-op inside one), then
    // `foreign_key_check` before committing. With them on, Prisma's `DROP TABLE "Repository"`
    // in a rebuild runs an implicit DELETE whose ON DELETE CASCADE empties every child table.
    db.pragma("foreign_keys = OFF");
    db.exec("BEGIN IMMEDIATE");
    try {
      const done = new Set((db.prepare(`SELECT name FROM "_svc_migrations"`).all() as { name: string }[]).map((r) => r.name));
      for (const m of readMigrations(migrationsDir)) {
        if (done.has(m.name)) continue;
        db.exec(m.sql);
        db.prepare(`INSERT INTO "_svc_migrations" (name, checksum, applied_at) VALUES (?, ?, ?)`).run(
          m.name,
          m.checksum,
          new Date().toISOString(),
        );
        applied.push(m.name);
      }
      const broken = db.pragma("foreign_key_check") as unknown[];
      if (broken.length > 0)
        throw new Error(`migration left ${broken.length} rows breaking foreign keys: ${JSON.stringify(broken.slice(0, 5))}`);
      db.exec("COMMIT");
      db.pragma("foreign_keys = ON");
    } catch (e) {
      db.exec("ROLLBACK");
      throw e;
    }
    refreshStatistics(db, applied.length > 0);
    return applied;
  } finally {
    db.close();
  }
}

/** Migrates the PostgreSQL database at `url`. Returns names applied. */
export async function migratePostgres(url: string, migrationsDir: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN");
    // 0x5356_4331 = "SVC1": one migrator at a time per database.
    await client.query("SELECT pg_advisory_xact_lock(1398162225)");
    await client.query(
      `CREATE TABLE IF NOT EXISTS "_svc_migrations" (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
    const done = new Set((await client.query(`SELECT name FROM "_svc_migrations"`)).rows.map((r: { name: string }) => r.name));
    const applied: string[] = [];
    for (const m of readMigrations(migrationsDir)) {
      if (done.has(m.name)) continue;
      await client.query(m.sql);
      await client.query(`INSERT INTO "_svc_migrations" (name, checksum) VALUES ($1, $2)`, [m.name, m.checksum]);
      applied.push(m.name);
    }
    await client.query("COMMIT");
    return applied;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    await client.end();
  }
}
