/**
 * The SQLite server lock's rules for a lock file someone else left (server-lock.ts): a live pid on
 * this host holds it, a dead one does not, this process's own pid does not (a restarted container);
 * another host's lock holds while it is touched and not once it went untouched for a minute; an
 * unreadable file is taken over. Live processes of their own are covered by
 * test/integration/server-start.test.ts.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acquireSqliteServerLock, serverLockPath, ServerLockError, sqliteServerLockNeeded } from "./server-lock";

const dir = mkdtempSync(path.join(tmpdir(), "svc-server-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A new database path whose lock file holds `content` (a JSON owner, or raw text). */
function planted(content: object | string, ageMs = 0): { file: string; lockFile: string } {
  const file = path.join(dir, `db-${++n}`, "svc.db");
  const lockFile = serverLockPath(file);
  rmSync(path.dirname(file), { recursive: true, force: true });
  // the lock takes the database's write lock first, which creates the folder and file
  acquireSqliteServerLock(file).release();
  writeFileSync(lockFile, typeof content === "string" ? content : JSON.stringify(content));
  const at = new Date(Date.now() - ageMs);
  utimesSync(lockFile, at, at);
  return { file, lockFile };
}

const owner = (pid: number, host = hostname()) => ({ pid, hostname: host, startedAt: "2030-01-01T00:00:00.000Z" });

describe("SQLite server lock (server-lock.ts)", () => {
  it("is needed on SQLite without REDIS_URL only", () => {
    expect(sqliteServerLockNeeded("sqlite", {})).toBe(true);
    expect(sqliteServerLockNeeded("sqlite", { REDIS_URL: " " })).toBe(true);
    expect(sqliteServerLockNeeded("sqlite", { REDIS_URL: "redis://127.0.0.1:6379" })).toBe(false);
    expect(sqliteServerLockNeeded("postgresql", {})).toBe(false);
  });

  it("refuses while a live process on this host holds it, naming it; takes it once that pid is gone", async () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    const exited = new Promise((r) => child.once("exit", r));
    try {
      const { file, lockFile } = planted(owner(child.pid!));
      let refused: unknown;
      try {
        acquireSqliteServerLock(file);
      } catch (e) {
        refused = e;
      }
      expect(refused).toBeInstanceOf(ServerLockError);
      expect((refused as Error).message).toContain(`pid ${child.pid} on ${hostname()}, started 2030-01-01T00:00:00.000Z`);
      expect((refused as Error).message).toContain(`delete ${lockFile}`);
      child.kill("SIGKILL");
      await exited;
      const lock = acquireSqliteServerLock(file);
      expect(JSON.parse(readFileSync(lockFile, "utf8"))).toMatchObject({ pid: process.pid, hostname: hostname() });
      lock.release();
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("takes over a lock naming this very process's pid (a container restarted as pid 1 again)", () => {
    const { file } = planted(owner(process.pid));
    acquireSqliteServerLock(file).release();
  });

  it("another host's lock holds while touched within a minute, and is taken over after", () => {
    const fresh = planted(owner(4242, "other-host"), 5_000);
    expect(() => acquireSqliteServerLock(fresh.file)).toThrow(/pid 4242 on other-host/);
    const old = planted(owner(4242, "other-host"), 5 * 60_000);
    acquireSqliteServerLock(old.file).release();
  });

  it("takes over an unreadable lock file, and release removes only its own", () => {
    const { file, lockFile } = planted("{ half written");
    const lock = acquireSqliteServerLock(file);
    writeFileSync(lockFile, JSON.stringify(owner(4242, "other-host")));
    lock.release();
    expect(JSON.parse(readFileSync(lockFile, "utf8"))).toMatchObject({ hostname: "other-host" });
  });
});
