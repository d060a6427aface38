/**
 * svc's Redis connections (REDIS_URL) and their health, for every user of Redis: the rate
 * limiter (server/rate-limit.ts), the live-update bus's publisher and subscriber
 * (server/events/bus.ts) and the shared slot counts (server/http/shared-slots.ts). docs/architecture.md "Redis outages".
 *
 * Redis is a helper, never a dependency of an answer: when it is unreachable, commands fail at
 * once instead of waiting (no offline queue, short connect and command timeouts, no retries of a
 * command), the callers fall back to this process's memory, and the connection keeps
 * reconnecting in the background with a capped backoff. One warning is logged when an outage
 * starts (the first failing connection) and one line when every connection is ready again;
 * `redisConnections()` feeds `svc_redis_up` on the metrics endpoint.
 *
 * Kept on globalThis: Next loads a module once per bundle layer, and the health is the process's.
 */
import { Redis, type Command, type RedisOptions } from "ioredis";

/** Longest wait (ms) for a TCP connection to Redis before the attempt counts as failed. */
export const REDIS_CONNECT_TIMEOUT_MS = 1000;
/**
 * Longest wait (ms) for a Redis reply. Also the longest a first command waits for a connection
 * still being made (`whenReady`). A command that times out marks the connection down and
 * reconnects it, so a Redis that accepts connections but does not answer costs one timeout, not
 * one per command.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** Longest pause (ms) between reconnection attempts (the backoff doubles from 100 ms up to it). */
export const REDIS_RETRY_MAX_MS = 2000;

/** Who uses a connection (the `connection` label of svc_redis_up); `slots`: counts shared by all processes (server/http/shared-slots.ts). */
export type RedisRole = "limiter" | "publisher" | "subscriber" | "slots";

interface Tracked {
  role: RedisRole;
  /** connecting: never ready and never failed yet; up: ready; down: failed or lost since. */
  state: "connecting" | "up" | "down";
  /** Until when (ms epoch) commands may wait for the first connection (`whenReady`). */
  waitUntil: number;
}

interface Health {
  clients: Map<Redis, Tracked>;
  /** The outage in progress: since when (ms epoch) and where. */
  outage?: { since: number; where: string };
  listeners: Set<(up: boolean) => void>;
}

const holder = globalThis as unknown as { __svcRedisHealth?: Health };
const health = (): Health => (holder.__svcRedisHealth ??= { clients: new Map(), listeners: new Set() });

/** `host:port` of a Redis URL, without user or password (for log lines). */
export function redisLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "6379"}`;
  } catch {
    return "REDIS_URL";
  }
}

/** The options every svc Redis connection is made with (exported for the tests and docs). */
export function redisOptions(): RedisOptions {
  return {
    enableOfflineQueue: false,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    // a command in flight when the connection dropped may have run: never send it twice
    autoResendUnfulfilledCommands: false,
    // reconnects forever: 100 ms, 200 ms, … up to REDIS_RETRY_MAX_MS between attempts
    retryStrategy: (times: number) => Math.min(100 * 2 ** Math.min(times - 1, 16), REDIS_RETRY_MAX_MS),
  };
}

function notify(up: boolean): void {
  for (const listener of health().listeners) {
    try {
      listener(up);
    } catch (e) {
      console.error("svc: Redis health listener failed:", e);
    }
  }
}

function markDown(client: Redis, where: string, reason: string): void {
  const h = health();
  const t = h.clients.get(client);
  if (!t) return;
  t.state = "down";
  if (h.outage) return;
  h.outage = { since: Date.now(), where };
  console.warn(
    `svc: Redis at ${where} is unreachable (${t.role}: ${reason}); rate limits are counted in this process's memory ` +
      `and live updates reach only this process's pages until it is back (reconnecting in the background)`,
  );
  notify(false);
}

