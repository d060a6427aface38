/**
 * The REST API's rate limit (docs/api.md "REST rate limit") over real HTTP: GitHub's
 * X-RateLimit-* headers on every /api/v3 answer, the 403 "API rate limit exceeded" over the
 * budget, separate budgets per user and per address, and counts shared through Redis. The budgets
 * are made small with SVC_REST_RATE_LIMIT(_ANONYMOUS) (so this file runs in its own process).
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeRateLimits } from "@/server/rate-limit";
import { RATE_LIMIT_DOCS, restLimitsFromEnv } from "@/server/http/rest-v3/rate-limit";
import { makeToken } from "../helpers";
import { team, type Team } from "./pulls-fixtures";

const REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

let t: Team;
let api: string;

beforeAll(async () => {
  process.env.SVC_REST_RATE_LIMIT = "5";
  process.env.SVC_REST_RATE_LIMIT_ANONYMOUS = "3";
  t = await team("rrl");
  api = `${t.server.url}/api/v3/repos/${t.owner.user.username}/${t.repo.name}`;
});
afterAll(async () => {
  delete process.env.SVC_REST_RATE_LIMIT;
  delete process.env.SVC_REST_RATE_LIMIT_ANONYMOUS;
  await closeRateLimits();
  await t.server.close();
});

/** GET the combined status of main as `auth` (null: anonymous) from `address` → status, rate headers, body. */
async function get(auth: string | null, address = "198.51.100.1", path = "/commits/main/status") {
  const headers: Record<string, string> = { "x-forwarded-for": address };
  if (auth) headers.authorization = auth;
  const res = await fetch(`${api}${path}`, { headers });
  const h = (n: string) => res.headers.get(n);
  return {
    status: res.status,
    body: (await res.json()) as { message?: string; documentation_url?: string },
    limit: Number(h("x-ratelimit-limit")),
    remaining: Number(h("x-ratelimit-remaining")),
    used: Number(h("x-ratelimit-used")),
    reset: Number(h("x-ratelimit-reset")),
    resource: h("x-ratelimit-resource"),
    retryAfter: h("retry-after"),
  };
}

let nextAddress = 10;
const freshAddress = () => `203.0.113.${nextAddress++}`;

describe("REST rate limit", () => {
  it("reads its budgets from the environment, GitHub's numbers by default", () => {
    expect(restLimitsFromEnv({})).toEqual({ authenticated: 5000, anonymous: 60 });
    expect(restLimitsFromEnv({ SVC_REST_RATE_LIMIT: "0", SVC_REST_RATE_LIMIT_ANONYMOUS: "x" })).toEqual({
      authenticated: 5000,
      anonymous: 60,
    });
    expect(restLimitsFromEnv({ SVC_REST_RATE_LIMIT: "12000", SVC_REST_RATE_LIMIT_ANONYMOUS: " 10 " })).toEqual({
      authenticated: 12000,
      anonymous: 10,
    });
  });

  it("sends GitHub's headers on every answer, counting down; over the budget a 403 with GitHub's message", async () => {
    const now = Math.floor(Date.now() / 1000);
    const seen = [];
    for (let i = 0; i < 5; i++) seen.push(await get(`token ${t.writer.token}`));
    // the window starts at the first request, which a busy machine may answer seconds after `now`
    const after = Math.ceil(Date.now() / 1000);
    expect(seen.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(seen.map((r) => [r.limit, r.remaining, r.used, r.resource])).toEqual([
      [5, 4, 1, "core"],
      [5, 3, 2, "core"],
      [5, 2, 3, "core"],
      [5, 1, 4, "core"],
      [5, 0, 5, "core"],
    ]);
    for (const r of seen) {
      expect(r.reset).toBeGreaterThanOrEqual(now);
      expect(r.reset).toBeLessThanOrEqual(after + 3600 + 1);
    }

    const over = await get(`token ${t.writer.token}`);
    expect(over).toMatchObject({ status: 403, limit: 5, remaining: 0, used: 5, resource: "core" });
    expect(over.body).toEqual({ message: `API rate limit exceeded for user ID ${t.writer.user.id}.`, documentation_url: RATE_LIMIT_DOCS });
    expect(Number(over.retryAfter)).toBeGreaterThan(0);
    expect(Number(over.retryAfter)).toBeLessThanOrEqual(3600);
    // writes are refused too, before anything is written
    const post = await fetch(`${api}/statuses/${await t.wt.sha("HEAD")}`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.writer.token}`, "content-type": "application/json" },
      body: JSON.stringify({ state: "success", context: "over" }),
    });
    expect(post.status).toBe(403);

    // the budget is the user's: another token of the same user shares it, another user has their own
    expect((await get(`token ${await makeToken(t.writer.user, ["repo:read"])}`)).status).toBe(403);
    expect(await get(`token ${t.reader.token}`)).toMatchObject({ status: 200, limit: 5, remaining: 4 });
  });

  it("counts anonymous requests per address, apart from the users' budgets; errors carry the headers too", async () => {
    const a = freshAddress();
    const b = freshAddress();
    // the repository is private: anonymous callers get 404, which counts and carries the headers
    const first = await get(null, a);
    expect(first).toMatchObject({ status: 404, limit: 3, remaining: 2, used: 1, resource: "core" });
    expect((await get(null, a, "/no/such/path")).remaining).toBe(1);
    expect((await get(null, a)).remaining).toBe(0);
    const over = await get(null, a);
    expect(over).toMatchObject({ status: 403, remaining: 0 });
    expect(over.body.message).toBe(
      `API rate limit exceeded for ${a}. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)`,
    );
    // another address, and a user from the same address, have their own budgets
    expect(await get(null, b)).toMatchObject({ status: 404, remaining: 2 });
    expect(await get(`token ${t.owner.token}`, a)).toMatchObject({ status: 200, limit: 5, remaining: 4 });
  });

  it("counts requests with bad credentials against the address", async () => {
    const a = freshAddress();
    const bad = await get("token svc_notavalidtoken", a);
    expect(bad).toMatchObject({ status: 401, limit: 3, remaining: 2 });
    expect(bad.body.message).toBe("Bad credentials");
    await get(null, a);
    await get("token svc_notavalidtoken", a);
    expect(await get("token svc_notavalidtoken", a)).toMatchObject({ status: 403, remaining: 0 });
  });

  describe("in Redis (REDIS_URL)", () => {
    const prefix = `svc-test-${randomBytes(6).toString("hex")}`;
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    afterAll(async () => {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
      await closeRateLimits();
      delete process.env.REDIS_URL;
      delete process.env.REDIS_KEY_PREFIX;
    });

    it("keeps the budget in Redis: a fresh process (new limiters) continues the count", async () => {
      process.env.REDIS_URL = REDIS_URL;
      process.env.REDIS_KEY_PREFIX = prefix;
      await closeRateLimits();
      expect(await get(`token ${t.reader2.token}`)).toMatchObject({ status: 200, remaining: 4 });
      expect(await get(`token ${t.reader2.token}`)).toMatchObject({ status: 200, remaining: 3 });
      expect((await redis.keys(`${prefix}:rl:restApi:*`)).length).toBe(1);
      await closeRateLimits();
      expect(await get(`token ${t.reader2.token}`)).toMatchObject({ status: 200, remaining: 2, used: 3 });
    });
  });
});
