/**
 * webhooks router (docs/api.md "Webhooks"): a repository's webhooks and their deliveries.
 * Repository admin with a repo:admin token (server/api/access.ts); the secret is never returned.
 */
import { router, repoProcedure } from "../trpc";
import { createWebhookInput, deliveriesInput, redeliverInput, updateWebhookInput, webhookIdInput } from "@/server/services/webhooks/events";
import { createWebhook, deleteWebhook, updateWebhook } from "@/server/services/webhooks/manage-webhooks";
import { listDeliveries, listWebhooks } from "@/server/services/webhooks/list-webhooks";
import { redeliverWebhook } from "@/server/services/webhooks/redeliver-webhook";

export const webhooksRouter = router({
  /** {repoId} → [{id, url, events, active, contentType, hasSecret, createdAt, updatedAt, lastDelivery}]. */
  list: repoProcedure.query(({ ctx }) => listWebhooks(ctx.db, ctx.repo)),
  /** {repoId, url, secret?, events, active?, contentType?} → the webhook; queues its `ping`. */
  create: repoProcedure.input(createWebhookInput).mutation(({ ctx, input }) => createWebhook(ctx.db, ctx.actor!, ctx.repo, input)),
  /** {repoId, id, url?, secret? ("" removes it), events?, active?} → the webhook. */
  update: repoProcedure.input(updateWebhookInput).mutation(({ ctx, input }) => updateWebhook(ctx.db, ctx.repo, input)),
  /** {repoId, id} → {id, deleted}. */
  delete: repoProcedure.input(webhookIdInput).mutation(({ ctx, input }) => deleteWebhook(ctx.db, ctx.repo, input.id)),
  /** {repoId, id, limit?} → the hook's newest deliveries (request and response). */
  deliveries: repoProcedure.input(deliveriesInput).query(({ ctx, input }) => listDeliveries(ctx.db, ctx.repo, input.id, input.limit)),
  /** {repoId, deliveryId} → the new (pending) delivery. */
  redeliver: repoProcedure.input(redeliverInput).mutation(({ ctx, input }) => redeliverWebhook(ctx.db, ctx.repo, input.deliveryId)),
});
