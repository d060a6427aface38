/**
 * Rate limits with rate-limiter-flexible: in this process's memory by default; in Redis when
 * REDIS_URL is set, so every svc process shares the counts. Limits are declared once in LIMITS
 * and named by key. A refusal is AppError TOO_MANY_REQUESTS with `retryAfter` in seconds.
 *
 * When Redis is unreachable the limits never wait for it (docs/architecture.md "Redis outages"):
 * the connection (server/redis.ts) refuses commands at once, and each limit's in-memory
 * `insuranceLimiter` counts in this process until Redis is back; the counts kept in Redis
 * meanwhile are untouched and used again from then on.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Redis } from "ioredis";
import { isIPv6 } from "node:net";
import { AppError } from "@/server/errors";
import { closeRedis, createRedis, whenReady } from "@/server/redis";

export interface LimitSpec {
  /** Attempts allowed per window. */
  points: number;
  /** Window length in seconds. */
  durationS: number;
  /** What is being limited, for the refusal message. */
  what: string;
}

/**
 * Every limit svc applies (numbers and reasons: docs/api.md "Rate limits").
 * Keys: an address is `addressKey(clientAddress(headers))`; an account is the lower-cased
 * username; a user is the user id.
 */
export const LIMITS = {
  /** users.signUp attempts per address (valid or not; the CLI is not limited). */
  signUps: { points: 30, durationS: 60 * 60, what: "sign-up attempts from your address" },
  /** Failed sign-ins per (address, account): consumed before the password check, reset by a success. */
  signInFailures: { points: 10, durationS: 15 * 60, what: "failed sign-in attempts for this account from your address" },
  /** Failed sign-ins per address, over all accounts (password spraying). A success gives its point back. */
  signInAddressFailures: { points: 50, durationS: 15 * 60, what: "failed sign-in attempts from your address" },
  /**
   * Failed sign-ins per account from addresses that never signed in to it (distributed guessing).
   * One address adds at most 10 per 15 minutes, so only many addresses reach it, and addresses
   * the owner signed in from (signInKnownAddress) are never held by it.
   */
  signInAccountFailures: {
    points: 100,
    durationS: 60 * 60,
    what: "failed sign-in attempts for this account; sign in from an address you used before, or wait",
  },
  /**
   * Marker: (address, account) pairs with a successful sign-in in the last 14 days. (The memory
   * store times keys out with setTimeout, so a window must stay under 2^31 ms, about 24.8 days.)
   */
  signInKnownAddress: { points: 1, durationS: 14 * 24 * 60 * 60, what: "known sign-in addresses" },
  /**
   * Passkey challenges made (users.passkeys.signInOptions, secondFactorOptions,
   * registrationOptions) per address, or per user when signed in: each stores an AuthChallenge
   * row for 5 minutes, so anonymous callers must not fill the table (docs/security.md "Passkeys").
   */
  passkeyChallenges: { points: 60, durationS: 15 * 60, what: "passkey requests" },
  /** Issues opened per user where the user has only read permission (they land in triage). */
  issuesAsReader: { points: 30, durationS: 60 * 60, what: "issues opened in repositories where you have read access" },
  /** Issues opened per user with write permission or more (bulk imports through the API). */
  issuesAsWriter: { points: 1000, durationS: 60 * 60, what: "issues opened" },
  /** Comments per user where the user has only read permission. */
  commentsAsReader: { points: 60, durationS: 60 * 60, what: "comments in repositories where you have read access" },
  /** Comments per user with write permission or more (bots, imports). */
  commentsAsWriter: { points: 600, durationS: 60 * 60, what: "comments" },
  /**
   * Current-password checks per user when changing the password (users.changePassword):
   * taken before the check, cleared by a correct password, so a stolen session cannot guess it.
   */
  passwordChecks: { points: 10, durationS: 15 * 60, what: "password attempts for your account" },
  /** Personal access tokens created per user. */
  tokenCreations: { points: 30, durationS: 60 * 60, what: "tokens created" },
  /**
   * POST /api/highlight requests per address (the diff viewer's highlighting of files it scrolls
   * to; each at most 2,000 lines): anonymous CPU work, so bounded per address.
   */
  highlightRequests: { points: 120, durationS: 60, what: "highlighting requests from your address" },
  /**
   * AI procedures per user (per address when anonymous), the spec's Limits table (docs/ai.md "Rate
   * limits"). Applied by procedure path in server/api/procedure-limits.ts (PROCEDURE_LIMITS), not
   * by the services. Not in the spec (docs/ai.md "Rate limits"): summarizeForSquash, status, the AI
   * review re-run, and changes to repository AI keys.
   */
  aiGeneratePRDescription: { points: 10, durationS: 60, what: "pull request descriptions generated" },
  aiExplainFileDiff: { points: 30, durationS: 60, what: "file explanations" },
  aiSuggestConflictResolution: { points: 20, durationS: 60, what: "conflict resolution suggestions" },
  aiChat: { points: 30, durationS: 60, what: "chat messages" },
  aiSemanticSearch: { points: 60, durationS: 60, what: "semantic searches" },
  aiSummarizeForSquash: { points: 30, durationS: 60, what: "squash messages generated" },
  aiStatus: { points: 120, durationS: 60, what: "AI status requests" },
  aiReviewRuns: { points: 10, durationS: 60, what: "AI review runs" },
  /**
   * Coding-agent turns per user (docs/agent.md "Limits"): ONE bucket for agent.chat,
   * agent.chatStream and POST /api/agent/stream, as ai.chat (30 per minute). Each turn runs up to
   * AGENT_MAX_STEPS model calls.
   */
  agentChat: { points: 30, durationS: 60, what: "agent messages" },
  /** repoAiKeys.set per user. */
  aiKeyChanges: { points: 30, durationS: 60 * 60, what: "AI key changes" },
  /**
   * /api/v3 requests per user (all of a user's tokens and sessions together, as GitHub's primary
   * limit for personal access tokens), GitHub's 5,000 an hour. SVC_REST_RATE_LIMIT overrides the
   * points (server/http/rest-v3/rate-limit.ts, docs/api.md "REST rate limit").
   */
  restApi: { points: 5000, durationS: 60 * 60, what: "API requests" },
  /** /api/v3 requests per address without credentials (or with bad ones), GitHub's 60 an hour; SVC_REST_RATE_LIMIT_ANONYMOUS. */
  restApiAnonymous: { points: 60, durationS: 60 * 60, what: "API requests from your address" },
} satisfies Record<string, LimitSpec>;
export type LimitName = keyof typeof LIMITS;

