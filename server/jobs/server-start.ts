/**
 * Starts the job worker inside the svc server (server/process-start.ts, once per server process)
 * and hands scripts/server.mjs a way to stop it on SIGTERM/SIGINT: `globalThis.__svcCloseJobs`,
 * since server.mjs is plain Node outside Next's bundles. SVC_JOB_CONCURRENCY=0 runs no worker in
 * this process (enqueueing still works; another svc process runs the jobs).
 */
import { closeJobs, superviseJobWorker, type SuperviseOptions } from "./index";
import { registerJobHandlers } from "./handlers";

/**
 * Registers the handlers and starts the worker; once it runs, queues the daily repository
 * maintenance sweep, the webhook delivery sweep and the daily notification digest (each unless
 * one is already waiting). A start the database refuses is logged and
 * retried with backoff (superviseJobWorker) while the server serves; until it runs,
 * `GET /api/ready` answers 503 (server/http/health.ts). Resolves after the first attempt.
 * `retry` overrides the backoff (tests).
 */
export async function startServerJobs(retry: Omit<SuperviseOptions, "onRunning"> = {}): Promise<void> {
  registerJobHandlers();
  (globalThis as { __svcCloseJobs?: () => Promise<void> }).__svcCloseJobs = closeJobs;
  await superviseJobWorker(
    {},
    {
      ...retry,
      onRunning: async () => {
        const [{ scheduleMaintenanceSweep }, { scheduleDeliverySweep }, { scheduleDigest }] = await Promise.all([
          import("@/server/services/repos/maintain-repository"),
          import("@/server/services/webhooks/sweep-deliveries"),
          import("@/server/services/notifications/email/send-digest"),
        ]);
        await scheduleMaintenanceSweep();
        await scheduleDeliverySweep();
        await scheduleDigest();
        await (await import("@/server/services/lfs/gc-objects")).scheduleLfsGc(new Date(Date.now() + 60 * 60 * 1000));
      },
    },
  );
}
