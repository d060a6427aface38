/** Fixtures for the notification tests: the fan-out job run by this process's worker, drained without sleeps. */
import { expect } from "vitest";
import { getDb } from "@/server/db";
import { jobQueueDepth, startJobWorker, stopJobWorker } from "@/server/jobs";
import { NOTIFY_FAN_OUT } from "@/server/jobs/names";
import { registerJobHandlers } from "@/server/jobs/handlers";

/** Starts the job worker with svc's handlers (call in beforeAll; stopWorker in afterAll). */
export async function startWorker(): Promise<void> {
  registerJobHandlers();
  await startJobWorker({ concurrency: 2, pollIntervalMs: 50 });
}

export const stopWorker = stopJobWorker;

/** Waits until every notification event queued so far has been fanned out (no fan-out job left; the jobs are written with their changes). */
export async function drain(): Promise<void> {
  await expect
    .poll(async () => (await jobQueueDepth()).filter((d) => d.name === NOTIFY_FAN_OUT).reduce((n, d) => n + d.count, 0), {
      timeout: 30_000,
      interval: 25,
    })
    .toBe(0);
}

/** The threads of user `userId` (subject id → {reason, unread, done, lastAnchor}). */
export async function threadsOf(
  userId: string,
): Promise<Map<string, { reason: string; unread: boolean; done: boolean; lastAnchor: string | null }>> {
  const rows = await (
    await getDb()
  ).notification.findMany({
    where: { userId },
    select: { subjectId: true, reason: true, unread: true, done: true, lastAnchor: true },
  });
  return new Map(rows.map((r) => [r.subjectId, r]));
}
