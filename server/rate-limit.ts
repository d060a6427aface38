/**
 * Rate limits with rate-limiter-flexible: in this process's memory by default; in Redis when
 * REDIS_URL is set, so every svc process shares the counts (with an in-memory insurance limiter
 * if Redis is unreachable). Limits are declared once in LIMITS and named by key.
 * A refusal is AppError TOO_MANY_REQUESTS with `retryAfter` in seconds.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { Redis } from "ioredis";
import { AppError } from "@/server/errors";

export interface LimitSpec {
  /** Attempts allowed per window. */
  points: number;
  /** Window length in seconds. */
  durationS: number;
  /** What is being limited, for the refusal message. */
  what: string;
}

/** Every limit svc applies. */
export const LIMITS = {
  /** Failed password sign-ins per username (brute-force protection); a success resets it. */
  signInFailures: { points: 10, durationS: 15 * 60, what: "failed sign-in attempts for this account" },
} satisfies Record<string, LimitSpec>;
export type LimitName = keyof typeof LIMITS;

const globalForLimits = globalThis as unknown as { __svcLimiters?: Map<string, RateLimiterAbstract>; __svcRedis?: Redis };

function redisClient(url: string): Redis {
  if (!globalForLimits.__svcRedis) {
    globalForLimits.__svcRedis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    globalForLimits.__svcRedis.on("error", () => {}); // the insurance limiter takes over; reconnects automatically
  }
  return globalForLimits.__svcRedis;
}

function limiter(name: LimitName): RateLimiterAbstract {
  const map = (globalForLimits.__svcLimiters ??= new Map());
  const redisUrl = process.env.REDIS_URL;
  const prefix = `${process.env.REDIS_KEY_PREFIX || "svc"}:rl:${name}`;
  const cacheKey = `${redisUrl ?? "memory"}|${prefix}`;
  let l = map.get(cacheKey);
  if (!l) {
    const spec: LimitSpec = LIMITS[name];
    const memory = new RateLimiterMemory({ keyPrefix: prefix, points: spec.points, duration: spec.durationS });
    l = redisUrl
      ? new RateLimiterRedis({ storeClient: redisClient(redisUrl), keyPrefix: prefix, points: spec.points, duration: spec.durationS, insuranceLimiter: memory })
      : memory;
    map.set(cacheKey, l);
  }
  return l;
}

function refusal(name: LimitName, msBeforeNext: number): AppError {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  const minutes = Math.ceil(retryAfter / 60);
  return new AppError("TOO_MANY_REQUESTS", `too many ${LIMITS[name].what}; try again in ${retryAfter < 120 ? `${retryAfter} seconds` : `${minutes} minutes`}`, retryAfter);
}

/** Throws TOO_MANY_REQUESTS when `key` has used up `name`'s points in the current window; uses nothing. */
export async function assertUnderLimit(name: LimitName, key: string): Promise<void> {
  const res = await limiter(name).get(key);
  if (res && res.consumedPoints >= LIMITS[name].points) throw refusal(name, res.msBeforeNext);
}

/** Uses one point of `name` for `key`. Throws TOO_MANY_REQUESTS when none is left. */
export async function consume(name: LimitName, key: string): Promise<void> {
  try {
    await limiter(name).consume(key);
  } catch (e) {
    if (e instanceof RateLimiterRes) throw refusal(name, e.msBeforeNext);
    throw e;
  }
}

/** Uses one point without refusing (counting failures). */
export async function penalize(name: LimitName, key: string): Promise<void> {
  await limiter(name).penalty(key, 1);
}

/** Forgets `key`'s count (e.g. after a successful sign-in). */
export async function reset(name: LimitName, key: string): Promise<void> {
  await limiter(name).delete(key);
}

/** Closes the Redis connection, if any (tests, shutdown). */
export async function closeRateLimits(): Promise<void> {
  const redis = globalForLimits.__svcRedis;
  globalForLimits.__svcRedis = undefined;
  globalForLimits.__svcLimiters = undefined;
  await redis?.quit().catch(() => {});
}
