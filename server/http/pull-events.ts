/**
 * GET /api/pulls/<pullRequestId>/events — a pull request page's live updates (docs/pulls.md "Live
 * updates") as Server-Sent Events (text/event-stream):
 *
 *   event: ready     data: {"pullRequestId"}          once, when subscribed
 *   event: update    data: LiveEvent (server/events/bus.ts): {type (comment, review, pushed,
 *                    merged, …), at, actorId, data?} — one event name, so a client needs no list
 *   : heartbeat                                        a comment line every HEARTBEAT_MS
 *   event: degraded  data: {"shared": false, message}  REDIS_URL set and Redis unreachable (at
 *                    the start, or when an outage starts): notices of other svc processes are
 *                    missed until it is back (docs/architecture.md "Redis outages")
 *   event: update    data: {type: "resync", at}        Redis is back: refetch to catch up
 *
 * Authorized like the page: the session cookie or a token (repo:read), read permission on the
 * pull request's repository; a pull request the caller cannot see is 404 "pull request not
 * found", exactly like one that does not exist. Bounded: at most MAX_STREAMS_PER_USER open
 * streams per user (or per address when anonymous) and MAX_STREAMS in the process (429 with
 * Retry-After beyond) — with REDIS_URL the same two caps also over all svc processes together,
 * counted in Redis (shared-slots.ts; per process only while Redis fails) — and each stream ends
 * after MAX_STREAM_MS (EventSource reconnects; the page refetches on `ready`). A client that goes
 * away unsubscribes at once (req.signal).
 *
 * Access is re-checked before each notice is delivered (`stillAuthorized`): the credential is
 * resolved again and the repository authorized again, so a reader removed from the repository, a
 * revoked token or a signed-out session gets no further notice and the stream ends (the reconnect
 * then answers 404 or 401). Notices are rare (a comment, a push), so the check is made each time
 * rather than cached: a cache would deliver notices for its lifetime after access is gone.
 *
 * A stopping server (SIGTERM, server/shutdown.ts) ends every stream at once, and a stream opened
 * while it stops ends right after it starts: EventSource reconnects to another process.
 */
import { getDb } from "@/server/db";
import { resolveActor } from "@/server/auth/actor";
import { AppError } from "@/server/errors";
import { authorizeRepo } from "@/server/services/repos/access";
import { pullRepoId } from "@/server/services/pulls/locate";
import { busShared, onBusState, pullChannel, subscribe, type LiveEvent } from "@/server/events/bus";
import { shutdownSignal } from "@/server/shutdown";
import { clientAddress } from "./client-address";
import { sharedSlots, type SharedSlot } from "./shared-slots";
import { handle } from "./respond";

/** Interval of the keep-alive comment (ms): below common proxies' 60 s idle timeouts. */
export const HEARTBEAT_MS = 15_000;
/** A stream's longest life (ms); the browser's EventSource reconnects after it. */
export const MAX_STREAM_MS = 30 * 60_000;
/** Open streams per user (or anonymous address); with REDIS_URL over all processes together. */
export const MAX_STREAMS_PER_USER = 20;
/** Open streams in this process; with REDIS_URL also over all processes together. */
export const MAX_STREAMS = 2_000;

/** The `degraded` event: notices of other svc processes are not arriving (a Redis outage). */
export const DEGRADED_EVENT = `event: degraded\ndata: ${JSON.stringify({
  shared: false,
  message: "live updates from other server processes are paused (Redis is unreachable); this page may miss changes until they resume",
})}\n\n`;

const open = new Map<string, number>();
let total = 0;

/** Open event streams in this process (tests: none left after clients disconnect). */
export function openStreamCount(): number {
  return total;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The handler; `pullRequestId` is the path segment. Errors as JSON (server/http/respond.ts). */
export function pullEvents(req: Request, pullRequestId: string): Promise<Response> {
  return handle(async () => {
    const actor = await resolveActor(req);
    if (!UUID.test(pullRequestId)) throw new AppError("NOT_FOUND", "pull request not found");
    const db = await getDb();
    const repoId = await pullRepoId(db, pullRequestId);
    if (!repoId) throw new AppError("NOT_FOUND", "pull request not found");
    try {
      await authorizeRepo(db, actor, { repoId }, "read");
    } catch (e) {
      if (e instanceof AppError && e.code === "NOT_FOUND") throw new AppError("NOT_FOUND", "pull request not found");
      throw e;
    }
    const who = actor ? `user:${actor.user.id}` : `addr:${clientAddress(req.headers)}`;
    const shared = await openStreamSlot(who);
    const stillAuthorized = () => authorizedAgain(req, actor?.user.id ?? null, repoId);
    return new Response(eventStream(req, who, pullChannel(pullRequestId), { pullRequestId }, stillAuthorized, shared), {
      headers: SSE_HEADERS,
    });
  }, req);
}

/** The response headers of an event stream. */
export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no", // nginx: deliver each event as it is written
};

