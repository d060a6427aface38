/**
 * The CLI's database: the very one the server uses (getConfig: DATABASE_URL, else
 * `DATA_DIR/svc.db`, DATA_DIR defaulting to the svc folder's `data/`), and never a new empty one
 * made by mistake (a CLI run from another directory must not create a second database and
 * "succeed"; docs/architecture.md "How svc starts, finds its data and tests itself"). Only
 * `svc user create --init` may create it; otherwise the server's first start does.
 */
import { existsSync } from "node:fs";
import pg from "pg";
import { getConfig } from "@/server/config";
import { getDb, type Db } from "@/server/db";

/** A problem the user fixes by changing how svc is called (the CLI exits 2). */
export class UsageError extends Error {}

/** Where the database is, for messages: the SQLite file path or the PostgreSQL URL without password. */
export function databaseLabel(): string {
  const { databaseUrl, provider } = getConfig();
  if (provider === "sqlite") return databaseUrl.slice("file:".length);
  const url = new URL(databaseUrl);
  if (url.password) url.password = "***";
  return url.toString();
}

/** Whether the PostgreSQL database at `url` holds svc's tables (`_svc_migrations`, written by the migrator). */
async function postgresHasSvc(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query(`SELECT to_regclass('"_svc_migrations"') IS NOT NULL AS present`);
    return Boolean(r.rows[0]?.present);
  } finally {
    await client.end();
  }
}

/**
 * Opens (and migrates) the server's database.
 * @param init true for `svc user create --init`: create the database when it does not exist
 * @throws UsageError naming the database and the fix when it does not exist and `init` is false
 *   (SQLite: no file at the path; PostgreSQL: no `_svc_migrations` table). Nothing is created then.
 *   A running server's database always passes: the server migrates before it listens
 *   (server/process-start.ts), so "not migrated yet" cannot be the reason.
 */
export async function openDatabase({ init = false }: { init?: boolean } = {}): Promise<Db> {
  const { provider, databaseUrl } = getConfig();
  const missing = provider === "sqlite" ? !existsSync(databaseUrl.slice("file:".length)) : !(await postgresHasSvc(databaseUrl));
  if (missing && !init) {
    throw new UsageError(
      `no svc database at ${databaseLabel()}.\n` +
        `  A svc server creates and migrates its database before it opens its port, so a server that answers uses another one:\n` +
        `  set DATA_DIR (or DATABASE_URL) as the server has it (npm start uses <svc folder>/data).\n` +
        `  To start a new one here: svc user create <name> --password-stdin --init (or start the server once).`,
    );
  }
  return getDb();
}
