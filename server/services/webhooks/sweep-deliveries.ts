/**
 * The webhook delivery sweep (docs/api.md "Webhooks", "Delivery"): a delivery row is written in
 * the transaction of its change and its `webhooks.deliver` job queued once that commits
 * (emit-event.ts), and a failed attempt records its retry and then queues it
 * (deliver-webhook.ts). A process that stops between the two leaves a delivery pending with no
 * job; so does one that stops mid-attempt. The `webhooks.sweep` job, every SWEEP_EVERY_MS, queues
 * the next attempt of every delivery overdue by more than OVERDUE_MS, and queues its own next run
 * (`scheduleDeliverySweep` starts the chain when the server starts; its singleton key keeps one
 * waiting sweep however many processes start it).
 *
 * Queuing an attempt whose job is only late is harmless: deliverWebhook claims each attempt with
 * one conditional update, so of two jobs for it one sends and the other is skipped.
 */
import type { Db } from "@/server/db";
import { enqueue } from "@/server/jobs";
import { WEBHOOK_DELIVER, WEBHOOK_SWEEP } from "@/server/jobs/names";
import { MAX_ATTEMPTS } from "./deliver-webhook";

/** How often the sweep runs (ms). */
export const SWEEP_EVERY_MS = 60_000;
/** A pending delivery is swept when it has been due for longer than this (ms): its job is taken to be lost. */
export const OVERDUE_MS = 2 * 60_000;
/** Deliveries handled per sweep (the oldest first); the rest wait for the next run. */
const SWEEP_BATCH = 500;

/** Queues the next sweep at `runAt` (default: one period from now) unless one is already waiting. Errors: database errors. */
export async function scheduleDeliverySweep(runAt = new Date(Date.now() + SWEEP_EVERY_MS)): Promise<void> {
  await enqueue(WEBHOOK_SWEEP, {}, { singletonKey: "webhooks", runAt });
}

/**
 * One sweep at time `now` (ms since the epoch): for every pending delivery overdue by more than
 * OVERDUE_MS — never attempted and created before then, or whose `nextAttemptAt` (a scheduled
 * retry, or an in-flight attempt's lease) passed before then — queues its next attempt
 * (`webhooks.deliver` with singleton key `<id>:<attempt>`, the key a retry is queued with, so a
 * retry still waiting absorbs it); a delivery whose last attempt was lost in flight is marked
 * failed. At most SWEEP_BATCH deliveries, oldest first. Returns {queued (the jobs' ids), failed
 * (how many)}. Errors: database errors (the job retries).
 */
export async function sweepDeliveries(db: Db, now = Date.now()): Promise<{ queued: string[]; failed: number }> {
  const before = new Date(now - OVERDUE_MS);
  const due = await db.webhookDelivery.findMany({
    where: {
      state: "pending",
      OR: [{ attempts: 0, nextAttemptAt: null, createdAt: { lt: before } }, { nextAttemptAt: { lt: before } }],
    },
    select: { id: true, attempts: true },
    orderBy: { createdAt: "asc" },
    take: SWEEP_BATCH,
  });
  const queued: string[] = [];
  let failed = 0;
  for (const d of due) {
    if (d.attempts >= MAX_ATTEMPTS) {
      const r = await db.webhookDelivery.updateMany({
        where: { id: d.id, state: "pending", attempts: d.attempts },
        data: { state: "failed", nextAttemptAt: null, error: "the last attempt was lost (its process stopped)" },
      });
      failed += r.count;
      continue;
    }
    const attempt = d.attempts + 1;
    const job = await enqueue(WEBHOOK_DELIVER, { deliveryIds: [d.id], attempt }, { singletonKey: `${d.id}:${attempt}` });
    if (job) queued.push(job);
  }
  return { queued, failed };
}
