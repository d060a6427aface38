/**
 * The vector cache across svc processes (server/services/search/vectors.ts "Several processes"):
 * two copies of the module, each with its own cache as two processes have, search the same index.
 * When one of them (the job worker) re-chunks a file at the same commit and embeds the new chunks,
 * the other must not answer from the copy it loaded before: it sees the index's new version
 * (vectorVersion, read with the index row as the search does) and reloads. The writes are the
 * statements index-repo.ts and embeddings.ts run; nothing tells the other copy about them.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "@/server/db";
import * as first from "@/server/services/search/vectors";
import { toBytes, unit } from "@/server/services/search/embeddings";
import { callerFor, actorOf, makeUser } from "../helpers";

const MODEL = "test:vectors";
const DIMS = 8;

/** A unit vector pointing mostly along axis `axis`. */
const along = (axis: number) => unit(Array.from({ length: DIMS }, (_, i) => (i === axis ? 1 : 0.05)));

type Vectors = typeof first;

/** Returns once the clock is past `t` (ms): updatedAt has millisecond resolution. */
async function after(t: Date): Promise<void> {
  while (Date.now() <= t.getTime()) await new Promise((r) => setImmediate(r));
}
let second: Vectors;

afterAll(() => {
  vi.resetModules();
});

/** What a search of process `v` finds nearest to `q`, reading the index row first (semantic-search.ts). */
async function nearest(v: Vectors, db: Db, indexId: string, q: Float32Array): Promise<number[]> {
  const index = await db.searchIndex.findUniqueOrThrow({ where: { id: indexId }, select: { commitSha: true, updatedAt: true } });
  const found = await v.nearestChunks(db, indexId, v.vectorVersion(index), MODEL, q, 10);
  return (found ?? []).map((f) => f.chunkId);
}

async function chunk(db: Db, blobOid: string, axis: number): Promise<number> {
  const c = await db.searchChunk.create({
    data: {
      blobOid,
      startLine: 1,
      endLine: 2,
      chunkType: "block",
      language: "text",
      content: `chunk ${axis}`,
      nameText: "",
      docText: "",
      bodyText: `chunk ${axis}`,
    },
  });
  await db.searchEmbedding.create({ data: { chunkId: c.id, model: MODEL, vector: toBytes(along(axis)) } });
  return c.id;
}

describe("vector copies of two processes", () => {
  it("a re-chunk and re-embed at the same commit in one process is seen by the other", async () => {
    vi.resetModules();
    second = await import("@/server/services/search/vectors");
    expect(second).not.toBe(first); // two module instances: two caches

    const db = await getDb();
    const owner = await makeUser("vec");
    const repo = await (await callerFor(actorOf(owner))).repos.create({ name: "vectors" });
    const blob = "b".repeat(40);
    await db.searchBlob.create({ data: { oid: blob, chunkCount: 2 } });
    const index = await db.searchIndex.create({
      data: { repoId: repo.id, branch: "main", commitSha: "c".repeat(40), status: "ready", embeddingModel: MODEL },
    });
    await db.searchFile.create({ data: { indexId: index.id, path: "a.txt", blobOid: blob } });
    const a = await chunk(db, blob, 0);
    const b = await chunk(db, blob, 1);

    // both processes load the index's vectors
    expect((await nearest(first, db, index.id, along(1)))[0]).toBe(b);
    expect((await nearest(second, db, index.id, along(1)))[0]).toBe(b);

    await after(index.updatedAt);
    // process two (the worker) re-chunks the blob at the same commit (index-repo.ts: the old
    // chunks and their vectors go, the index loses its embedding mark), then embeds the new chunk
    // and marks the index embedded again (embeddings.ts)
    await db.searchChunk.deleteMany({ where: { blobOid: blob } });
    await db.searchIndex.updateMany({ where: { files: { some: { blobOid: blob } } }, data: { embeddingModel: null } });
    const c = await chunk(db, blob, 2);
    await db.searchIndex.update({ where: { id: index.id }, data: { embeddingModel: MODEL } });

    // process one finds the new chunk and none of the removed ones, as process two does
    for (const v of [first, second]) {
      const found = await nearest(v, db, index.id, along(2));
      expect(found[0]).toBe(c);
      expect(found).not.toContain(a);
      expect(found).not.toContain(b);
    }
  });

  it("the version changes with every update of the index row, updateMany included", async () => {
    const db = await getDb();
    const index = await db.searchIndex.findFirstOrThrow({ select: { id: true, commitSha: true, updatedAt: true } });
    const before = first.vectorVersion(index);
    await after(index.updatedAt);
    await db.searchIndex.updateMany({ where: { id: index.id }, data: { status: "ready" } });
    const moved = await db.searchIndex.findUniqueOrThrow({ where: { id: index.id }, select: { commitSha: true, updatedAt: true } });
    expect(first.vectorVersion(moved)).not.toBe(before);
  });
});
