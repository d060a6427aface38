/**
 * The `svc` command line on PostgreSQL (runs in the PostgreSQL pass only: POSTGRES_ONLY in
 * vitest.config.ts). What the CLI does is the same services on either database and is tested on
 * SQLite by cli.test.ts; here what differs: a PostgreSQL database without svc's tables is refused
 * and left empty, and commands on PostgreSQL (its connection pools) end by themselves.
 */
import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { svc } from "../fixtures/svc-cli";

/** Longest one command may take before it counts as hanging (ms): the pools must close by themselves. */
const HANG_MS = 120_000;

describe("svc CLI on PostgreSQL", { timeout: 300_000 }, () => {
  it("creates a user and a token and lists it; each command exits by itself", () => {
    const user = svc(["user", "create", "cli-pg", "--password-stdin", "--init"], {}, "correct horse battery\n", undefined, HANG_MS);
    expect(user.signal).toBeNull();
    expect(user.err).toBe("");
    expect(user.code).toBe(0);
    const userId = user.out.trim();
    const created = svc(["token", "create", "deploy", "-s", "repo:read"], { SVC_USER_ID: userId }, undefined, undefined, HANG_MS);
    expect(created.signal).toBeNull();
    expect(created.code).toBe(0);
    const secret = /svc_[0-9A-Za-z]{8}_[0-9A-Za-z]{46}/.exec(created.out)![0];
    const list = svc(["token", "list"], { SVC_USER_ID: userId }, undefined, undefined, HANG_MS);
    expect(list.code).toBe(0);
    expect(list.out).toContain(secret.slice(0, 12));
  });

  it("PostgreSQL: refuses a database without svc's tables and leaves it empty ", async () => {
    const server = process.env.TEST_DATABASE_URL!;
    const name = `svc_test_empty_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(server);
      url.pathname = `/${name}`;
      const r = svc(["token", "list"], { DATABASE_URL: url.toString(), SVC_USER_ID: "someone" });
      expect(r.code).toBe(2);
      expect(r.err).toContain(`no svc database at`);
      expect(r.err).toContain(name);
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      const tables = await db.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`);
      await db.end();
      expect(tables.rows[0].n).toBe(0);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
