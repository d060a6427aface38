/**
 * Leases (server/db/lease.ts, docs/architecture.md "Locks across processes") on the test's
 * database (SQLite, or PostgreSQL with TEST_DATABASE_URL): one holder at a time, also among racing
 * takers; released → free; renewed while held; a dead holder's lease (never renewed) is taken
 * over once expired; a holder whose lease was taken over learns it through its signal.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { acquireLease } from "@/server/db/lease";

async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}
const name = () => `test:${Math.random().toString(36).slice(2)}`;

describe("leases shared through the database", () => {
  it("one holder at a time; released, it is free again", async () => {
    const db = await getDb();
    const n = name();
    const a = await acquireLease(db, n, { ttlMs: 30_000 });
    expect(a).not.toBeNull();
    expect(await acquireLease(db, n, { ttlMs: 30_000 })).toBeNull();
    await a!.release();
    const b = await acquireLease(db, n, { ttlMs: 30_000 });
    expect(b).not.toBeNull();
    expect(b!.holder).not.toBe(a!.holder);
    await b!.release();
  });

  it("of 12 racing takers exactly one gets it, also when the row exists and expired", async () => {
    const db = await getDb();
    for (const expired of [false, true]) {
      const n = name();
      if (expired) await db.lease.create({ data: { name: n, holder: "gone:1:x", expiresAt: new Date(Date.now() - 1000) } });
      const got = await Promise.all(Array.from({ length: 12 }, () => acquireLease(db, n, { ttlMs: 30_000 })));
      const holders = got.filter((l) => l !== null);
      expect(holders).toHaveLength(1);
      expect((await db.lease.findUniqueOrThrow({ where: { name: n } })).holder).toBe(holders[0]!.holder);
      await holders[0]!.release();
    }
  });

  it("a holder that died (its lease never renewed) is taken over once the lease expired", async () => {
    const db = await getDb();
    const n = name();
    // what a process killed while holding the lease leaves behind
    await db.lease.create({ data: { name: n, holder: "dead-host:4242:deadbeef", expiresAt: new Date(Date.now() + 400) } });
    expect(await acquireLease(db, n, { ttlMs: 30_000 })).toBeNull();
    let taken: Awaited<ReturnType<typeof acquireLease>> = null;
    await until(async () => (taken = await acquireLease(db, n, { ttlMs: 30_000 })) !== null);
    expect((await db.lease.findUniqueOrThrow({ where: { name: n } })).holder).toBe(taken!.holder);
    await taken!.release();
    expect(await db.lease.findUnique({ where: { name: n } })).toBeNull();
  });

  it("a live holder renews its lease past its first expiry", async () => {
    const db = await getDb();
    const n = name();
    const ttlMs = 3_000;
    const a = await acquireLease(db, n, { ttlMs });
    const start = Date.now();
    // renewed every second: a taker keeps being refused well past the first expiry
    while (Date.now() - start < 1.5 * ttlMs) {
      expect(await acquireLease(db, n, { ttlMs })).toBeNull();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(a!.signal.aborted).toBe(false);
    await a!.release();
  });

  it("a holder whose lease was taken over is told through its signal, and its release leaves the new holder's row", async () => {
    const db = await getDb();
    const n = name();
    const a = await acquireLease(db, n, { ttlMs: 300 });
    // another process took it over (this one stalled past expiry)
    await db.lease.update({ where: { name: n }, data: { holder: "thief:1:x", expiresAt: new Date(Date.now() + 60_000) } });
    await until(() => a!.signal.aborted);
    await a!.release();
    expect((await db.lease.findUniqueOrThrow({ where: { name: n } })).holder).toBe("thief:1:x");
  });
});
