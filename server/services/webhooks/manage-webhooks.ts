/**
 * Adding, changing and removing a repository's webhooks (docs/api.md "Webhooks"; repository
 * admin, checked by the router tier). The secret is sealed at rest (signing.ts) and never returned.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { inTransaction } from "@/server/db/transaction";
import { AppError } from "@/server/errors";
import { createWebhookInput, MAX_WEBHOOKS_PER_REPO, updateWebhookInput, type CreateWebhookInput, type UpdateWebhookInput } from "./events";
import { emitWebhookEvent } from "./emit-event";
import { sealSecret } from "./signing";
import { toWebhookView, webhookSelect, type WebhookView } from "./view";
import { webhookUrlProblem } from "./webhook-url";

const sealed = (id: string, secret: string | undefined) => {
  if (!secret) return { encryptedSecret: null, secretKeyId: null };
  const s = sealSecret(id, secret);
  return { encryptedSecret: s.ciphertext, secretKeyId: s.keyId };
};

/** The `ping` payload parts (GitHub: `zen`, `hook_id`, `hook`). */
function pingParts(hook: WebhookView) {
  return {
    zen: "Design for failure.",
    hook_id: hook.id,
    hook: { id: hook.id, type: "Repository", active: hook.active, events: hook.events, config: { url: hook.url, content_type: "json" } },
  };
}

/**
 * Adds a webhook to `repo` and, in the same transaction, queues its `ping` delivery (sent when the
 * hook is active). Input: createWebhookInput. Errors: BAD_REQUEST (url refused: webhook-url.ts),
 * CONFLICT (MAX_WEBHOOKS_PER_REPO reached).
 */
export async function createWebhook(db: Db, actor: Actor, repo: { id: string }, raw: CreateWebhookInput): Promise<WebhookView> {
  const input = createWebhookInput.parse(raw);
  const problem = webhookUrlProblem(input.url);
  if (problem) throw new AppError("BAD_REQUEST", problem);
  const id = randomUUID();
  return inTransaction(db, async (tx) => {
    if ((await tx.webhook.count({ where: { repoId: repo.id } })) >= MAX_WEBHOOKS_PER_REPO)
      throw new AppError("CONFLICT", `a repository has at most ${MAX_WEBHOOKS_PER_REPO} webhooks: delete one first`);
    const row = await tx.webhook.create({
      data: {
        id,
        repoId: repo.id,
        url: input.url,
        ...sealed(id, input.secret),
        events: JSON.stringify([...new Set(input.events)]),
        active: input.active,
        contentType: input.contentType,
        createdById: actor.user.id,
      },
      select: webhookSelect,
    });
    const view = toWebhookView(row);
    await emitWebhookEvent(tx, repo, "ping", null, actor.user, pingParts(view), { webhookId: id });
    return view;
  });
}

/** Changes a webhook of `repo` (absent fields kept; `secret: ""` removes the secret). Errors: NOT_FOUND, BAD_REQUEST (url). */
export async function updateWebhook(db: Db, repo: { id: string }, raw: UpdateWebhookInput): Promise<WebhookView> {
  const input = updateWebhookInput.parse(raw);
  if (input.url !== undefined) {
    const problem = webhookUrlProblem(input.url);
    if (problem) throw new AppError("BAD_REQUEST", problem);
  }
  return inTransaction(db, async (tx) => {
    const found = await tx.webhook.findFirst({ where: { id: input.id, repoId: repo.id }, select: { id: true } });
    if (!found) throw new AppError("NOT_FOUND", "webhook not found");
    const row = await tx.webhook.update({
      where: { id: input.id },
      data: {
        url: input.url,
        ...(input.secret !== undefined ? sealed(input.id, input.secret) : {}),
        events: input.events ? JSON.stringify([...new Set(input.events)]) : undefined,
        active: input.active,
      },
      select: webhookSelect,
    });
    return toWebhookView(row);
  });
}

/** Deletes a webhook of `repo` with its deliveries (queued attempts then find nothing to send). Errors: NOT_FOUND. */
export async function deleteWebhook(db: Db, repo: { id: string }, id: string): Promise<{ id: string; deleted: true }> {
  const { count } = await db.webhook.deleteMany({ where: { id, repoId: repo.id } });
  if (count === 0) throw new AppError("NOT_FOUND", "webhook not found");
  return { id, deleted: true };
}
