/**
 * The REST API's rate limit (docs/api.md "REST rate limit"), GitHub's primary limit: every
 * /api/v3 request uses one point of an hourly budget — the user's (`restApi`, all of their tokens
 * and sessions together, as GitHub counts personal access tokens) or, without credentials or with
 * bad ones, the client address's (`restApiAnonymous`). The counts live in server/rate-limit.ts's
 * limiters: in Redis when REDIS_URL is set, so the budget holds across svc processes.
 *
 * Every answer carries GitHub's headers (X-RateLimit-Limit, -Remaining, -Reset in epoch seconds,
 * -Used, -Resource: core). Over the budget the answer is GitHub's primary-limit refusal: 403 with
 * `{message: "API rate limit exceeded for …", documentation_url}` and X-RateLimit-Remaining 0
 * (what Octokit's throttling plugin and gh recognise), plus Retry-After (RFC 9110) for generic clients.
 */
import type { Actor } from "@/server/auth/actor";
import { clientAddress } from "@/server/http/client-address";
import { addressKey, take, type LimitState } from "@/server/rate-limit";

/** GitHub's page on the REST API's rate limits (the refusal's documentation_url). */
export const RATE_LIMIT_DOCS = "https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api";

/** The hourly budgets: 5,000 per user, 60 per address (GitHub's numbers). */
export const DEFAULT_REST_LIMITS = { authenticated: 5000, anonymous: 60 } as const;

/** SVC_REST_RATE_LIMIT and SVC_REST_RATE_LIMIT_ANONYMOUS: requests per hour, 1–10,000,000; anything else → the default. */
export function restLimitsFromEnv(env: Record<string, string | undefined> = process.env): { authenticated: number; anonymous: number } {
  const read = (raw: string | undefined, fallback: number) => {
    const v = raw?.trim();
    return v && /^\d{1,8}$/.test(v) && Number(v) >= 1 && Number(v) <= 10_000_000 ? Number(v) : fallback;
  };
  return {
    authenticated: read(env.SVC_REST_RATE_LIMIT, DEFAULT_REST_LIMITS.authenticated),
    anonymous: read(env.SVC_REST_RATE_LIMIT_ANONYMOUS, DEFAULT_REST_LIMITS.anonymous),
  };
}

/** One request's standing against its budget, and whose budget it is (for the refusal's words). */
export interface RestBudget extends LimitState {
  /** "user ID <id>" or the client address, as GitHub names them. */
  holder: string;
  anonymous: boolean;
}

/**
 * Uses one request of the caller's budget: the user's when `actor` is set, else the address's
 * (`addressKey`; requests without an address share the key "unknown").
 */
export async function takeRestBudget(actor: Actor | null, headers: Headers): Promise<RestBudget> {
  const limits = restLimitsFromEnv();
  if (actor) {
    const state = await take("restApi", `u:${actor.user.id}`, limits.authenticated);
    return { ...state, holder: `user ID ${actor.user.id}`, anonymous: false };
  }
  const address = clientAddress(headers);
  const state = await take("restApiAnonymous", `a:${addressKey(address)}`, limits.anonymous);
  return { ...state, holder: address, anonymous: true };
}

/** Sets GitHub's X-RateLimit-* headers of `budget` on `res` (mutable headers: a Response made here) and returns it. */
export function withRateHeaders(res: Response, budget: RestBudget | null): Response {
  if (!budget) return res;
  res.headers.set("x-ratelimit-limit", String(budget.limit));
  res.headers.set("x-ratelimit-remaining", String(budget.remaining));
  res.headers.set("x-ratelimit-reset", String(budget.resetAt));
  res.headers.set("x-ratelimit-used", String(budget.used));
  res.headers.set("x-ratelimit-resource", "core");
  return res;
}

/** GitHub's primary-limit refusal: 403 with its message, the headers and Retry-After (seconds until the reset). */
export function rateLimitExceeded(budget: RestBudget): Response {
  const message = budget.anonymous
    ? `API rate limit exceeded for ${budget.holder}. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)`
    : `API rate limit exceeded for ${budget.holder}.`;
  const res = new Response(JSON.stringify({ message, documentation_url: RATE_LIMIT_DOCS }), {
    status: 403,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "retry-after": String(Math.max(1, budget.resetAt - Math.ceil(Date.now() / 1000))),
    },
  });
  return withRateHeaders(res, budget);
}
