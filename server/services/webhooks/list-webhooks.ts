/** Reading a repository's webhooks and their deliveries (docs/api.md "Webhooks"; repository admin). */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { DELIVERY_RETENTION_MS } from "./events";
import { toDeliveryView, toWebhookView, webhookSelect, type DeliveryView, type WebhookView } from "./view";

/** The webhooks of `repo`, oldest first, each with its newest delivery's state. */
export async function listWebhooks(db: Db, repo: { id: string }): Promise<WebhookView[]> {
  const rows = await db.webhook.findMany({ where: { repoId: repo.id }, orderBy: { createdAt: "asc" }, select: webhookSelect });
  return rows.map(toWebhookView);
}

/** The newest `limit` deliveries (of the last 14 days) of webhook `id` of `repo`, newest first. Errors: NOT_FOUND. */
export async function listDeliveries(db: Db, repo: { id: string }, id: string, limit: number): Promise<DeliveryView[]> {
  const hook = await db.webhook.findFirst({ where: { id, repoId: repo.id }, select: { id: true } });
  if (!hook) throw new AppError("NOT_FOUND", "webhook not found");
  const rows = await db.webhookDelivery.findMany({
    where: { webhookId: id, createdAt: { gte: new Date(Date.now() - DELIVERY_RETENTION_MS) } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map(toDeliveryView);
}
