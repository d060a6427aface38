/**
 * Redis outages (docs/architecture.md "Redis outages", issue #21 item 2): svc reaches the test
 * Redis through a TCP proxy (./redis-proxy.ts) that is cut mid-run, or is started against an
 * address where nothing listens. Sign-in (authenticate: the credentials provider's authorize and
 * the sign-in limits) must answer at once from the in-memory fallback — the issue's bound, under
 * 1 s, against 26–36 s before — a warning is logged once per outage and once on recovery,
 * svc_redis_up reports the connections, counts resume in Redis afterwards, and live updates fall
 * back to this process and come back (resubscribed) when Redis does.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { Redis } from "ioredis";
import { getDb } from "@/server/db";
import { authenticate } from "@/server/services/users/sign-in";
import { closeRateLimits, consume } from "@/server/rate-limit";
import { busShared, closeBus, onBusState, publish, subscribe, subscribed } from "@/server/events/bus";
import { renderMetrics } from "@/server/metrics/collect";
import { redisOutage } from "@/server/redis";
import { actorOf, callerFor, makeUser } from "../helpers";
import { REDIS_URL, deadRedisUrl, startRedisProxy, type RedisProxy } from "./redis-proxy";

/** The issue's bound for a sign-in while Redis is away (it took 26–36 s before). */
const SIGN_IN_BOUND_MS = 1000;
const ADDRESS = "203.0.113.7";

const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
const prefixes: string[] = [];
let warn: MockInstance<typeof console.warn>;

function usePrefix(url: string): string {
  const prefix = `svc-test-outage-${randomBytes(5).toString("hex")}`;
  prefixes.push(prefix);
  process.env.REDIS_URL = url;
  process.env.REDIS_KEY_PREFIX = prefix;
  return prefix;
}

const warnings = (pattern: RegExp) => warn.mock.calls.filter((c) => pattern.test(String(c[0]))).length;
const OUTAGE = /^svc: Redis at 127\.0\.0\.1:\d+ is unreachable/;
const RECOVERY = /^svc: Redis at 127\.0\.0\.1:\d+ is reachable again/;

async function until(what: string, check: () => boolean | Promise<boolean>, limitMs = 30_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** authenticate's answer and how long it took (ms). */
async function timedSignIn(username: string, password: string) {
  const start = performance.now();
  const user = await authenticate(await getDb(), username, password, ADDRESS);
  return { user, ms: performance.now() - start };
}

async function redisUp(connection: string): Promise<number | undefined> {
  const m = new RegExp(`^svc_redis_up\\{connection="${connection}"\\} (\\d)$`, "m").exec((await renderMetrics()).body);
  return m ? Number(m[1]) : undefined;
}

beforeAll(async () => {
  await redis.connect();
});

afterEach(async () => {
  warn?.mockRestore();
  await Promise.all([closeRateLimits(), closeBus()]);
  delete process.env.REDIS_URL;
  delete process.env.REDIS_KEY_PREFIX;
});

afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
  }
  await redis.quit();
});

