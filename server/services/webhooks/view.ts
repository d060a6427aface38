/** The API shapes of webhooks and their deliveries (docs/api.md "Webhooks"). The secret is never part of them. */
import type { Prisma } from "@/server/db";
import { parseEvents } from "./events";

/** A webhook as the API returns it: `hasSecret` instead of the secret. */
export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  contentType: "json";
  hasSecret: boolean;
  createdAt: string;
  updatedAt: string;
  /** The newest delivery's state and response status, or null before any. */
  lastDelivery: { state: string; responseStatus: number | null; createdAt: string } | null;
}

export const webhookSelect = {
  id: true,
  url: true,
  events: true,
  active: true,
  encryptedSecret: true,
  createdAt: true,
  updatedAt: true,
  deliveries: { orderBy: { createdAt: "desc" }, take: 1, select: { state: true, responseStatus: true, createdAt: true } },
} satisfies Prisma.WebhookSelect;

type WebhookRow = Prisma.WebhookGetPayload<{ select: typeof webhookSelect }>;

export function toWebhookView(r: WebhookRow): WebhookView {
  const last = r.deliveries[0];
  return {
    id: r.id,
    url: r.url,
    events: parseEvents(r.events),
    active: r.active,
    contentType: "json",
    hasSecret: r.encryptedSecret !== null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    lastDelivery: last ? { state: last.state, responseStatus: last.responseStatus, createdAt: last.createdAt.toISOString() } : null,
  };
}

/** One delivery: the request as sent and the last attempt's response. */
export interface DeliveryView {
  id: string;
  guid: string;
  event: string;
  action: string | null;
  state: string;
  attempts: number;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
  durationMs: number | null;
  redeliveryOfId: string | null;
  request: { headers: Record<string, string>; body: string };
  response: { status: number | null; headers: Record<string, string> | null; body: string | null; error: string | null };
}

type DeliveryRow = Prisma.WebhookDeliveryGetPayload<object>;

const obj = (s: string | null): Record<string, string> | null => {
  if (s === null) return null;
  try {
    return JSON.parse(s) as Record<string, string>;
  } catch {
    return {};
  }
};

/**
 * The delivery as the API shows it. While an attempt is in flight (claimed: pending, attempts
 * made, no duration recorded yet) its `nextAttemptAt` is the attempt's lease
 * (deliver-webhook.ts ATTEMPT_LEASE_MS), not a scheduled retry, so it is shown as null.
 */
export function toDeliveryView(d: DeliveryRow): DeliveryView {
  const inFlight = d.state === "pending" && d.attempts > 0 && d.durationMs === null;
  return {
    id: d.id,
    guid: d.guid,
    event: d.event,
    action: d.action,
    state: d.state,
    attempts: d.attempts,
    nextAttemptAt: inFlight ? null : (d.nextAttemptAt?.toISOString() ?? null),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    durationMs: d.durationMs,
    redeliveryOfId: d.redeliveryOfId,
    request: { headers: obj(d.requestHeaders) ?? {}, body: d.requestBody },
    response: { status: d.responseStatus, headers: obj(d.responseHeaders), body: d.responseBody, error: d.error },
  };
}
