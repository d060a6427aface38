import { afterAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { getDb } from "@/server/db";
import { authenticate } from "@/server/services/users/sign-in";
import { LIMITS, closeRateLimits, consume } from "@/server/rate-limit";
import { makeUser } from "../helpers";

const REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

async function failTimes(username: string, n: number) {
  const db = await getDb();
  for (let i = 0; i < n; i++) expect(await authenticate(db, username, "wrong password")).toBeNull();
}

async function signInFailuresBehave() {
  const db = await getDb();
  const user = await makeUser("rl");
  const other = await makeUser("rl");
  await failTimes(user.username, LIMITS.signInFailures.points - 1);
  // a success below the limit clears the count
  expect(await authenticate(db, user.username, "password123")).toMatchObject({ id: user.id });
  await failTimes(user.username, LIMITS.signInFailures.points);
  // now even the right password is refused, with a retry-after
  await expect(authenticate(db, user.username.toUpperCase(), "password123")).rejects.toMatchObject({
    code: "TOO_MANY_REQUESTS",
    message: expect.stringMatching(/too many failed sign-in attempts for this account from your address; try again in \d+ minutes/),
    retryAfter: expect.any(Number),
  });
  // other accounts are unaffected
  expect(await authenticate(db, other.username, "password123")).toMatchObject({ id: other.id });
  // unknown usernames are counted like real ones
  await failTimes("nobody-here", LIMITS.signInFailures.points);
  await expect(authenticate(db, "nobody-here", "x")).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
}

describe("sign-in brute-force limit", () => {
  it("in memory (default)", async () => {
    delete process.env.REDIS_URL;
    await signInFailuresBehave();
  });

  describe("in Redis (REDIS_URL), shared between processes", () => {
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

    it("stores counts under the key prefix and refuses across limiter instances", async () => {
      process.env.REDIS_URL = REDIS_URL;
      process.env.REDIS_KEY_PREFIX = prefix;
      await signInFailuresBehave();
      expect((await redis.keys(`${prefix}:rl:signInFailures:*`)).length).toBeGreaterThan(0);
      // a fresh process (new limiter instances, same Redis) sees the same counts
      await closeRateLimits();
      // (authenticate without an address counts under "unknown"; keys are "<address>|<account>")
      await expect(consume("signInFailures", "unknown|nobody-here")).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
      await expect(authenticate(await getDb(), "nobody-here", "x")).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    });
  });
});
