/**
 * svc behind PgBouncer in transaction pooling mode (docs/data.md "PgBouncer"): a real PgBouncer
 * (Debian's package; .ci/run installs it) in front of this run's PostgreSQL server, with two
 * server connections for all of svc's pools, so statements of different pool connections land
 * on the same server connection and one client's statements on different ones. With
 * `pgbouncer=true` in DATABASE_URL the migrations, Prisma (models, interactive transactions), the
 * hot reader and pg-boss (a job enqueued and run) all work; without it the reader's named
 * prepared statements break, which is what the setting is for. SQLite runs check nothing here.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { getConfig, resetConfig } from "@/server/config";
import { closeDb, getDb } from "@/server/db";
import { postgresReader, readRows } from "@/server/db/read";
import { closeJobs, defineJob, enqueue, getJob, startJobWorker } from "@/server/jobs";

const postgres = getConfig().provider === "postgresql";
const directUrl = process.env.DATABASE_URL!;
let bouncer: ChildProcess | undefined;
let dir: string | undefined;

afterAll(async () => {
  await closeJobs();
  await closeDb();
  process.env.DATABASE_URL = directUrl;
  resetConfig();
  bouncer?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function until(what: string, probe: () => Promise<boolean>, limitMs = 60_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A free TCP port on 127.0.0.1 (closed again; PgBouncer takes it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/**
 * Starts PgBouncer (transaction mode, 2 server connections per database) in front of the server
 * of `url`; resolves to `url` pointing at it. Runs as the `postgres` user when this process is
 * root (PgBouncer refuses to run as root).
 */
async function startPgBouncer(url: string): Promise<string> {
  const found = spawnSync("sh", ["-c", "command -v pgbouncer"], { encoding: "utf8" }).stdout.trim();
  if (!found) throw new Error("pgbouncer is missing: apt-get install -y pgbouncer (.ci/run installs it)");
  const server = new URL(url);
  dir = mkdtempSync(path.join(os.tmpdir(), "svc-pgbouncer-"));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const target = [
    `host=${server.hostname}`,
    `port=${server.port || 5432}`,
    `user=${decodeURIComponent(server.username)}`,
    ...(server.password ? [`password=${decodeURIComponent(server.password)}`] : []),
  ].join(" ");
  const ini = path.join(dir, "pgbouncer.ini");
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = ${target}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = any",
      "pool_mode = transaction",
      "default_pool_size = 2",
      "max_client_conn = 200",
      "",
    ].join("\n"),
    { mode: 0o644 },
  );
  const root = process.getuid?.() === 0;
  bouncer = spawn(found, [...(root ? ["-u", "postgres"] : []), ini], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  bouncer.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  const pooled = new URL(url);
  pooled.hostname = "127.0.0.1";
  pooled.port = String(port);
  await until(`pgbouncer to listen (${log})`, async () => {
    if (bouncer!.exitCode !== null) throw new Error(`pgbouncer exited: ${log}`);
    const c = new pg.Client({ connectionString: pooled.toString() });
    return c.connect().then(
      () => c.end().then(() => true),
      () => false,
    );
  });
  return pooled.toString();
}

/** Runs `texts` `times` times each, all at once, through `all`. */
const burst = (all: (text: string) => Promise<unknown>, texts: string[], times: number) =>
  Promise.all(Array.from({ length: times }, (_, i) => all(texts[i % texts.length]!)));

describe("behind PgBouncer (transaction mode)", () => {
  it("with pgbouncer=true: migrations, Prisma, the hot reader and pg-boss all work", async () => {
    if (!postgres) return expect(getConfig().provider).toBe("sqlite");
    const url = new URL(await startPgBouncer(directUrl));
    url.searchParams.set("pgbouncer", "true");
    await closeJobs();
    await closeDb();
    process.env.DATABASE_URL = url.toString();
    resetConfig();
    const db = await getDb(); // migrates through PgBouncer

    const user = await db.user.create({ data: { username: "Bouncer", usernameLower: "bouncer" } });
    await db.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { name: "in a transaction" } });
      await tx.user.create({ data: { username: "second", usernameLower: "second" } });
    });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).name).toBe("in a transaction");

    // reads from the reader's 5 connections over PgBouncer's 2 server connections
    const texts = [
      `SELECT "username" FROM "User" WHERE "usernameLower" = $1`,
      `SELECT count(*)::int AS "n" FROM "User" WHERE "usernameLower" <> $1`,
      `SELECT $1::text AS "x"`,
    ];
    const rows = await burst((t) => readRows(db, t, ["bouncer"]), texts, 30);
    expect(rows[0]).toEqual([{ username: "Bouncer" }]);
    expect(rows[1]).toEqual([{ n: 1 }]);

    defineJob("test.bounced", async () => {}, { retries: 0 });
    await startJobWorker({ pollIntervalMs: 500 });
    const id = (await enqueue("test.bounced", {}))!;
    await until("the job to run through PgBouncer", async () => (await getJob("test.bounced", id))?.state === "completed");
  });

  it("without pgbouncer=true the reader's named statements break behind it", async () => {
    if (!postgres) return expect(getConfig().provider).toBe("sqlite");
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.delete("pgbouncer");
    const reader = postgresReader(url.toString(), 5);
    try {
      const tries = await Promise.allSettled(Array.from({ length: 30 }, () => reader.all(`SELECT 1::int AS "one"`, [])));
      // five connections prepare "svc_read_1" on two server connections: a name already taken
      expect(tries.filter((t) => t.status === "rejected").map((t) => String((t as PromiseRejectedResult).reason))).toContainEqual(
        expect.stringMatching(/prepared statement "svc_read_1" (already exists|does not exist)/),
      );
    } finally {
      await reader.close();
    }
  });
});
