/**
 * Leases: locks shared by every svc process on one database, on SQLite and PostgreSQL alike, with
 * or without Redis (docs/architecture.md "Locks across processes"). A lease is one row of the
 * `Lease` table: its `name` (what it guards, e.g. `agent-turn:<sessionId>`), its `holder` and
 * `expiresAt`. Taking it is one atomic write — an INSERT, or when the row exists an UPDATE whose
 * WHERE says "expired" — so of two racing processes exactly one gets it (SQLite runs each write
 * alone; PostgreSQL re-checks an UPDATE's WHERE on the row it locked). The holder renews it every
 * `ttlMs / 3` while it works and deletes it when done; a holder that died stops renewing, and once
 * `expiresAt` passes the next taker overwrites the row.
 *
 *   const lease = await acquireLease(db, `agent-turn:${id}`, { ttlMs: 30_000 });
 *   if (!lease) throw new AppError("CONFLICT", "…");
 *   try { … work, watching lease.signal … } finally { await lease.release(); }
 *
 * Times are the processes' own clocks: they must agree to well within `ttlMs` (NTP does).
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Db } from "@/server/db";
import { isUniqueViolation } from "@/server/db/prisma-errors";

/** A lease held by this process. */
export interface Lease {
  readonly name: string;
  /** This acquisition's holder id (host:pid:random). */
  readonly holder: string;
  /**
   * Aborted when the lease was lost: a renewal found another holder in the row (this process
   * stalled past `expiresAt` and someone took it over), or renewals failed until it expired.
   */
  readonly signal: AbortSignal;
  /** Stops renewing and deletes the row if still this holder's. Never throws (an undeleted row expires). */
  release(): Promise<void>;
}

export interface LeaseOptions {
  /** How long the lease lasts without renewal (ms); it is renewed every ttlMs / 3 while held. */
  ttlMs: number;
}

/** Expired rows older than this (ms) are deleted now and then (leases of deleted things whose holder died). */
const SWEEP_AFTER_MS = 60 * 60_000;
let lastSweep = 0;

/** A fresh holder id: host, process id and a random part, so two acquisitions never look alike. */
function holderId(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Takes lease `name` for `opts.ttlMs` ms when nobody holds it or its holder's time ran out, and
 * keeps renewing it until `release()`. Returns null when another holder has it (the caller refuses
 * or waits). Errors: the database's, when it cannot be reached (nothing is then held).
 */
export async function acquireLease(db: Db, name: string, opts: LeaseOptions): Promise<Lease | null> {
  const holder = holderId();
  const ttlMs = opts.ttlMs;
  await sweepExpired(db);
  // three tries: the row may be deleted (released) between our failed INSERT and our UPDATE
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = Date.now();
    const expiresAt = new Date(now + ttlMs);
    try {
      await db.lease.create({ data: { name, holder, expiresAt } });
      return held(db, name, holder, ttlMs, now + ttlMs);
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
    const taken = await db.lease.updateMany({ where: { name, expiresAt: { lt: new Date(now) } }, data: { holder, expiresAt } });
    if (taken.count === 1) return held(db, name, holder, ttlMs, now + ttlMs);
    if (await db.lease.findUnique({ where: { name }, select: { name: true } })) return null;
  }
  return null;
}

/** The handle of a lease just taken; starts its renewal timer. */
function held(db: Db, name: string, holder: string, ttlMs: number, firstExpiry: number): Lease {
  const lost = new AbortController();
  let expiresAt = firstExpiry;
  let released = false;
  let renewing: Promise<void> = Promise.resolve();
  const renew = async () => {
    const now = Date.now();
    try {
      const r = await db.lease.updateMany({ where: { name, holder }, data: { expiresAt: new Date(now + ttlMs) } });
      if (r.count === 1) expiresAt = now + ttlMs;
      else if (!released) lose();
    } catch {
      // the database is unreachable: still ours until expiresAt, then anyone may take it
      if (Date.now() >= expiresAt) lose();
    }
  };
  const timer = setInterval(
    () => {
      renewing = renewing.then(renew);
    },
    Math.max(1, Math.floor(ttlMs / 3)),
  );
  timer.unref?.();
  const lose = () => {
    clearInterval(timer);
    lost.abort(new Error(`lease ${name} was lost`));
  };
  return {
    name,
    holder,
    signal: lost.signal,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await renewing;
      await db.lease.deleteMany({ where: { name, holder } }).catch(() => {});
    },
  };
}

/** Deletes rows expired for over SWEEP_AFTER_MS, at most once per SWEEP_AFTER_MS per process. Never throws. */
async function sweepExpired(db: Db): Promise<void> {
  const now = Date.now();
  if (now - lastSweep < SWEEP_AFTER_MS) return;
  lastSweep = now;
  await db.lease.deleteMany({ where: { expiresAt: { lt: new Date(now - SWEEP_AFTER_MS) } } }).catch(() => {});
}
