/**
 * Live updates (docs/pulls.md "Live updates"): small notices published on a channel
 * (`pull:<pullRequestId>`) and delivered to every subscriber of that channel — the pull request
 * page's event stream (server/http/pull-events.ts). A notice says *what* changed (a comment, a
 * review, a push…); the page then refetches through the API, so what a reader sees is always
 * authorized by the procedures themselves and a notice never carries private content.
 *
 * In this process by default. With REDIS_URL every svc process shares the notices through Redis
 * pub/sub (channel `<REDIS_KEY_PREFIX>:live:<channel>`): `publish` sends to Redis only and each
 * process's one subscriber connection hands messages to its local listeners, so a listener is
 * called once per notice whichever process published it. If Redis is unreachable, publishing
 * falls back to this process's listeners.
 */
import { EventEmitter } from "node:events";
import { Redis } from "ioredis";

/** One notice: what changed (`type`, e.g. "comment", "review", "push", "merged"), when, by whom. */
export interface LiveEvent {
  type: string;
  /** ISO time of publication. */
  at: string;
  actorId?: string | null;
  /** Small, non-confidential details (ids, numbers). */
  data?: Record<string, string | number | boolean | null>;
}

type Listener = (event: LiveEvent) => void;

interface Bus {
  local: EventEmitter;
  /** Redis SUBSCRIBE commands in flight or done, per channel. */
  subscribing: Map<string, Promise<unknown>>;
  redisUrl?: string;
  prefix: string;
  pub?: Redis;
  sub?: Redis;
}

const globalForBus = globalThis as unknown as { __svcBus?: Bus };

function bus(): Bus {
  const redisUrl = process.env.REDIS_URL || undefined;
  const prefix = `${process.env.REDIS_KEY_PREFIX || "svc"}:live:`;
  let b = globalForBus.__svcBus;
  if (b && b.redisUrl === redisUrl && b.prefix === prefix) return b;
  if (b) void closeBus();
  const local = new EventEmitter();
  local.setMaxListeners(0); // bounded by the stream limits of pull-events.ts, not here
  b = { local, redisUrl, prefix, subscribing: new Map() };
  if (redisUrl) {
    const options = { maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: false };
    b.pub = new Redis(redisUrl, options);
    b.sub = new Redis(redisUrl, options);
    b.pub.on("error", () => {}); // reconnects by itself; publish falls back to local meanwhile
    b.sub.on("error", () => {});
    const owner = b;
    b.sub.on("message", (redisChannel: string, message: string) => {
      if (!redisChannel.startsWith(owner.prefix)) return;
      let event: LiveEvent;
      try {
        event = JSON.parse(message) as LiveEvent;
      } catch {
        return;
      }
      owner.local.emit(redisChannel.slice(owner.prefix.length), event);
    });
  }
  globalForBus.__svcBus = b;
  return b;
}

/**
 * Publishes `event` (its `at` filled in) on `channel`. Never throws and never waits: a lost
 * notice costs a reader one refresh (the page also refetches when the stream reconnects).
 */
export function publish(channel: string, event: Omit<LiveEvent, "at">): void {
  const b = bus();
  const full: LiveEvent = { ...event, at: new Date().toISOString() };
  if (b.pub && b.pub.status === "ready") {
    b.pub.publish(b.prefix + channel, JSON.stringify(full)).catch(() => b.local.emit(channel, full));
    return;
  }
  b.local.emit(channel, full);
}

/**
 * Calls `listener` with each notice published on `channel` (in any svc process when REDIS_URL
 * is set) until the returned function is called; calling it twice is harmless.
 */
export function subscribe(channel: string, listener: Listener): () => void {
  const b = bus();
  if (b.sub && b.local.listenerCount(channel) === 0)
    b.subscribing.set(
      channel,
      b.sub.subscribe(b.prefix + channel).catch(() => {}),
    );
  b.local.on(channel, listener);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    b.local.off(channel, listener);
    if (b.sub && b.local.listenerCount(channel) === 0) {
      b.subscribing.delete(channel);
      void b.sub.unsubscribe(b.prefix + channel).catch(() => {});
    }
  };
}

/** Listeners on `channel`, or on every channel (tests: nothing leaks after streams close). */
export function listenerCount(channel?: string): number {
  const local = bus().local;
  if (channel) return local.listenerCount(channel);
  return local.eventNames().reduce((n, name) => n + local.listenerCount(name), 0);
}

/** Resolves once this process receives `channel`'s notices from Redis (at once without REDIS_URL). */
export async function subscribed(channel: string): Promise<void> {
  await bus().subscribing.get(channel);
}

/** Whether the Redis subscriber connection is ready (always true without REDIS_URL). */
export async function busReady(timeoutMs = 2000): Promise<boolean> {
  const b = bus();
  if (!b.sub) return true;
  const deadline = Date.now() + timeoutMs;
  while (b.sub.status !== "ready" || b.pub?.status !== "ready") {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/** Closes the Redis connections and drops every listener (tests, shutdown). */
export async function closeBus(): Promise<void> {
  const b = globalForBus.__svcBus;
  globalForBus.__svcBus = undefined;
  if (!b) return;
  b.local.removeAllListeners();
  await Promise.all([b.pub?.quit().catch(() => b.pub?.disconnect()), b.sub?.quit().catch(() => b.sub?.disconnect())]);
}

/** The channel of pull request `pullRequestId`'s page. */
export const pullChannel = (pullRequestId: string): string => `pull:${pullRequestId}`;
