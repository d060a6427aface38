/**
 * Registers the handler of every svc job (names.ts) in this process. The server calls it before
 * starting its worker (./server-start.ts); a process that only enqueues (the CLI, a request)
 * does not need it. Handlers live with their service and are imported lazily, so loading the
 * job runner does not load every service.
 */
import { defineJob } from "./index";
import { REFRESH_MERGEABILITY } from "./names";

/** Registers svc's job handlers (idempotent: a second call replaces them with the same). */
export function registerJobHandlers(): void {
  // TODO(lead, issue #8): once server/services/pulls/mergeability exists, register its refresh:
  // defineJob(REFRESH_MERGEABILITY, async ({ prId }) => (await import("@/server/services/pulls/mergeability")).refreshMergeability(prId), { retries: 5, backoffMs: 2_000, timeoutMs: 120_000 });
}
