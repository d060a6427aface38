/**
 * Starts the job worker inside the svc server (instrumentation.ts, once per server process) and
 * hands scripts/server.mjs a way to stop it on SIGTERM/SIGINT: `globalThis.__svcCloseJobs`, since
 * server.mjs is plain Node outside Next's bundles. SVC_JOB_CONCURRENCY=0 runs no worker in this
 * process (enqueueing still works; another svc process runs the jobs).
 */
import { closeJobs, startJobWorker } from "./index";
import { registerJobHandlers } from "./handlers";

/**
 * Registers the handlers, starts the worker and the daily repository maintenance sweep (unless
 * one is already waiting); logs and carries on when the database refuses.
 */
export async function startServerJobs(): Promise<void> {
  registerJobHandlers();
  (globalThis as { __svcCloseJobs?: () => Promise<void> }).__svcCloseJobs = closeJobs;
  try {
    await startJobWorker();
    const { scheduleMaintenanceSweep } = await import("@/server/services/repos/maintain-repository");
    await scheduleMaintenanceSweep();
  } catch (err) {
    console.error("svc: background jobs did not start:", err);
  }
}
