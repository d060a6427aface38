/**
 * The read path's registry is one per process, not one per copy of server/db/read.ts: Next's
 * production server evaluates the module once per bundle (instrumentation, route handlers,
 * server components), and the database client is opened by whichever copy runs first (the job
 * worker, at start-up). With a module-level map, every request's `readRows` missed the reader and
 * ran on Prisma (docs/performance.md "Hardening II, item 15"). Two copies are made here with
 * `vi.resetModules`, as Next's bundles make them.
 */
import { describe, expect, it, vi } from "vitest";

describe("readRows across copies of the module", () => {
  it("uses the reader registered by another copy of server/db/read.ts, and its observers", async () => {
    const first = await import("@/server/db/read");
    vi.resetModules();
    const second = await import("@/server/db/read");
    expect(second).not.toBe(first); // two module instances, as in two Next bundles

    const db = { $queryRawUnsafe: vi.fn(async () => [{ via: "prisma" }]) };
    const reader = { all: vi.fn(async () => [{ via: "reader" }]), close: vi.fn(async () => {}) };
    const seen: string[] = [];
    const stop = first.observeReads((text) => seen.push(text));
    first.registerReader(db as never, reader as never);
    try {
      expect(await second.readRows(db as never, "SELECT 1", [])).toEqual([{ via: "reader" }]);
      expect(db.$queryRawUnsafe).not.toHaveBeenCalled();
      expect(seen).toEqual(["SELECT 1"]);
    } finally {
      stop();
      await second.closeReader(db as never);
    }
    expect(reader.close).toHaveBeenCalledTimes(1);
    // once closed (closeDb) neither copy knows the reader: a transaction-like client goes through Prisma
    expect(await first.readRows(db as never, "SELECT 2", [])).toEqual([{ via: "prisma" }]);
  });
});
