/**
 * Slots counted by all svc processes together in Redis (server/http/shared-slots.ts) and the git
 * process gate over them (server/http/git/process-gate.ts; docs/git-http.md "Several svc
 * processes"). A second "process" is a second SharedSlots with its own process id, or for the gate
 * a fresh copy of its modules (vi.resetModules) sharing nothing with this one but Redis. Needs
 * Redis at TEST_REDIS_URL (default redis://127.0.0.1:6379), as rate-limit.test.ts does.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Redis } from "ioredis";
import { closeRedis, createRedis } from "@/server/redis";
import { SharedSlots, closeSharedSlots, type SharedAcquire, type SharedSlot } from "@/server/http/shared-slots";
import { acquireGitSlot, type GitSlot } from "@/server/http/git/process-gate";
import { resetGitHttpLimits, setGitHttpLimits, type GitHttpLimits } from "@/server/http/git/http-limits";

const REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
const prefix = `svctest${Math.random().toString(36).slice(2, 8)}`;
const saved = { url: process.env.REDIS_URL, prefix: process.env.REDIS_KEY_PREFIX };

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}
const slot = (r: SharedAcquire): SharedSlot => {
  if (typeof r === "string") throw new Error(`expected a slot, got ${r}`);
  return r;
};

describe("shared slots in Redis", () => {
  it("the per-client and total caps hold over two processes; a release frees a slot for the other", async () => {
    const a = new SharedSlots(redis, prefix, "caps", "host-a:1:a");
    const b = new SharedSlots(redis, prefix, "caps", "host-b:2:b");
    const caps = { total: 4, perClient: 2 };
    const a1 = slot(await a.tryAcquire("user:u", caps));
    slot(await b.tryAcquire("user:u", caps));
    expect(await a.tryAcquire("user:u", caps)).toBe("full");
    expect(await b.tryAcquire("user:u", caps)).toBe("full");
    slot(await b.tryAcquire("user:v", caps));
    slot(await a.tryAcquire("user:w", caps));
    expect(await b.tryAcquire("user:x", caps)).toBe("full"); // 4 in all
    a1.release();
    slot(await b.tryAcquire("user:u", caps));
    a.stop();
    b.stop();
  });

  it("a crashed process's slots expire; a live process's are renewed", async () => {
    const ttlMs = 2_000;
    const caps = { total: 10, perClient: 1 };
    const crashed = new SharedSlots(redis, prefix, "ttl", "host-a:1:dead", ttlMs);
    const live = new SharedSlots(redis, prefix, "ttl", "host-b:2:live", ttlMs);
    const other = new SharedSlots(redis, prefix, "ttl", "host-c:3:c", ttlMs);
    slot(await crashed.tryAcquire("user:dead", caps));
    slot(await live.tryAcquire("user:live", caps));
    crashed.stop(); // no release, no more renewals: as if the process had died
    const start = Date.now();
    await until(async () => typeof (await other.tryAcquire("user:dead", caps)) !== "string");
    expect(Date.now() - start).toBeGreaterThan(ttlMs / 2); // not before its expiry drew near
    // the live one was renewed past its first expiry all along
    while (Date.now() - start < 1.5 * ttlMs) {
      expect(await other.tryAcquire("user:live", caps)).toBe("full");
      await new Promise((r) => setTimeout(r, 100));
    }
    live.stop();
    other.stop();
  });

  it("Redis unreachable answers unavailable quickly, never hangs", async () => {
    const dead = createRedis("redis://127.0.0.1:1", "slots");
    const s = new SharedSlots(dead, prefix, "dead");
    const start = Date.now();
    expect(await s.tryAcquire("user:u", { total: 1, perClient: 1 })).toBe("unavailable");
    expect(Date.now() - start).toBeLessThan(5_000);
    s.stop();
    await closeRedis(dead);
  });
});

describe("the git process gate over several processes (REDIS_URL)", () => {
  type Gate = { acquire: typeof acquireGitSlot; limits: (l: Partial<GitHttpLimits>) => void; close: () => Promise<void> };
  let here: Gate;
  let there: Gate;
  const held: GitSlot[] = [];

  beforeEach(async () => {
    process.env.REDIS_URL = REDIS_URL;
    process.env.REDIS_KEY_PREFIX = `${prefix}gate${Math.random().toString(36).slice(2, 6)}`;
    here = { acquire: acquireGitSlot, limits: setGitHttpLimits, close: closeSharedSlots };
    vi.resetModules();
    const gate = await import("@/server/http/git/process-gate");
    const limits = await import("@/server/http/git/http-limits");
    const shared = await import("@/server/http/shared-slots");
    expect(gate.acquireGitSlot).not.toBe(acquireGitSlot);
    there = { acquire: gate.acquireGitSlot, limits: limits.setGitHttpLimits, close: shared.closeSharedSlots };
    for (const g of [here, there])
      g.limits({ maxProcesses: 8, maxProcessesShared: 3, maxPerClient: 2, queueWaitMs: 300, pushQueueWaitMs: 15_000 });
  });
  afterEach(async () => {
    for (const s of held.splice(0)) s.release();
    await here.close();
    await there.close();
    resetGitHttpLimits();
    if (saved.url === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = saved.url;
    if (saved.prefix === undefined) delete process.env.REDIS_KEY_PREFIX;
    else process.env.REDIS_KEY_PREFIX = saved.prefix;
  });
  const take = async (g: Gate, key: string, push = false) => {
    const s = await g.acquire(key, undefined, { push });
    if (s) held.push(s);
    return s;
  };

  it("a client's cap holds across the two: its third fetch in the other process waits, then is refused", async () => {
    expect(await take(here, "user:u")).not.toBeNull();
    expect(await take(here, "user:u")).not.toBeNull();
    expect(await take(there, "user:u")).toBeNull(); // 503: two already run in the other process
    expect(await take(there, "user:v")).not.toBeNull(); // another client still runs
  });

  it("the shared total holds across the two", async () => {
    expect(await take(here, "user:a")).not.toBeNull();
    expect(await take(here, "user:b")).not.toBeNull();
    expect(await take(there, "user:c")).not.toBeNull();
    expect(await take(there, "user:d")).toBeNull(); // 3 in all
    expect(await take(here, "user:e")).toBeNull();
  });

  it("a push waits longer than a fetch and gets the slot another process frees", async () => {
    await take(here, "user:u");
    const second = await take(here, "user:u");
    expect(await take(there, "user:u")).toBeNull(); // a fetch gives up after queueWaitMs
    const push = take(there, "user:u", true);
    let settled = false;
    void push.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 600)); // twice a fetch's whole wait
    expect(settled).toBe(false);
    second!.release();
    expect(await push).not.toBeNull();
  });

  it("with Redis unreachable each process counts alone (no 503, no hang)", async () => {
    process.env.REDIS_URL = "redis://127.0.0.1:1";
    expect(await take(here, "user:u")).not.toBeNull();
    expect(await take(there, "user:u")).not.toBeNull();
    expect(await take(there, "user:u")).not.toBeNull();
    expect(await take(there, "user:u")).toBeNull(); // this process's own cap still holds
  });
});