const globalForLimits = globalThis as unknown as {
  __svcLimiters?: Map<string, RateLimiterAbstract>;
  __svcRedis?: { url: string; client: Redis };
};

/** This process's one limiter connection to `url` (a new one if REDIS_URL changed, tests). */
function redisClient(url: string): Redis {
  const current = globalForLimits.__svcRedis;
  if (current?.url === url) return current.client;
  if (current) void closeRedis(current.client);
  const client = createRedis(url, "limiter");
  globalForLimits.__svcRedis = { url, client };
  return client;
}

/**
 * The limiter of `name` (with `points` per window, the limit's own unless configured otherwise),
 * once its Redis connection (if any) is ready, down, or has had REDIS_COMMAND_TIMEOUT_MS to
 * connect: the first limit of a new process counts in Redis.
 */
async function limiter(name: LimitName, points: number = LIMITS[name].points): Promise<RateLimiterAbstract> {
  const map = (globalForLimits.__svcLimiters ??= new Map());
  const redisUrl = process.env.REDIS_URL || undefined;
  const prefix = `${process.env.REDIS_KEY_PREFIX || "svc"}:rl:${name}`;
  const cacheKey = `${redisUrl ?? "memory"}|${prefix}|${points}`;
  let l = map.get(cacheKey);
  if (!l) {
    const spec: LimitSpec = { ...LIMITS[name], points };
    const memory = new RateLimiterMemory({ keyPrefix: prefix, points: spec.points, duration: spec.durationS });
    l = redisUrl
      ? new RateLimiterRedis({
          storeClient: redisClient(redisUrl),
          keyPrefix: prefix,
          points: spec.points,
          duration: spec.durationS,
          // Redis not ready → this process's memory at once (rate-limiter-flexible's insurance)
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;
    map.set(cacheKey, l);
  }
  if (redisUrl) await whenReady(redisClient(redisUrl));
  return l;
}

function refusal(name: LimitName, msBeforeNext: number): AppError {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  const minutes = Math.ceil(retryAfter / 60);
  return new AppError(
    "TOO_MANY_REQUESTS",
    `too many ${LIMITS[name].what}; try again in ${retryAfter < 120 ? `${retryAfter} seconds` : `${minutes} minutes`}`,
    retryAfter,
  );
}

/** Uses one point of `name` for `key`. Throws TOO_MANY_REQUESTS when none is left. */
export async function consume(name: LimitName, key: string): Promise<void> {
  try {
    await (await limiter(name)).consume(key);
  } catch (e) {
    if (e instanceof RateLimiterRes) throw refusal(name, e.msBeforeNext);
    throw e;
  }
}

/** A limit's count for one key after `take`: what GitHub's X-RateLimit-* headers carry. */
export interface LimitState {
  /** Points per window. */
  limit: number;
  /** Points left in this window (0 when refused). */
  remaining: number;
  /** Points used in this window, at most `limit`. */
  used: number;
  /** When the window ends: epoch seconds. */
  resetAt: number;
  /** False: the point was refused (over the limit). */
  allowed: boolean;
}

/**
 * Uses one point of `name` for `key` (`points` per window: the limit's own unless configured
 * otherwise) and says where the count stands; never throws for a refusal (`allowed` false), so
 * the caller can answer in its own shape (the REST API's GitHub errors).
 */
export async function take(name: LimitName, key: string, points: number = LIMITS[name].points): Promise<LimitState> {
  const state = (r: RateLimiterRes, allowed: boolean): LimitState => ({
    limit: points,
    remaining: allowed ? Math.max(0, r.remainingPoints) : 0,
    used: Math.min(points, r.consumedPoints),
    resetAt: Math.ceil((Date.now() + r.msBeforeNext) / 1000),
    allowed,
  });
  try {
    return state(await (await limiter(name, points)).consume(key), true);
  } catch (e) {
    if (e instanceof RateLimiterRes) return state(e, false);
    throw e;
  }
}

/**
 * Gives `points` back to `key` (an attempt that was refused further on, or succeeded). Call it
 * right after the matching `consume`: if the window ended in between, the key restarts below
 * zero (one extra point in the next window), which is harmless for the uses here.
 */
export async function reward(name: LimitName, key: string, points = 1): Promise<void> {
  await (await limiter(name)).reward(key, points);
}

/** Records `key` under `name` for the limit's whole window (a marker, e.g. a known address). */
export async function mark(name: LimitName, key: string): Promise<void> {
  await (await limiter(name)).set(key, 1, LIMITS[name].durationS);
}

/** Whether `key` was marked (`mark`) within `name`'s window. */
export async function isMarked(name: LimitName, key: string): Promise<boolean> {
  return ((await (await limiter(name)).get(key))?.consumedPoints ?? 0) >= 1;
}

/** Forgets `key`'s count (e.g. after a successful sign-in). */
export async function reset(name: LimitName, key: string): Promise<void> {
  await (await limiter(name)).delete(key);
}

/**
 * The limit key of a client address (from `clientAddress`): IPv4 as is; IPv6 by its /64 network,
 * since one subscriber usually gets a whole /64 (RFC 6177) and could otherwise step through it;
 * anything else ("unknown") as is.
 */
export function addressKey(address: string): string {
  const plain = address.replace(/%.*$/, "");
  if (!isIPv6(plain)) return address;
  const [head, tail = ""] = plain.split("::");
  const groups = (s: string) => (s ? s.split(":") : []).flatMap((g) => (g.includes(".") ? ["0", "0"] : [g]));
  const left = groups(head);
  const right = plain.includes("::") ? groups(tail) : [];
  const all = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/**
 * Closes the Redis connection, if any, and forgets the limiters (tests, shutdown, the end of
 * every CLI command: an open connection keeps a process alive). Never throws.
 */
export async function closeRateLimits(): Promise<void> {
  const redis = globalForLimits.__svcRedis;
  globalForLimits.__svcRedis = undefined;
  globalForLimits.__svcLimiters = undefined;
  await closeRedis(redis?.client);
}
