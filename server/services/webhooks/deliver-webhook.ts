/**
 * Sending a webhook delivery (docs/api.md "Webhooks"), run by the `webhooks.deliver` job — never
 * on a request's path. One call is one attempt; a retryable failure queues the next attempt.
 */
import type { Db } from "@/server/db";
import { enqueue } from "@/server/jobs";
import { WEBHOOK_DELIVER } from "@/server/jobs/names";
import { RefusedDestinationError } from "@/server/ai/provider-fetch";
import { webhookFetch } from "./webhook-url";

/** Attempts per delivery (GitHub-like receivers expect a few retries, not a flood). */
export const MAX_ATTEMPTS = 5;
/** Wait before attempt 2, 3, 4, 5 (ms): 1 + 5 + 15 + 40 min, about an hour in all. */
export const RETRY_DELAYS_MS = [60_000, 300_000, 900_000, 2_400_000] as const;
/** A delivery's request is abandoned after this long (ms). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** At most this much of a response is read (bytes); the rest is dropped. */
export const MAX_RESPONSE_READ = 1024 * 1024;
/** The first bytes of the response body stored with the delivery. */
export const STORED_RESPONSE_BYTES = 1024;

/** Reads at most MAX_RESPONSE_READ bytes of `body` and returns the first STORED_RESPONSE_BYTES. */
async function readBounded(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const kept: Uint8Array[] = [];
  let total = 0;
  let keptBytes = 0;
  try {
    while (total < MAX_RESPONSE_READ) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (keptBytes < STORED_RESPONSE_BYTES) {
        kept.push(value.subarray(0, STORED_RESPONSE_BYTES - keptBytes));
        keptBytes += Math.min(value.byteLength, STORED_RESPONSE_BYTES - keptBytes);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(kept).toString("utf8");
}

type Outcome =
  | { kind: "answer"; status: number; headers: Record<string, string>; body: string }
  | { kind: "error"; message: string; retryable: boolean };

async function send(url: string, headers: Record<string, string>, body: string): Promise<Outcome> {
  try {
    const res = await webhookFetch()(url, { method: "POST", headers, body, signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
    const text = await readBounded(res.body);
    return { kind: "answer", status: res.status, headers: Object.fromEntries(res.headers.entries()), body: text };
  } catch (e) {
    if (e instanceof RefusedDestinationError) return { kind: "error", message: e.message, retryable: false };
    const err = e as Error & { cause?: Error };
    if (err.name === "TimeoutError" || err.name === "AbortError")
      return { kind: "error", message: `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`, retryable: true };
    if (err.cause instanceof RefusedDestinationError) return { kind: "error", message: err.cause.message, retryable: false };
    return { kind: "error", message: `could not connect: ${err.cause?.message ?? err.message}`, retryable: true };
  }
}

/**
 * How long an attempt may be in flight before it counts as lost (ms): the request's timeout and
 * a margin for recording its outcome. A claimed attempt's `nextAttemptAt` is set this far ahead,
 * so a process that dies mid-attempt leaves a delivery the sweep (sweep-deliveries.ts) finds due.
 */
export const ATTEMPT_LEASE_MS = DELIVERY_TIMEOUT_MS + 50_000;

/**
 * Makes attempt `attempt` (1–MAX_ATTEMPTS) of delivery `deliveryId`: POSTs the stored body with
 * the stored headers to the hook's current URL (DELIVERY_TIMEOUT_MS timeout, at most
 * MAX_RESPONSE_READ bytes read, redirects recorded as answers, never followed; addresses checked
 * by webhook-url.ts) and records the outcome on the row: `delivered` for a 2xx; `pending` with
 * `nextAttemptAt` and the next attempt queued for a network error, a timeout or a 5xx while
 * attempts remain; otherwise `failed` (a 4xx or 3xx, a refused address, the last attempt).
 *
 * Idempotent per attempt: the attempt is claimed first with one conditional update (still
 * pending, fewer attempts made; `attempts` set to `attempt`, `nextAttemptAt` to the end of its
 * lease, ATTEMPT_LEASE_MS), so of two jobs for the same attempt — the job runs at least once, and
 * the sweep may queue an attempt whose job is late — one sends and the other is skipped, in one
 * process or several. A delivery no longer pending, an attempt already made or a deleted hook is
 * skipped. Returns the row's state after the call ("skipped" when not claimed). Errors: database
 * errors (the job retries; an attempt claimed but not recorded is found by the sweep).
 */
export async function deliverWebhook(db: Db, deliveryId: string, attempt: number): Promise<"delivered" | "pending" | "failed" | "skipped"> {
  const claimed = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, state: "pending", attempts: { lt: attempt } },
    data: { attempts: attempt, nextAttemptAt: new Date(Date.now() + ATTEMPT_LEASE_MS), durationMs: null },
  });
  if (claimed.count === 0) return "skipped";
  const d = await db.webhookDelivery.findUnique({
    where: { id: deliveryId },
    select: { requestHeaders: true, requestBody: true, webhook: { select: { url: true } } },
  });
  if (!d) return "skipped";
  const started = performance.now();
  const outcome = await send(d.webhook.url, JSON.parse(d.requestHeaders) as Record<string, string>, d.requestBody);
  const durationMs = Math.round(performance.now() - started);
  const ok = outcome.kind === "answer" && outcome.status >= 200 && outcome.status < 300;
  const retryable = outcome.kind === "error" ? outcome.retryable : outcome.status >= 500;
  const retry = !ok && retryable && attempt < MAX_ATTEMPTS;
  const nextAttemptAt = retry ? new Date(Date.now() + RETRY_DELAYS_MS[attempt - 1]!) : null;
  const state = ok ? "delivered" : retry ? "pending" : "failed";
  // only while this attempt is still the latest: one the sweep started after this one's lease ran out owns the row now
  const recorded = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, state: "pending", attempts: attempt },
    data: {
      state,
      durationMs,
      nextAttemptAt,
      deliveredAt: ok ? new Date() : null,
      responseStatus: outcome.kind === "answer" ? outcome.status : null,
      responseHeaders: outcome.kind === "answer" ? JSON.stringify(outcome.headers) : null,
      responseBody: outcome.kind === "answer" ? outcome.body : null,
      error: outcome.kind === "error" ? outcome.message : null,
    },
  });
  if (recorded.count === 0) return "skipped";
  if (retry)
    await enqueue(
      WEBHOOK_DELIVER,
      { deliveryIds: [deliveryId], attempt: attempt + 1 },
      { singletonKey: `${deliveryId}:${attempt + 1}`, runAt: nextAttemptAt! },
    );
  return state;
}
