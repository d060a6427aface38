/**
 * The webhook event vocabulary (docs/api.md "Webhooks"): GitHub's event names for what svc emits,
 * and the shapes of the webhook procedures' input. `*` subscribes to every event.
 */
import { z } from "zod";
import { uuid } from "@/server/validation/ids";
import { line, text } from "@/server/validation/strings";
import { WEBHOOK_EVENTS, type WebhookEventName } from "@/lib/webhooks/events";

export { WEBHOOK_EVENTS, type WebhookEventName };

/** Deliveries older than this are deleted (GitHub keeps them about as long). */
export const DELIVERY_RETENTION_MS = 14 * 24 * 3_600_000;

/** Webhooks per repository (GitHub allows 20 per event; one bound keeps a push's fan-out small). */
export const MAX_WEBHOOKS_PER_REPO = 20;

const eventName = z.enum([...WEBHOOK_EVENTS, "*"]);

const url = line("url").trim().min(1, "url is required").max(2_000, "url is at most 2,000 characters");
const secret = text("secret").max(1_000, "secret is at most 1,000 characters");
const events = z
  .array(eventName)
  .min(1, "choose at least one event")
  .max(WEBHOOK_EVENTS.length + 1);

/** webhooks.create: `secret` empty or absent = unsigned deliveries. */
export const createWebhookInput = z.object({
  repoId: uuid("repoId"),
  url,
  secret: secret.optional(),
  events: events.default(["push"]),
  active: z.boolean().default(true),
  contentType: z.literal("json").default("json"),
});
export type CreateWebhookInput = z.input<typeof createWebhookInput>;

/** webhooks.update: absent fields keep their value; `secret: ""` removes it, absent keeps it. */
export const updateWebhookInput = z.object({
  repoId: uuid("repoId"),
  id: uuid("id"),
  url: url.optional(),
  secret: secret.optional(),
  events: events.optional(),
  active: z.boolean().optional(),
  contentType: z.literal("json").optional(),
});
export type UpdateWebhookInput = z.input<typeof updateWebhookInput>;

export const webhookIdInput = z.object({ repoId: uuid("repoId"), id: uuid("id") });

export const deliveriesInput = z.object({
  repoId: uuid("repoId"),
  id: uuid("id"),
  limit: z.number().int().min(1).max(100).default(30),
});

export const redeliverInput = z.object({ repoId: uuid("repoId"), deliveryId: uuid("deliveryId") });

/** True when a hook subscribed to `events` (a stored JSON array) receives `event`; `ping` always. */
export function subscribes(events: readonly string[], event: string): boolean {
  return event === "ping" || events.includes("*") || events.includes(event);
}

/** The stored JSON array of event names, tolerant of a damaged value (→ []). */
export function parseEvents(stored: string): string[] {
  try {
    const v: unknown = JSON.parse(stored);
    return Array.isArray(v) ? v.filter((e): e is string => typeof e === "string") : [];
  } catch {
    return [];
  }
}
