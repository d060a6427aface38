/**
 * Slots counted by every svc process together, in Redis (docs/architecture.md "Locks across
 * processes"): the git process gate (git/process-gate.ts) and the live-update streams
 * (pull-events.ts) take a shared slot next to their per-process one, so a per-user or global cap
 * holds across processes instead of multiplying with their number. Without REDIS_URL there is
 * nothing to share and callers count per process only.
 *
 * A pool (`git`, `streams`, `ssh`: server/ssh/server.ts) is two sorted sets per Redis key prefix: all slots of the pool, and
 * the slots of one client (`user:<id>`, `ip:<address>`), each member `<process id>:<n>` scored by
 * its expiry (ms, Redis's clock). Taking a slot is one Lua script (atomic): drop expired members,
 * compare both counts with the caps, add to both. The process renews its slots every ttl / 3 and
 * removes them when released, so a process that crashed stops renewing and its slots expire after
 * `ttlMs` (30 s) instead of leaking; the keys themselves expire too (2 × ttl after the last
 * write), and share one hash tag (`{pool}`) so the script also runs on Redis Cluster.
 *
 * Redis failing never fails or holds up a request: the connection comes from svc's factory
 * (server/redis.ts `createRedis`, role `slots`: no offline queue, 500 ms command timeout, a hung
 * Redis dropped after one timeout; docs/architecture.md "Redis outages"), and an error answers
 * "unavailable", on which callers fall back to their per-process count. One connection per
 * process (REDIS_URL, REDIS_KEY_PREFIX).
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Redis } from "ioredis";
import { closeRedis, createRedis, whenReady } from "@/server/redis";

/** The caps a slot is taken under: all processes together. */
export interface SharedCaps {
  /** Slots of the pool, all clients together. */
  total: number;
  /** Slots of one client. */
  perClient: number;
}

/** A shared slot held by this process; `release` is idempotent and never throws. */
export interface SharedSlot {
  release(): void;
}

/** The answer of `tryAcquire`: a slot, "full" (a cap is reached), or "unavailable" (Redis failed: count per process). */
export type SharedAcquire = SharedSlot | "full" | "unavailable";

/** How long a slot lives without renewal (ms): what a crashed process holds at most. */
export const SHARED_SLOT_TTL_MS = 30_000;
/** Longest wait for one Redis call (ms) before it counts as unavailable, whatever the connection's own timeout. */
export const COMMAND_TIMEOUT_MS = 1_000;

const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) or redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], 2 * ttl)
redis.call('PEXPIRE', KEYS[2], 2 * ttl)
return 1`;

const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
local kept = redis.call('ZADD', KEYS[1], 'XX', 'CH', now + ttl, ARGV[1])
redis.call('ZADD', KEYS[2], 'XX', 'CH', now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], 2 * ttl)
redis.call('PEXPIRE', KEYS[2], 2 * ttl)
return kept`;

interface Held {
  all: string;
  client: string;
  member: string;
}

/** One process's view of one pool. */
export class SharedSlots {
  private readonly held = new Set<Held>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private seq = 0;
  private readonly ttlMs: number;
  private stopped = false;

  /**
   * `prefix`: the Redis key prefix (REDIS_KEY_PREFIX); `pool`: what is counted; `processId`: this
   * process's id in the members (host:pid:random by default); `ttlMs`: a slot's life without renewal.
   */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly pool: string,
    private readonly processId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    ttlMs = SHARED_SLOT_TTL_MS,
  ) {
    this.ttlMs = ttlMs;
  }

  private keys(client: string): { all: string; client: string } {
    const base = `${this.prefix}:slots:{${this.pool}}`;
    return { all: `${base}:all`, client: `${base}:client:${client}` };
  }

  /**
   * Takes a slot for `client` when fewer than `caps.total` slots of the pool and fewer than
   * `caps.perClient` of the client are held by all processes. Resolves the slot, "full", or
   * "unavailable" when Redis did not answer within COMMAND_TIMEOUT_MS or failed. Never rejects.
   */
  async tryAcquire(client: string, caps: SharedCaps): Promise<SharedAcquire> {
    if (this.stopped) return "unavailable";
    await whenReady(this.redis); // a new process's first call waits (once, ≤ 500 ms) for the connection being made
    const k = this.keys(client);
    const member = `${this.processId}:${++this.seq}`;
    let got: unknown;
    try {
      got = await deadline(this.redis.eval(ACQUIRE, 2, k.all, k.client, member, this.ttlMs, caps.total, caps.perClient));
    } catch {
      // the script may have run after our deadline: remove the member if it did (it would expire anyway)
      this.redis.zrem(k.all, member).catch(() => {});
      this.redis.zrem(k.client, member).catch(() => {});
      return "unavailable";
    }
    if (Number(got) !== 1) return "full";
    const held: Held = { ...k, member };
    this.held.add(held);
    this.startRenewing();
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.held.delete(held);
        if (this.held.size === 0) this.stopRenewing();
        if (this.stopped) return;
        this.redis
          .multi()
          .zrem(held.all, held.member)
          .zrem(held.client, held.member)
          .exec()
          .catch(() => {}); // not removed: it expires after ttlMs
      },
    };
  }

  /** Slots this process holds in the pool. */
  heldCount(): number {
    return this.held.size;
  }

  /**
   * Stops renewing and forgets the slots without removing them from Redis, as a process that
   * exits or crashes does: they expire after ttlMs. Later calls answer "unavailable".
   */
  stop(): void {
    this.stopped = true;
    this.stopRenewing();
    this.held.clear();
  }

  private startRenewing(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.ttlMs / 3)));
    this.timer.unref?.();
  }

  private stopRenewing(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async renew(): Promise<void> {
    for (const h of [...this.held]) {
      // a slot lost while Redis was away (expired meanwhile) is not re-added: the count is then low for its remaining life
      await deadline(this.redis.eval(RENEW, 2, h.all, h.client, h.member, this.ttlMs)).catch(() => {});
    }
  }
}

/** `p`, rejected after COMMAND_TIMEOUT_MS. */
function deadline<T>(p: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("redis timed out")), COMMAND_TIMEOUT_MS);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

// Module state, not globalThis: a second copy of this module (another bundle layer of Next, a test's
// second "process") counts as a holder of its own, which keeps the shared counts right.
const state: { __svcSharedSlots?: { url: string; prefix: string; redis: Redis; pools: Map<string, SharedSlots> } } = {};

/**
 * This process's SharedSlots for `pool` when REDIS_URL is set (one Redis connection for all
 * pools), else null: count per process only. Read on every call, so tests can set REDIS_URL and
 * REDIS_KEY_PREFIX.
 */
export function sharedSlots(pool: string): SharedSlots | null {
  const url = process.env.REDIS_URL;
  if (!url) return null;
  const prefix = process.env.REDIS_KEY_PREFIX || "svc";
  let s = state.__svcSharedSlots;
  if (!s || s.url !== url || s.prefix !== prefix) {
    if (s) void closeSharedSlots();
    const redis = createRedis(url, "slots");
    s = state.__svcSharedSlots = { url, prefix, redis, pools: new Map() };
  }
  let pools = s.pools.get(pool);
  if (!pools) s.pools.set(pool, (pools = new SharedSlots(s.redis, prefix, pool)));
  return pools;
}

/** Stops every pool of this process and closes its Redis connection (tests, shutdown); held slots expire. */
export async function closeSharedSlots(): Promise<void> {
  const s = state.__svcSharedSlots;
  state.__svcSharedSlots = undefined;
  if (!s) return;
  for (const p of s.pools.values()) p.stop();
  await closeRedis(s.redis);
}
