/**
 * One svc server process per SQLite file unless REDIS_URL is set (README "Several processes").
 *
 * Two server processes on one SQLite file keep the data safe (SQLite serializes the writers), but
 * without Redis each keeps its own rate-limit counts and live-update notices (issue 21: 20 wrong
 * passwords were accepted across two processes where the limit is 10, and live updates made through
 * one process did not reach pages served by the other). So a server process takes a
 * lock file next to the database, `<file>.server.lock`, holding `{pid, hostname, startedAt}`, and a
 * second server process refuses to start, naming the first. The CLI and tests never take it: they
 * open the database while a server runs, as before.
 *
 * The lock is taken inside a SQLite write transaction (BEGIN IMMEDIATE) on the database itself, so
 * two servers starting at once are serialized by SQLite and exactly one wins. A lock left by a
 * process that is gone is taken over: on the same host when its pid no longer exists (or is this
 * process's own pid: a container restarted with the same hostname, svc again as pid 1); from
 * another host (a shared volume) when the holder stopped touching the file for STALE_MS (it touches
 * it every TOUCH_MS). The file is removed when the process exits.
 */
import { mkdirSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

/** Who holds the lock: the content of the lock file. */
export interface ServerLockOwner {
  pid: number;
  hostname: string;
  /** ISO 8601 time the process took the lock. */
  startedAt: string;
}

/** The refusal: another live svc server process holds the lock of this SQLite file. */
export class ServerLockError extends Error {
  constructor(
    message: string,
    readonly owner: ServerLockOwner,
  ) {
    super(message);
    this.name = "ServerLockError";
  }
}

/** The holder touches the lock file this often (ms). */
const TOUCH_MS = 10_000;
/** A lock file of another host untouched for this long (ms) is stale. */
const STALE_MS = 60_000;

/** The lock file of SQLite database `file`. */
export function serverLockPath(file: string): string {
  return `${file}.server.lock`;
}

/** Whether a server process must take the SQLite lock: SQLite and no REDIS_URL (limits and live updates per process). */
export function sqliteServerLockNeeded(provider: "sqlite" | "postgresql", env: Record<string, string | undefined> = process.env): boolean {
  return provider === "sqlite" && !env.REDIS_URL?.trim();
}

function readOwner(lockFile: string): ServerLockOwner | null | "unreadable" {
  let text: string;
  try {
    text = readFileSync(lockFile, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  try {
    const o = JSON.parse(text) as ServerLockOwner;
    return Number.isInteger(o.pid) && typeof o.hostname === "string" && typeof o.startedAt === "string" ? o : "unreadable";
  } catch {
    return "unreadable"; // a process died while writing it (the write is inside the same lock, so nobody is writing now)
  }
}

/** Whether process `pid` exists on this host (EPERM: it exists, under another user). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function held(owner: ServerLockOwner, lockFile: string): boolean {
  if (owner.hostname === hostname()) return owner.pid !== process.pid && pidAlive(owner.pid);
  try {
    return Date.now() - statSync(lockFile).mtimeMs < STALE_MS;
  } catch {
    return false;
  }
}

function refusal(file: string, lockFile: string, owner: ServerLockOwner): string {
  return (
    `another svc server (pid ${owner.pid} on ${owner.hostname}, started ${owner.startedAt}) already serves the SQLite database ${file}.\n` +
    `  Two server processes on one SQLite file need REDIS_URL (set on both): without it each keeps its own rate limits and live updates.\n` +
    `  Stop that process, or set REDIS_URL; if it is gone${owner.hostname === hostname() ? "" : " (another host: its lock expires a minute after it stops)"}, delete ${lockFile}.\n` +
    `  The CLI (svc …) needs no lock: it works while the server runs.`
  );
}

/**
 * Takes the server lock of SQLite database `file` (created with its folder when missing) for this
 * process, until `release()` or the process exits.
 * @throws ServerLockError naming the other process when a live svc server holds it; file system
 *   and SQLite errors (e.g. the database stays write-locked beyond the 10 s busy timeout)
 */
export function acquireSqliteServerLock(file: string): { lockFile: string; owner: ServerLockOwner; release: () => void } {
  const lockFile = serverLockPath(file);
  const me: ServerLockOwner = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString() };
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("busy_timeout = 10000");
    db.exec("BEGIN IMMEDIATE");
    try {
      const owner = readOwner(lockFile);
      if (owner && owner !== "unreadable" && held(owner, lockFile)) throw new ServerLockError(refusal(file, lockFile, owner), owner);
      if (owner) unlinkSync(lockFile); // stale: its process is gone
      writeFileSync(lockFile, JSON.stringify(me) + "\n", { flag: "wx", mode: 0o644 });
    } finally {
      db.exec("COMMIT");
    }
  } finally {
    db.close();
  }
  const touch = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(lockFile, now, now);
    } catch {
      // removed by hand: the next start of another server may take it
    }
  }, TOUCH_MS);
  touch.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(touch);
    process.off("exit", release);
    const owner = readOwner(lockFile);
    if (owner && owner !== "unreadable" && owner.pid === me.pid && owner.hostname === me.hostname && owner.startedAt === me.startedAt) {
      try {
        unlinkSync(lockFile);
      } catch {
        // already gone
      }
    }
  };
  process.on("exit", release);
  return { lockFile, owner: me, release };
}
