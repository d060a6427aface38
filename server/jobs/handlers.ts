/**
 * Registers the handler of every svc job (names.ts) in this process. The server calls it before
 * starting its worker (./server-start.ts); a process that only enqueues (the CLI, a request)
 * does not need it. Handlers live with their service and are imported lazily, so loading the
 * job runner does not load every service.
 */
import { defineJob } from "./index";
import {
  AI_REVIEW,
  AUTO_MERGE,
  LFS_GC,
  NOTIFY_DIGEST,
  NOTIFY_EMAIL,
  NOTIFY_FAN_OUT,
  REFRESH_MERGEABILITY,
  REFRESH_PULLS_AFTER_PUSH,
  REPO_MAINTENANCE,
  REPO_MAINTENANCE_SWEEP,
  SEARCH_INDEX_REPO,
  WEBHOOK_DELIVER,
  WEBHOOK_PUSH_EVENTS,
  WEBHOOK_SWEEP,
} from "./names";

/** Registers svc's job handlers (idempotent: a second call replaces them with the same). */
export function registerJobHandlers(): void {
  // after pushes (server/services/pulls/after-push.ts), one per moved branch: the mergeability
  // of every open pull request into or out of it in one batch, merges made outside svc, then a
  // few diffs warmed (refresh-after-push.ts); reads the current tips, so a re-run is harmless
  defineJob(
    REFRESH_PULLS_AFTER_PUSH,
    async ({ repoId, branch, actorId }) => {
      const [{ getDb }, { refreshPullsAfterPush }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/pulls/refresh-after-push"),
      ]);
      await refreshPullsAfterPush(await getDb(), repoId, branch, actorId);
    },
    { retries: 5, backoffMs: 2_000, timeoutMs: 900_000 },
  );
  // the per-pull-request form of the above, enqueued by earlier versions of svc: warm the
  // mergeability cache, then the diff's merge base and per-file counts; a failed diff warm-up is
  // only logged (the page computes the same itself), never a retry
  defineJob(
    REFRESH_MERGEABILITY,
    async ({ prId }) => {
      const [{ getDb }, { refreshMergeability }, { warmPullDiff }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/pulls/mergeability"),
        import("@/server/services/diff/warm-pull-diff"),
      ]);
      const db = await getDb();
      await refreshMergeability(db, prId);
      await warmPullDiff(db, prId).catch((e) => console.error(`warming the diff of pull request ${prId} failed`, e));
    },
    { retries: 5, backoffMs: 2_000, timeoutMs: 120_000 },
  );
  // auto-merge (docs/pulls.md "Auto-merge"): after statuses, check runs, reviews and pushes, merge
  // the pull request as the user who enabled it once its requirements are met (run-auto-merge.ts);
  // reads the current state, so a re-run is harmless; a merge that cannot happen yet is not a failure
  defineJob(
    AUTO_MERGE,
    async ({ prId }) => {
      const [{ getDb }, { runAutoMerge }] = await Promise.all([import("@/server/db"), import("@/server/services/pulls/run-auto-merge")]);
      await runAutoMerge(await getDb(), prId);
    },
    { retries: 5, backoffMs: 2_000, timeoutMs: 300_000 },
  );
  // the AI review of a pull request (docs/ai.md "AI review"): on non-draft creation, ready for
  // review and pulls.triggerAIReview. The handler records its own failures on the run (failed, with
  // the message) and counts attempts itself (run-ai-review.ts MAX_ATTEMPTS): the queue's retries
  // only matter when a run dies mid-way (process crash, restart), and then it runs again
  defineJob(
    AI_REVIEW,
    async ({ runId }) => {
      const [{ getDb }, { runAiReview }] = await Promise.all([import("@/server/db"), import("@/server/services/pulls/run-ai-review")]);
      await runAiReview(await getDb(), runId);
    },
    { retries: 4, backoffMs: 2_000, timeoutMs: 300_000 },
  );
  // after pushes (server/services/repos/update-branch.ts) and stale searches: the semantic index of a
  // branch, chunking only new blobs, then vectors when the repository's engine has an embedding
  // model; a deleted repository is not an error (nothing left to index)
  defineJob(
    SEARCH_INDEX_REPO,
    async ({ repoId, branch }) => {
      const [{ getDb }, { refreshSearchIndex }, { resolveAiEngine }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/search/index-repo"),
        import("@/server/ai/resolve"),
      ]);
      const db = await getDb();
      if (!(await db.repository.findUnique({ where: { id: repoId }, select: { id: true } }))) return;
      const engine = await resolveAiEngine(db, repoId);
      await refreshSearchIndex(db, repoId, branch, engine.kind === "model" ? engine.embedding : undefined);
    },
    { retries: 3, backoffMs: 5_000, timeoutMs: 1_800_000 },
  );
  // repository maintenance (docs/performance.md "Hardening II, item 13"): `git gc --auto` with a
  // prune grace period after every N pushes and daily; a large repository's repack takes minutes
  defineJob(
    REPO_MAINTENANCE,
    async ({ repoId }) => {
      const [{ getDb }, { maintainRepository }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/repos/maintain-repository"),
      ]);
      await maintainRepository(await getDb(), repoId);
    },
    { retries: 2, backoffMs: 60_000, timeoutMs: 2 * 3_600_000 },
  );
  defineJob(
    REPO_MAINTENANCE_SWEEP,
    async () => {
      const [{ getDb }, { sweepRepositories }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/repos/maintain-repository"),
      ]);
      await sweepRepositories(await getDb());
    },
    { retries: 3, backoffMs: 60_000, timeoutMs: 1_800_000 },
  );
  // Git LFS garbage collection (services/lfs/gc-objects.ts): after deletions and daily
  defineJob(
    LFS_GC,
    async ({ daily }) => {
      const [{ getDb }, { runLfsGc }] = await Promise.all([import("@/server/db"), import("@/server/services/lfs/gc-objects")]);
      await runLfsGc(await getDb(), daily);
    },
    { retries: 2, backoffMs: 60_000, timeoutMs: 1_800_000 },
  );
  // webhook deliveries (services/webhooks/deliver-webhook.ts): one attempt of each delivery per run
  // (an event's first attempts together, side by side); a failed attempt queues its delivery's next
  // one itself (its own schedule, about an hour in all), so the queue's retries only cover a run
  // that died mid-way (an attempt already made is skipped)
  defineJob(
    WEBHOOK_DELIVER,
    async ({ deliveryIds, attempt }) => {
      const [{ getDb }, { deliverWebhook }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/webhooks/deliver-webhook"),
      ]);
      const db = await getDb();
      const results = await Promise.allSettled(deliveryIds.map((id) => deliverWebhook(db, id, attempt)));
      const failed = results.find((r) => r.status === "rejected");
      if (failed) throw failed.reason;
    },
    { retries: 2, backoffMs: 30_000, timeoutMs: 60_000 },
  );
  // the delivery sweep (services/webhooks/sweep-deliveries.ts): queues its next run first, then the
  // attempts whose job was lost (a process stopped between a commit and its enqueue, or mid-attempt)
  defineJob(
    WEBHOOK_SWEEP,
    async () => {
      const [{ getDb }, { scheduleDeliverySweep, sweepDeliveries }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/webhooks/sweep-deliveries"),
      ]);
      await scheduleDeliverySweep();
      await sweepDeliveries(await getDb());
    },
    { retries: 2, backoffMs: 10_000, timeoutMs: 300_000 },
  );
  // a push's webhook events (services/webhooks/push-events.ts), queued by recordBranchUpdates when
  // the repository has an active hook: the commit lists are read from git here, not on the push's path
  defineJob(
    WEBHOOK_PUSH_EVENTS,
    async (payload) => {
      const [{ getDb }, { runPushEvents }] = await Promise.all([import("@/server/db"), import("@/server/services/webhooks/push-events")]);
      await runPushEvents(await getDb(), payload);
    },
    { retries: 3, backoffMs: 10_000, timeoutMs: 300_000 },
  );
  // notification emails (docs/notifications-email.md): one event's emails per run; a failed send
  // queues its own next attempt (send-emails.ts, MAX_ATTEMPTS with backoff) and a second run of
  // an attempt sends nothing twice, so the queue's retries only cover a run that died mid-way
  defineJob(
    NOTIFY_EMAIL,
    async ({ emailIds, attempt }) => {
      const [{ getDb }, { sendNotificationEmails }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/notifications/email/send-emails"),
      ]);
      await sendNotificationEmails(await getDb(), emailIds, attempt);
    },
    { retries: 2, backoffMs: 30_000, timeoutMs: 600_000 },
  );
  // the daily digest (send-digest.ts): queues its next run first, then one email per user with
  // dailyDigest; a user whose send failed keeps their rows, and the run fails so the queue retries
  defineJob(
    NOTIFY_DIGEST,
    async () => {
      const [{ getDb }, { sendDigests }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/notifications/email/send-digest"),
      ]);
      const out = await sendDigests(await getDb());
      if (out.failedUsers.length) throw new Error(`the digest of ${out.failedUsers.length} user(s) could not be sent`);
    },
    { retries: 3, backoffMs: 300_000, timeoutMs: 3_600_000 },
  );
  // notifications (services/notifications/fan-out.ts): one event → its recipients' threads in
  // bulk, live notices, and the email outbox when SMTP is set; reads current state, so a re-run
  // only bumps the same threads again
  defineJob(
    NOTIFY_FAN_OUT,
    async ({ event }) => {
      const [{ getDb }, { fanOutNotification }] = await Promise.all([
        import("@/server/db"),
        import("@/server/services/notifications/fan-out"),
      ]);
      await fanOutNotification(await getDb(), event);
    },
    { retries: 3, backoffMs: 5_000, timeoutMs: 120_000 },
  );
}
