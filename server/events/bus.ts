/**
 * Live updates (docs/pulls.md "Live updates"): small notices published on a channel
 * (`pull:<pullRequestId>`) and delivered to every subscriber of that channel — the pull request
 * page's event stream (server/http/pull-events.ts). A notice says *what* changed (a comment, a
 * review, a push…); the page then refetches through the API, so what a reader sees is always
 * authorized by the procedures themselves and a notice never carries private content.
 *
 * In this process by default. With REDIS_URL every svc process shares the notices through Redis
 * pub/sub (channel `<REDIS_KEY_PREFIX>:live:<channel>`): `publish` sends to Redis and each
 * process's one subscriber connection hands messages to its local listeners, so a listener is
 * called once per notice whichever process published it.
 *
 * Redis outages (docs/architecture.md "Redis outages"): the connections (server/redis.ts) never
 * queue or wait. While the publisher is not ready a notice goes to this process's listeners only;
 * while the subscriber is not ready a notice published to Redis is also handed to this process's
 * listeners (the subscriber would not bring it back). Notices of other processes are missed
 * meanwhile: `onBusState` tells the event streams, which say so to the page, and tells them
 * again when Redis is back (the page then refreshes to catch up). The subscriber subscribes
 * again to every channel with a listener each time it becomes ready.
 */
import { EventEmitter } from "node:events";
import type { Redis } from "ioredis";
import { closeRedis, createRedis, onRedisHealth, redisOutage } from "@/server/redis";

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
  /** Listeners of the shared state (onBusState). */
  state: EventEmitter;
  stopHealth?: () => void;
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
  const state = new EventEmitter();
  state.setMaxListeners(0);
  b = { local, redisUrl, prefix, subscribing: new Map(), state };
  if (redisUrl) {
    b.pub = createRedis(redisUrl, "publisher");
    const sub = (b.sub = createRedis(redisUrl, "subscriber", { autoResubscribe: false }));
    const owner = b;
    // (re)subscribe every channel with a listener: a SUBSCRIBE sent while Redis was away failed
    sub.on("ready", () => {
      for (const channel of owner.local.eventNames()) if (typeof channel === "string") subscribeRedis(owner, channel);
    });
    sub.on("message", (redisChannel: string, message: string) => {
      if (!redisChannel.startsWith(owner.prefix)) return;
      let event: LiveEvent;
      try {
        event = JSON.parse(message) as LiveEvent;
      } catch {
        return;
      }
      owner.local.emit(redisChannel.slice(owner.prefix.length), event);
    });
    b.stopHealth = onRedisHealth((up) => {
      if (!up) return void owner.state.emit("state", false);
      // shared again once the subscriber's SUBSCRIBEs (sent on its "ready", maybe just after this) are done
      setImmediate(() => {
        void Promise.all(owner.subscribing.values()).then(() => {
          if (globalForBus.__svcBus === owner && !redisOutage()) owner.state.emit("state", true);
        });
      });
    });
  }
  globalForBus.__svcBus = b;
  return b;
}

function subscribeRedis(b: Bus, channel: string): void {
  if (!b.sub) return;
  b.subscribing.set(
    channel,
    b.sub.subscribe(b.prefix + channel).catch(() => {}), // not ready: done again on "ready"
  );
}

/**
 * Publishes `event` (its `at` filled in) on `channel`. Never throws and never waits: a lost
 * notice costs a reader one refresh (the page also refetches when the stream reconnects).
 */
export function publish(channel: string, event: Omit<LiveEvent, "at">): void {
  const b = bus();
  const full: LiveEvent = { ...event, at: new Date().toISOString() };
  if (b.pub?.status === "ready") {
    // the subscriber not ready: it will not bring the notice back, so hand it over here too
    const local = b.sub?.status !== "ready";
    b.pub.publish(b.prefix + channel, JSON.stringify(full)).catch(() => local || b.local.emit(channel, full));
    if (local) b.local.emit(channel, full);
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
  if (b.local.listenerCount(channel) === 0) subscribeRedis(b, channel);
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

/**
 * Resolves once this process receives `channel`'s notices from Redis (at once without
 * REDIS_URL), or after 5 s without a ready Redis connection (tests).
 */
export async function subscribed(channel: string): Promise<void> {
  const b = bus();
  await busReady(5000); // the subscriber (re)subscribes every channel when it becomes ready
  await b.subscribing.get(channel);
}

/**
 * Whether notices published by other svc processes reach this process now: false only while
 * REDIS_URL is set and Redis is unreachable (an outage, server/redis.ts).
 */
export function busShared(): boolean {
  return !(bus().sub && redisOutage());
}

/**
 * Calls `listener(false)` when notices of other processes stop arriving (a Redis outage) and
 * `listener(true)` when they arrive again (the subscriptions are back), until the returned
 * function is called. Never called without REDIS_URL.
 */
export function onBusState(listener: (shared: boolean) => void): () => void {
  const state = bus().state;
  state.on("state", listener);
  return () => state.off("state", listener);
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
  b.state.removeAllListeners();
  b.stopHealth?.();
  await Promise.all([closeRedis(b.pub), closeRedis(b.sub)]);
}

/** The channel of pull request `pullRequestId`'s page. */
export const pullChannel = (pullRequestId: string): string => `pull:${pullRequestId}`;