function markUp(client: Redis): void {
  const h = health();
  const t = h.clients.get(client);
  if (!t) return;
  t.state = "up";
  if (!h.outage || [...h.clients.values()].some((c) => c.state !== "up")) return;
  const { since, where } = h.outage;
  h.outage = undefined;
  console.warn(
    `svc: Redis at ${where} is reachable again after ${((Date.now() - since) / 1000).toFixed(1)} s; rate limits and live updates are shared again`,
  );
  notify(true);
}

/**
 * A new connection to `url` for `role`, with svc's options (`redisOptions`, plus `extra`) and
 * its health tracked: errors are logged once per outage (never thrown at the caller), commands
 * are refused at once while the connection is not ready, and it reconnects until
 * `closeRedis`. Connects at once unless `extra.lazyConnect`.
 */
export function createRedis(url: string, role: RedisRole, extra: RedisOptions = {}): Redis {
  const client = new Redis(url, { ...redisOptions(), ...extra });
  const where = redisLabel(url);
  health().clients.set(client, { role, state: "connecting", waitUntil: Date.now() + REDIS_COMMAND_TIMEOUT_MS });
  client.on("ready", () => markUp(client));
  client.on("error", (e: Error) => markDown(client, where, e.message || String(e)));
  client.on("close", () => {
    // a closed connection that was up is lost (a manual close is untracked before it closes)
    if (health().clients.get(client)?.state === "up") markDown(client, where, "connection closed");
  });
  // A reply that never comes (a Redis that accepts connections but hangs): reconnect, so the
  // next commands are refused at once instead of each waiting for its own timeout.
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command: Command, stream?: Parameters<Redis["sendCommand"]>[1]) => {
    command.promise.catch((e: unknown) => {
      if (e instanceof Error && e.message === "Command timed out" && health().clients.get(client)?.state === "up") {
        markDown(client, where, `no reply within ${REDIS_COMMAND_TIMEOUT_MS} ms`);
        client.disconnect(true);
      }
    });
    return send(command, stream);
  };
  return client;
}

/**
 * Resolves when `client` is ready, or at once when it is down (an outage is known), or when its
 * first connection has had REDIS_COMMAND_TIMEOUT_MS since `createRedis` (all waiting callers
 * together: a Redis that drops the connection attempt delays a new process by that much once).
 * Lets the first command of a new process go to Redis rather than straight to the fallback.
 */
export async function whenReady(client: Redis): Promise<void> {
  const t = health().clients.get(client);
  if (client.status === "ready" || t?.state !== "connecting") return;
  const timeoutMs = t.waitUntil - Date.now();
  if (timeoutMs <= 0) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off("ready", done);
      client.off("error", done);
      client.off("end", done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    client.once("ready", done);
    client.once("error", done);
    client.once("end", done);
  });
}

/**
 * Closes `client` (QUIT when it is ready, bounded by the command timeout) and stops its
 * reconnecting; it no longer counts for the health. Never throws.
 */
export async function closeRedis(client: Redis | undefined): Promise<void> {
  if (!client) return;
  const h = health();
  h.clients.delete(client);
  if (h.clients.size === 0) h.outage = undefined; // nothing left to be out of reach
  try {
    if (client.status === "ready") await client.quit();
  } catch {
    // no reply: the disconnect below closes the socket anyway
  }
  client.disconnect();
}

/** Whether an outage is in progress (a connection failed and not every one is ready again). */
export function redisOutage(): boolean {
  return health().outage !== undefined;
}

/** Each open svc Redis connection of this process: its role and whether it is ready (svc_redis_up). */
export function redisConnections(): { role: RedisRole; up: boolean }[] {
  return [...health().clients].map(([client, t]) => ({ role: t.role, up: client.status === "ready" }));
}

/**
 * Calls `listener(false)` when an outage starts and `listener(true)` when it ends, until the
 * returned function is called.
 */
export function onRedisHealth(listener: (up: boolean) => void): () => void {
  health().listeners.add(listener);
  return () => health().listeners.delete(listener);
}
