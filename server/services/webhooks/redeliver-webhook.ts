/** Sending a delivery again (docs/api.md "Webhooks"; repository admin). */
import { randomUUID } from "node:crypto";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { enqueue } from "@/server/jobs";
import { WEBHOOK_DELIVER } from "@/server/jobs/names";
import { deliveryHeaders, openSecret } from "./signing";
import { toDeliveryView, type DeliveryView } from "./view";

/**
 * Queues a new delivery of delivery `deliveryId`'s event to its webhook (GitHub's "Redeliver"):
 * the same body, a new `X-GitHub-Delivery` guid, signed with the hook's current secret, sent to
 * its current URL by the job queue (also when the hook is inactive: it is an explicit request).
 * Returns the new delivery (pending). Errors: NOT_FOUND (no such delivery of a hook of `repo`).
 */
export async function redeliverWebhook(db: Db, repo: { id: string }, deliveryId: string): Promise<DeliveryView> {
  const old = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, webhook: { repoId: repo.id } },
    select: {
      id: true,
      event: true,
      action: true,
      requestBody: true,
      webhook: { select: { id: true, encryptedSecret: true, secretKeyId: true } },
    },
  });
  if (!old) throw new AppError("NOT_FOUND", "delivery not found");
  const guid = randomUUID();
  const headers = deliveryHeaders({
    guid,
    event: old.event,
    hookId: old.webhook.id,
    body: old.requestBody,
    secret: openSecret(old.webhook.id, old.webhook),
  });
  const row = await db.webhookDelivery.create({
    data: {
      webhookId: old.webhook.id,
      guid,
      event: old.event,
      action: old.action,
      requestHeaders: JSON.stringify(headers),
      requestBody: old.requestBody,
      redeliveryOfId: old.id,
    },
  });
  await enqueue(WEBHOOK_DELIVER, { deliveryIds: [row.id], attempt: 1 }, { singletonKey: `${row.id}:1` });
  return toDeliveryView(row);
}