describe("Redis outages", { timeout: 90_000 }, () => {
  let proxy: RedisProxy;
  beforeAll(async () => {
    proxy = await startRedisProxy();
  });
  afterAll(async () => {
    await proxy.close();
  });

  it("sign-in answers at once when Redis is cut mid-run; one warning per outage and on recovery; counts resume in Redis", async () => {
    await proxy.restore();
    const prefix = usePrefix(proxy.url);
    warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const user = await makeUser("out");
    const pairKey = `${prefix}:rl:signInFailures:${ADDRESS}|${user.username.toLowerCase()}`;

    expect((await timedSignIn(user.username, "wrong password")).user).toBeNull();
    expect(await redis.get(pairKey)).toBe("1"); // counted in Redis, through the proxy
    expect(await redisUp("limiter")).toBe(1);

    await proxy.cut();
    for (const password of ["wrong password", "password123", "wrong again"]) {
      const { user: signedIn, ms } = await timedSignIn(user.username, password);
      expect(signedIn?.id ?? null).toBe(password === "password123" ? user.id : null);
      expect(ms).toBeLessThan(SIGN_IN_BOUND_MS);
    }
    expect(warnings(OUTAGE)).toBe(1);
    expect(String(warn.mock.calls.find((c) => OUTAGE.test(String(c[0])))![0])).toMatch(/memory/);
    expect(redisOutage()).toBe(true);
    expect(await redisUp("limiter")).toBe(0);

    await proxy.restore();
    await until("the recovery line", () => warnings(RECOVERY) === 1);
    expect(await redisUp("limiter")).toBe(1);
    // the count kept in Redis during the outage is used again
    expect((await timedSignIn(user.username, "wrong password")).user).toBeNull();
    expect(await redis.get(pairKey)).toBe("2");

    // a second outage is a second warning, and nothing more while it lasts
    await proxy.cut();
    await until("the second outage", () => warnings(OUTAGE) === 2);
    for (let i = 0; i < 5; i++) expect((await timedSignIn(user.username, "wrong")).ms).toBeLessThan(SIGN_IN_BOUND_MS);
    expect(warnings(OUTAGE)).toBe(2);
    expect(warnings(RECOVERY)).toBe(1);
    await proxy.restore();
    await until("the second recovery", () => warnings(RECOVERY) === 2);
  });

  it("a Redis that stops answering costs one command timeout, then sign-in answers at once", async () => {
    await proxy.restore();
    usePrefix(proxy.url);
    warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const user = await makeUser("hung");
    expect((await timedSignIn(user.username, "password123")).user?.id).toBe(user.id);

    await proxy.stall();
    // the first command waits REDIS_COMMAND_TIMEOUT_MS (500 ms) for its reply; generous bound
    expect((await timedSignIn(user.username, "wrong password")).ms).toBeLessThan(2 * SIGN_IN_BOUND_MS);
    expect(warnings(OUTAGE)).toBe(1);
    expect(String(warn.mock.calls.find((c) => OUTAGE.test(String(c[0])))![0])).toMatch(/no reply within 500 ms/);
    // the connection was dropped and is being made again: no further command waits for a reply
    for (const password of ["wrong password", "password123", "wrong"]) {
      const { user: signedIn, ms } = await timedSignIn(user.username, password);
      expect(signedIn?.id ?? null).toBe(password === "password123" ? user.id : null);
      expect(ms).toBeLessThan(SIGN_IN_BOUND_MS);
    }
    expect(warnings(OUTAGE)).toBe(1);
    await proxy.restore();
    await until("the recovery line", () => warnings(RECOVERY) === 1);
  });

  it("sign-in answers at once when started against an address where no Redis listens", async () => {
    usePrefix(await deadRedisUrl());
    warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const user = await makeUser("dead");
    for (const password of ["wrong password", "password123", "wrong", "password123"]) {
      const { user: signedIn, ms } = await timedSignIn(user.username, password);
      expect(signedIn?.id ?? null).toBe(password === "password123" ? user.id : null);
      expect(ms).toBeLessThan(SIGN_IN_BOUND_MS);
    }
    // issues.create (a limit and a live-update notice): 1.6 s in the issue, now at once
    const owner = await callerFor(actorOf(user));
    const repo = await owner.repos.create({ name: `r${randomBytes(4).toString("hex")}` });
    const start = performance.now();
    await owner.issues.create({ repoId: repo.id, title: "while Redis is away" });
    expect(performance.now() - start).toBeLessThan(SIGN_IN_BOUND_MS);
    // the in-memory fallback still limits: the 10th failure of the pair is the last one allowed
    for (let i = 0; i < 10; i++) await consume("signInFailures", `${ADDRESS}|x`);
    await expect(consume("signInFailures", `${ADDRESS}|x`)).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(warnings(OUTAGE)).toBe(1);
    expect(await redisUp("limiter")).toBe(0);
  });

  it("live updates fall back to this process during an outage, say so, and are shared again after it", async () => {
    await proxy.restore();
    const prefix = usePrefix(proxy.url);
    warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const got: string[] = [];
    const states: boolean[] = [];
    const stop = subscribe("pull:x", (e) => got.push(e.type));
    const unwatch = onBusState((shared) => states.push(shared));
    await subscribed("pull:x");
    const fromOtherProcess = (type: string) =>
      redis.publish(`${prefix}:live:pull:x`, JSON.stringify({ type, at: new Date().toISOString() }));

    await fromOtherProcess("before");
    await until("a notice of another process", () => got.includes("before"));
    expect(busShared()).toBe(true);

    await proxy.cut();
    await until("the outage", () => states.includes(false));
    expect(busShared()).toBe(false);
    expect(await redisUp("subscriber")).toBe(0);
    publish("pull:x", { type: "during" }); // this process's pages still get its own notices, at once
    expect(got).toContain("during");

    await proxy.restore();
    await until("shared again", () => states.at(-1) === true);
    expect(busShared()).toBe(true);
    expect(await redisUp("subscriber")).toBe(1);
    expect(await redisUp("publisher")).toBe(1);
    // subscribed again: notices of other processes arrive, and ours once each
    await fromOtherProcess("after");
    publish("pull:x", { type: "ours" });
    await until("notices after the outage", () => got.includes("after") && got.includes("ours"));
    expect(got.filter((t) => t === "ours")).toHaveLength(1);
    expect(warnings(OUTAGE)).toBe(1);
    expect(warnings(RECOVERY)).toBe(1);
    unwatch();
    stop();
  });
});
