/**
 * The pure parts of the batched mergeability (server/git/merge-batch.ts, lib/map-pool.ts): the
 * `git merge-tree --stdin -z --name-only --no-messages` output format (git's t4301 "--stdin with
 * both a successful and a conflicted merge": `1\0<tree>\0\0`, `0\0<tree>\0<path>\0…\0`) and
 * the bounded pool.
 */
import { describe, expect, it } from "vitest";
import { parseMergeTreeBatch } from "@/server/git/merge-batch";
import { MAX_CONFLICT_PATHS } from "@/server/git/merge";
import { mapPool } from "@/lib/map-pool";

const T1 = "1".repeat(40);
const T2 = "2".repeat(40);
const T3 = "a".repeat(64);

describe("parseMergeTreeBatch", () => {
  it("reads clean and conflicted merges in input order", () => {
    const out = `1\0${T1}\0\0` + `0\0${T2}\0greeting\0whatever~side1\0\0` + `1\0${T3}\0\0`;
    expect(parseMergeTreeBatch(Buffer.from(out))).toEqual([
      { tree: T1, conflicts: [], conflictsTruncated: false },
      { tree: T2, conflicts: ["greeting", "whatever~side1"], conflictsTruncated: false },
      { tree: T3, conflicts: [], conflictsTruncated: false },
    ]);
  });

  it("keeps only the merges git finished (it dies mid-batch on unrelated histories)", () => {
    expect(parseMergeTreeBatch(`1\0${T1}\0\0` + `0\0${T2}\0a.txt\0`)).toEqual([{ tree: T1, conflicts: [], conflictsTruncated: false }]);
    expect(parseMergeTreeBatch(`1\0${T1}\0`)).toEqual([]);
    expect(parseMergeTreeBatch(`0\0${T2}\0a.t`)).toEqual([]);
    expect(parseMergeTreeBatch("")).toEqual([]);
    expect(parseMergeTreeBatch("usage: git merge-tree …\n")).toEqual([]);
  });

  it("caps conflicting paths like mergeTree", () => {
    const paths = Array.from({ length: MAX_CONFLICT_PATHS + 2 }, (_, i) => `f${i}`);
    const [r] = parseMergeTreeBatch(`0\0${T1}\0${paths.join("\0")}\0\0`);
    expect(r.conflicts).toHaveLength(MAX_CONFLICT_PATHS);
    expect(r.conflictsTruncated).toBe(true);
  });
});

describe("mapPool", () => {
  it("keeps input order and never runs more than the limit at once", async () => {
    let running = 0;
    let most = 0;
    const out = await mapPool([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      for (let i = 0; i < n; i++) await Promise.resolve();
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0]);
    expect(most).toBe(2);
  });

  it("rejects with the first error and starts nothing after it", async () => {
    const started: number[] = [];
    const run = mapPool([1, 2, 3, 4], 1, async (n) => {
      started.push(n);
      if (n === 2) throw new Error("two");
      return n;
    });
    await expect(run).rejects.toThrow("two");
    expect(started).toEqual([1, 2]);
    await expect(mapPool([1], 0, async (n) => n)).rejects.toThrow(RangeError);
  });
});
