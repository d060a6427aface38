/**
 * What a svc server process does before its port opens (server/process-start.ts, called by
 * instrumentation.ts `register()`, which Next awaits before scripts/server.mjs listens), in child
 * processes (test/fixtures/server-process.ts) on a new database of this run's kind (issue 21,
 * items 7 and 8b):
 * - the database is migrated by the time the port would open, so the CLI run right after finds it;
 * - SQLite without REDIS_URL: a second server process on the same file refuses, naming the first;
 *   with REDIS_URL it starts; the CLI works while a server runs; a killed server's lock is taken
 *   over; a stopped server removes it. PostgreSQL takes no such lock.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getConfig } from "@/server/config";
import { readMigrations } from "@/server/db/migrate";
import { serverLockPath } from "@/server/db/server-lock";
import { spawnFixture, type Child } from "../fixtures/child";
import { appliedMigrations, newDatabase } from "../fixtures/new-database";

const ROOT = path.resolve(import.meta.dirname, "../..");
const provider = getConfig().provider;
const temp = mkdtempSync(path.join(tmpdir(), "svc-server-start-"));

afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The `svc` CLI (bin/svc.mjs) on the database at `url`. */
function svc(args: string[], url: string, input?: string) {
  const r = spawnSync(process.execPath, [path.join(ROOT, "bin/svc.mjs"), ...args], {
    cwd: ROOT,
    input,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: process.env.DATA_DIR, DATABASE_URL: url } as Record<
      string,
      string | undefined
    > as NodeJS.ProcessEnv,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const server = (url: string, env: Record<string, string> = {}): Child =>
  spawnFixture("server-process.ts", { DATABASE_URL: url, REDIS_URL: "", ...env });

describe(`a svc server process's start on ${provider}`, { timeout: 300_000 }, () => {
  it("migrates a new database before its port would open, so the CLI run right then finds it", async () => {
    const db = newDatabase(temp);
    await db.create();
    // no job worker: nothing else in the start touches the database
    const first = server(db.url, { SVC_JOB_CONCURRENCY: "0" });
    try {
      await first.line(/^SERVER_READY$/);
      const shipped = readMigrations(path.join(ROOT, provider === "postgresql" ? "prisma/postgresql/migrations" : "prisma/migrations"));
      expect(await appliedMigrations(db.url)).toEqual(shipped.map((m) => m.name));
      const created = svc(["user", "create", "first-admin", "--password-stdin"], db.url, "a long password\n");
      expect(created.err).toBe("");
      expect(created.code).toBe(0);
    } finally {
      await first.stop();
      await db.drop();
    }
  });

  it(
    provider === "sqlite"
      ? "refuses a second server process on the same SQLite file without REDIS_URL, naming the first; takes over a killed server's lock"
      : "starts a second server process on the same PostgreSQL database (no lock there)",
    async () => {
      const db = newDatabase(temp);
      await db.create();
      const children: Child[] = [];
      const start = (env: Record<string, string> = {}) => {
        const c = server(db.url, env);
        children.push(c);
        return c;
      };
      try {
        const first = start();
        await first.line(/^SERVER_READY$/);
        const second = start();
        if (provider === "postgresql") {
          await second.line(/^SERVER_READY$/);
          return;
        }
        const file = db.url.slice("file:".length);
        const lockFile = serverLockPath(file);
        expect(JSON.parse(readFileSync(lockFile, "utf8"))).toMatchObject({ pid: first.pid, hostname: hostname() });

        expect(await second.exited).toBe("1");
        expect(second.stderr()).toContain(`svc: cannot start the server: another svc server (pid ${first.pid} on ${hostname()}, started `);
        expect(second.stderr()).toContain(`already serves the SQLite database ${file}.`);
        expect(second.stderr()).toMatch(/need REDIS_URL/);
        expect(second.stderr()).toContain(`delete ${lockFile}`);

        // the CLI needs no lock
        const created = svc(["user", "create", "while-served", "--password-stdin"], db.url, "a long password\n");
        expect(created.err).toBe("");
        expect(created.code).toBe(0);

        // with Redis, limits and live updates are shared: a second process may start
        const shared = start({ REDIS_URL: "redis://127.0.0.1:9" });
        await shared.line(/^SERVER_READY$/);
        await shared.stop();

        // a crash leaves the lock file; the next server takes it over (its pid is gone)
        await first.kill9();
        expect(existsSync(lockFile)).toBe(true);
        const next = start();
        await next.line(/^SERVER_READY$/);
        expect(JSON.parse(readFileSync(lockFile, "utf8"))).toMatchObject({ pid: next.pid });
        // a graceful stop removes it
        expect(await next.stop()).toBe("0");
        expect(existsSync(lockFile)).toBe(false);
      } finally {
        await Promise.all(children.map((c) => c.stop()));
        await db.drop();
      }
    },
  );
});