/**
 * Checks the stream caps for client `who` (`user:<id>` or `addr:<ip>`) before a stream opens:
 * MAX_STREAMS_PER_USER per client and MAX_STREAMS in the process, and with REDIS_URL the same over
 * all processes (the shared slot returned; null without Redis). Every event stream of svc (pull
 * request pages, the notification bell: notification-events.ts) counts against the same caps.
 * @throws AppError TOO_MANY_REQUESTS (retry after 30 s) beyond a cap
 */
export async function openStreamSlot(who: string): Promise<SharedSlot | null> {
  if ((open.get(who) ?? 0) >= MAX_STREAMS_PER_USER)
    throw new AppError("TOO_MANY_REQUESTS", `too many open event streams (at most ${MAX_STREAMS_PER_USER}); close some pages`, 30);
  if (total >= MAX_STREAMS) throw new AppError("TOO_MANY_REQUESTS", "the server has too many open event streams; try again shortly", 30);
  return sharedStreamSlot(who);
}

/**
 * With REDIS_URL, a slot of the `streams` pool counted over all processes (null without Redis or
 * while it fails: this process's count alone then). Errors: TOO_MANY_REQUESTS when the caller's
 * or everyone's streams, all processes together, are at their cap.
 */
async function sharedStreamSlot(who: string): Promise<SharedSlot | null> {
  const slots = sharedSlots("streams");
  const r = slots ? await slots.tryAcquire(who, { total: MAX_STREAMS, perClient: MAX_STREAMS_PER_USER }) : "unavailable";
  if (r === "full")
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `too many open event streams (at most ${MAX_STREAMS_PER_USER} per user, ${MAX_STREAMS} on the server); close some pages or try again shortly`,
      30,
    );
  return r === "unavailable" ? null : r;
}

/**
 * Whether the request's credential still reads the repository as the same user (`userId`, null
 * when it was anonymous). False when the token is revoked or expired, the session signed out
 * (a signed-in stream does not continue as anonymous), read permission is gone, or the check
 * fails at all (the stream ends; EventSource reconnects and is authorized afresh).
 */
async function authorizedAgain(req: Request, userId: string | null, repoId: string): Promise<boolean> {
  try {
    const actor = await resolveActor(req);
    if ((actor?.user.id ?? null) !== userId) return false;
    await authorizeRepo(await getDb(), actor, { repoId }, "read");
    return true;
  } catch {
    return false;
  }
}

/**
 * The body of an event stream for client `who` (its slot taken by openStreamSlot): `ready` with
 * `ready` as data, then each notice of bus channel `channel` as `update` once `stillAuthorized`
 * holds (the stream ends when it does not), heartbeats, the Redis outage notices, and an end
 * after MAX_STREAM_MS, on the client's abort or on shutdown (then the slot is given back).
 */
export function eventStream(
  req: Request,
  who: string,
  channel: string,
  ready: Record<string, unknown>,
  stillAuthorized: () => Promise<boolean>,
  shared: SharedSlot | null,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      open.set(who, (open.get(who) ?? 0) + 1);
      total++;
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      // notices are delivered in order, each after its access check (one chain per stream)
      let delivering: Promise<void> = Promise.resolve();
      const deliver = (event: LiveEvent) => {
        delivering = delivering.then(async () => {
          if (closed) return;
          if (!(await stillAuthorized())) return cleanup();
          send(`event: update\ndata: ${JSON.stringify(event)}\n\n`);
        });
      };
      const unsubscribe = subscribe(channel, deliver);
      // a Redis outage: say so; its end: a resync notice, so the page catches up on what it missed
      const unwatch = onBusState((shared) => (shared ? deliver({ type: "resync", at: new Date().toISOString() }) : send(DEGRADED_EVENT)));
      const heartbeat = setInterval(() => send(": heartbeat\n\n"), HEARTBEAT_MS);
      const expiry = setTimeout(() => cleanup(), MAX_STREAM_MS);
      const onAbort = () => cleanup();
      const stopping = shutdownSignal();
      cleanup = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        unwatch();
        clearInterval(heartbeat);
        clearTimeout(expiry);
        req.signal.removeEventListener("abort", onAbort);
        stopping.removeEventListener("abort", onAbort);
        const n = (open.get(who) ?? 1) - 1;
        if (n > 0) open.set(who, n);
        else open.delete(who);
        total--;
        shared?.release();
        try {
          controller.close();
        } catch {
          // already closed or errored by the consumer
        }
      };
      if (req.signal.aborted || stopping.aborted) return cleanup();
      req.signal.addEventListener("abort", onAbort);
      stopping.addEventListener("abort", onAbort);
      send(`retry: 3000\nevent: ready\ndata: ${JSON.stringify(ready)}\n\n`);
      if (!busShared()) send(DEGRADED_EVENT);
    },
    cancel() {
      cleanup();
    },
  });
}
