/**
 * Rate limits by procedure path (docs/ai.md "Rate limits"; spec "Limits"): the one place that
 * says which tRPC procedures are limited per user, so a procedure in this table is limited
 * without calling anything itself. The procedure tiers in server/api/trpc.ts call
 * `limitProcedure` right after the access check passes (so a refused call never uses a point and
 * a caller over the limit still gets the access answer first), before the procedure's own input
 * is validated: an invalid call counts too.
 *
 * Key: the user id; anonymous callers (public repositories) by address (`addressKey`). An
 * anonymous in-process call has no address (a server component rendering a public page for a
 * visitor who is not signed in): it is not limited, since every such visitor would otherwise
 * share one count; over HTTP svc's server always sets the address (client-address.ts).
 * Over the limit: AppError TOO_MANY_REQUESTS with retryAfter seconds; the HTTP adapter sends it as
 * `Retry-After` and the message says how long to wait (server/rate-limit.ts `refusal`).
 */
import type { Actor } from "@/server/auth/actor";
import { clientAddress } from "@/server/http/client-address";
import { addressKey, consume, type LimitName } from "@/server/rate-limit";

/** Procedure path → its limit in server/rate-limit.ts LIMITS. */
export const PROCEDURE_LIMITS: Readonly<Record<string, LimitName>> = {
  "ai.generatePRDescription": "aiGeneratePRDescription", // spec: 10 per minute
  "ai.explainFileDiff": "aiExplainFileDiff", // spec: 30 per minute
  "ai.suggestConflictResolution": "aiSuggestConflictResolution", // spec: 20 per minute
  "ai.chat": "aiChat", // spec: 30 per minute
  "ai.semanticSearch": "aiSemanticSearch", // spec: 60 per minute
  "ai.summarizeForSquash": "aiSummarizeForSquash", // not in the spec: 30 per minute
  "ai.status": "aiStatus", // not in the spec: 120 per minute
  "pulls.triggerAIReview": "aiReviewRuns", // not in the spec: 10 per minute
  // coding agent (docs/agent.md "Limits"): one bucket for both transports (POST /api/agent/stream
  // takes it too)
  "agent.chat": "agentChat", // not in the spec: 30 per minute
  "agent.chatStream": "agentChat",
  // passkey challenges (docs/security.md "Passkeys"): each stores a row for 5 minutes
  "users.passkeys.signInOptions": "passkeyChallenges",
  "users.passkeys.secondFactorOptions": "passkeyChallenges",
  "users.passkeys.registrationOptions": "passkeyChallenges",
};

/** The limit key of a caller: `u:<user id>`, `a:<address>` when anonymous, null when anonymous without an address. */
export function callerKey(actor: Actor | null, headers: Headers): string | null {
  if (actor) return `u:${actor.user.id}`;
  const address = clientAddress(headers);
  return address === "unknown" ? null : `a:${addressKey(address)}`;
}

/**
 * Uses one point of `path`'s limit for the caller; nothing when the path has no limit.
 * @throws AppError TOO_MANY_REQUESTS (retryAfter seconds) when the caller is over the limit.
 */
export async function limitProcedure(path: string, actor: Actor | null, headers: Headers): Promise<void> {
  const name = PROCEDURE_LIMITS[path];
  const key = name ? callerKey(actor, headers) : null;
  if (name && key) await consume(name, key);
}
