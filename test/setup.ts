/**
 * Per test file: a fresh DATA_DIR in a temp folder and a fresh database. SQLite at
 * DATA_DIR/svc.db by default; when TEST_DATABASE_URL is set (a PostgreSQL server URL), a new
 * database svc_test_<random> on that server, dropped after the file's tests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll } from "vitest";
import { resetConfig } from "@/server/config";
import { closeDb } from "@/server/db";
import { closeJobs } from "@/server/jobs";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "svc-test-"));
process.env.DATA_DIR = dataDir;
process.env.SVC_RUN_DIR = path.join(dataDir, "run"); // push-hook sockets, removed with the rest
process.env.NEXTAUTH_SECRET = "test-secret-" + randomBytes(8).toString("hex");
process.env.SVC_APP_ROOT = path.resolve(import.meta.dirname, "..");

const serverUrl = process.env.TEST_DATABASE_URL;
let dbName: string | undefined;
if (serverUrl) {
  dbName = `svc_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  process.env.DATABASE_URL = url.toString();
} else {
  process.env.DATABASE_URL = `file:${path.join(dataDir, "svc.db")}`;
}
resetConfig();

afterAll(async () => {
  await closeJobs(); // pushes enqueue jobs; on PostgreSQL that opens pg-boss's own pool
  await closeDb();
  if (serverUrl && dbName) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
});
