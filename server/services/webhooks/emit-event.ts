/**
 * Emitting a webhook event (docs/api.md "Webhooks"): the one function every service calls when
 * something a webhook may subscribe to happens.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "@/server/db";
import type { Tx } from "@/server/db/transaction";
import { afterCommit } from "@/server/db/after-commit";
import { enqueue } from "@/server/jobs";
import { WEBHOOK_DELIVER } from "@/server/jobs/names";
import { DELIVERY_RETENTION_MS, parseEvents, subscribes, type WebhookEventName } from "./events";
import { repositoryPayload, userPayload } from "./payloads";
import { deliveryHeaders, openSecret } from "./signing";

/** The event-specific top-level fields of a payload (`pull_request`, `issue`, `ref` …); `action`, `repository` and `sender` are added. */
export type PayloadParts = Record<string, unknown>;

/** Who caused the event (GitHub's `sender`; the user name is looked up when absent); null when unknown (the payload then has `sender: null`). */
export type Sender = { id: string; username?: string } | null;

/**
 * Emits `event` (with `action`, e.g. "opened"; null for events without one such as `push`) for
 * repository `repo.id`: for every active webhook of the repository subscribed to the event (or to
 * `*`; `ping` goes to the hook it is for only, see createWebhook), writes one pending
 * WebhookDelivery with the request as it will be sent — body
 * `{action?, ...parts, repository, sender}` (GitHub's order and shapes, payloads.ts) and the
 * signed headers (signing.ts) — and, once `client`'s transaction commits, queues the
 * `webhooks.deliver` job that sends it (deliver-webhook.ts). Never on the request path: nothing
 * is sent here.
 *
 * `client` is the root client or a transaction client (`inTransaction`'s `tx`): inside a
 * transaction the delivery rows are part of it and the jobs are queued only if it commits
 * (server/db/after-commit.ts), so a rolled-back change sends nothing. `parts` may be a function,
 * called only when some hook subscribes (a push's commit list is read from git only then).
 * Repositories without hooks cost one indexed query. Deliveries older than 14 days of the hooks
 * written to are deleted here (the retention rule).
 *
 * Returns the number of deliveries queued. Errors: database errors propagate (inside a
 * transaction they roll it back, like any write of it); an error building `parts` propagates too.
 */
export async function emitWebhookEvent(
  client: Db | Tx,
  repo: { id: string },
  event: WebhookEventName,
  action: string | null,
  sender: Sender,
  parts: PayloadParts | (() => Promise<PayloadParts>),
  only?: { webhookId: string },
): Promise<number> {
  const hooks = (
    await client.webhook.findMany({
      where: { repoId: repo.id, active: true, ...(only ? { id: only.webhookId } : {}) },
      select: { id: true, events: true, encryptedSecret: true, secretKeyId: true },
    })
  ).filter((h) => subscribes(parseEvents(h.events), event));
  if (hooks.length === 0) return 0;
  const body = JSON.stringify({
    ...(action ? { action } : {}),
    ...(typeof parts === "function" ? await parts() : parts),
    repository: await repositoryPayload(client, repo.id),
    sender: userPayload(
      sender?.username
        ? { id: sender.id, username: sender.username }
        : sender && (await client.user.findUnique({ where: { id: sender.id }, select: { id: true, username: true } })),
    ),
  });
  const rows = hooks.map((h) => {
    const guid = randomUUID();
    const secret = openSecret(h.id, h);
    if (h.encryptedSecret && secret === null)
      console.error(`webhook ${h.id}: its secret no longer decrypts (server secret rotated?); delivering unsigned`);
    const headers = deliveryHeaders({ guid, event, hookId: h.id, body, secret });
    return { id: randomUUID(), webhookId: h.id, guid, event, action, requestHeaders: JSON.stringify(headers), requestBody: body };
  });
  await client.webhookDelivery.createMany({ data: rows });
  await client.webhookDelivery.deleteMany({
    where: { webhookId: { in: hooks.map((h) => h.id) }, createdAt: { lt: new Date(Date.now() - DELIVERY_RETENTION_MS) } },
  });
  const deliveryIds = rows.map((r) => r.id);
  // one job for the event's first attempts (a push to a repository with 10 hooks writes one job, not 10)
  afterCommit(client, () => {
    void enqueue(WEBHOOK_DELIVER, { deliveryIds, attempt: 1 }).catch((e) =>
      console.error(`webhook deliveries ${deliveryIds.join(", ")}: queueing failed`, e),
    );
  });
  return rows.length;
}
