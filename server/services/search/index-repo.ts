/**
 * Builds and refreshes the semantic index of one branch (docs/ai.md "Index").
 * The `search.indexRepo` job runs it after every push to an indexed branch (the default branch
 * always); ai.semanticSearch runs it inline for a small repository that has no index yet.
 *
 * A refresh: list the branch tip's indexable files (files.ts) → chunk only the blobs no index has
 * chunked before (chunk.ts; SearchBlob is content-addressed and shared) → swap the index's
 * path → blob list in one transaction, guarded on the commit it started from (a concurrent
 * refresh that finished first wins; nothing is half-written) → drop blobs no index holds any
 * more → with an embedding model, embed the chunks that have no vector for it (embeddings.ts).
 * The lexical index is committed before any embedding: a provider error (unreachable, 401, 429…)
 * does not fail the refresh; it is recorded on the index (`embeddingError`, `embeddingFailedAt`;
 * ai.searchIndexStatus shows it), searches stay lexical, and the next refresh tries again.
 * Idempotent: running it again for the same commit changes nothing — unless the index was cut by
 * an older chunker (CHUNKER_VERSION, chunk.ts): then its older blobs are cut again.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { retryOnUniqueViolation } from "@/server/db/unique-retry";
import { repoGitDir } from "@/server/git/paths";
import { resolveCommit } from "@/server/git/repository";
import { chunkFile, CHUNKER_VERSION } from "./chunk";
import { indexableFiles, readTexts, type TreeFile } from "./files";
import { embedIndexChunks, EmbeddingProviderError, type EmbeddingEngine } from "./embeddings";
import { warmVectors } from "./vectors";
import { languageOf } from "@/server/ai/syntax/parser";

export interface IndexStats {
  indexId: string;
  branch: string;
  /** The commit indexed (null: the branch does not exist). */
  commitSha: string | null;
  files: number;
  chunks: number;
  /** Blobs read and chunked by this refresh. */
  chunkedBlobs: number;
  /** Blobs whose chunks were already stored. */
  reusedBlobs: number;
  /** Chunks embedded by this refresh. */
  embedded: number;
  /** False when another refresh of the same index finished first (this one wrote nothing of the file list). */
  applied: boolean;
  /** The embedding provider's error when embedding failed (the lexical index is committed regardless). */
  embeddingError?: string;
}

/** Blobs chunked per database transaction. */
const BLOB_BATCH = 100;
/** Rows per IN list / createMany. */
const ROWS = 500;

function* batches<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** The repository's row and bare repository; NOT_FOUND when it is gone. */
async function repoOf(db: Db, repoId: string) {
  const repo = await db.repository.findUnique({
    where: { id: repoId },
    select: { id: true, name: true, defaultBranch: true, owner: { select: { username: true } } },
  });
  if (!repo) throw new AppError("NOT_FOUND", "repository not found");
  return { ...repo, gitDir: repoGitDir(repo.owner.username, repo.name) };
}

/** Stored chunk counts of `oids` chunked by the current chunker (older ones are cut again). */
async function knownBlobs(db: Db, oids: string[]): Promise<Map<string, number>> {
  const known = new Map<string, number>();
  for (const part of batches(oids, ROWS)) {
    for (const b of await db.searchBlob.findMany({
      where: { oid: { in: part }, chunker: { gte: CHUNKER_VERSION } },
      select: { oid: true, chunkCount: true },
    }))
      known.set(b.oid, b.chunkCount);
  }
  return known;
}

/** Chunks and stores blobs `files` (each oid once); → chunk count per oid. */
async function chunkBlobs(db: Db, gitDir: string, files: TreeFile[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const group of batches(files, BLOB_BATCH)) {
    const texts = await readTexts(gitDir, group);
    const rows: Array<{
      blob: { oid: string; language: string | null; chunkCount: number };
      chunks: Awaited<ReturnType<typeof chunkFile>>;
    }> = [];
    for (const f of group) {
      const text = texts.get(f.oid);
      const chunks = text == null ? [] : await chunkFile(f.path, text);
      rows.push({
        blob: { oid: f.oid, language: text == null ? null : (languageOf(f.path) ?? "text"), chunkCount: chunks.length },
        chunks,
      });
      counts.set(f.oid, chunks.length);
    }
    // a concurrent refresh (another branch, another repository, another process) may store some meanwhile
    await retryOnUniqueViolation(() =>
      db.$transaction(
        async (tx) => {
          const have = new Map(
            (
              await tx.searchBlob.findMany({ where: { oid: { in: rows.map((r) => r.blob.oid) } }, select: { oid: true, chunker: true } })
            ).map((b) => [b.oid, b.chunker]),
          );
          const fresh = rows.filter((r) => !have.has(r.blob.oid));
          // cut by an older chunker: new chunks replace theirs (vectors go with them), and the indexes
          // holding them lose their "every chunk has a vector" mark until their next refresh embeds
          const stale = rows.filter((r) => (have.get(r.blob.oid) ?? CHUNKER_VERSION) < CHUNKER_VERSION);
          if (!fresh.length && !stale.length) return;
          if (fresh.length) await tx.searchBlob.createMany({ data: fresh.map((r) => ({ ...r.blob, chunker: CHUNKER_VERSION })) });
          if (stale.length) {
            const oids = stale.map((r) => r.blob.oid);
            await tx.searchChunk.deleteMany({ where: { blobOid: { in: oids } } });
            for (const r of stale)
              await tx.searchBlob.update({
                where: { oid: r.blob.oid },
                data: { language: r.blob.language, chunkCount: r.blob.chunkCount, chunker: CHUNKER_VERSION },
              });
            await tx.searchIndex.updateMany({ where: { files: { some: { blobOid: { in: oids } } } }, data: { embeddingModel: null } });
          }
          const chunkRows = [...fresh, ...stale].flatMap((r) => r.chunks.map((c) => ({ ...c, blobOid: r.blob.oid })));
          for (const part of batches(chunkRows, ROWS)) await tx.searchChunk.createMany({ data: part });
        },
        { maxWait: 60_000, timeout: 120_000 },
      ),
    );
  }
  return counts;
}

/**
 * Refreshes the index of `branch` (default: the repository's default branch) to the branch's
 * tip. `embedding`: embed missing chunk vectors with this engine (none: lexical only).
 * Errors: NOT_FOUND when the repository is gone; git and database errors propagate (the job retries).
 */
export async function refreshSearchIndex(db: Db, repoId: string, branch?: string, embedding?: EmbeddingEngine): Promise<IndexStats> {
  const repo = await repoOf(db, repoId);
  const name = branch ?? repo.defaultBranch;
  const index = await db.searchIndex.upsert({
    where: { repoId_branch: { repoId, branch: name } },
    create: { repoId, branch: name },
    update: {},
    select: { id: true, commitSha: true, status: true, embeddingModel: true, chunker: true },
  });
  const stats: IndexStats = {
    indexId: index.id,
    branch: name,
    commitSha: null,
    files: 0,
    chunks: 0,
    chunkedBlobs: 0,
    reusedBlobs: 0,
    embedded: 0,
    applied: true,
  };
  const tip = await resolveCommit(repo.gitDir, `refs/heads/${name}`);
  stats.commitSha = tip;
  if (tip && tip === index.commitSha && index.status === "ready" && index.chunker >= CHUNKER_VERSION) {
    if (embedding && index.embeddingModel !== embedding.engine) await embedRecordingFailure(db, index.id, embedding, stats);
    const current = await db.searchIndex.findUniqueOrThrow({ where: { id: index.id }, select: { fileCount: true, chunkCount: true } });
    return { ...stats, files: current.fileCount, chunks: current.chunkCount, applied: false };
  }
  await db.searchIndex.updateMany({ where: { id: index.id, status: { not: "indexing" } }, data: { status: "indexing", error: null } });
  try {
    const files = tip ? await indexableFiles(repo.gitDir, tip) : [];
    const oids = [...new Set(files.map((f) => f.oid))];
    const known = await knownBlobs(db, oids);
    const seen = new Set<string>();
    const todo = files.filter((f) => !known.has(f.oid) && !seen.has(f.oid) && seen.add(f.oid));
    const chunked = await chunkBlobs(db, repo.gitDir, todo);
    stats.chunkedBlobs = todo.length;
    stats.reusedBlobs = oids.length - todo.length;
    const countOf = (oid: string) => known.get(oid) ?? chunked.get(oid) ?? 0;
    stats.files = files.length;
    stats.chunks = files.reduce((n, f) => n + countOf(f.oid), 0);
    stats.applied = await swapFiles(db, index.id, index.commitSha, tip, files, stats);
  } catch (e) {
    await db.searchIndex
      .update({ where: { id: index.id }, data: { status: "failed", error: String((e as Error).message ?? e).slice(0, 500) } })
      .catch(() => {});
    throw e;
  }
  if (embedding) await embedRecordingFailure(db, index.id, embedding, stats);
  return stats;
}

/**
 * Embeds the index's missing vectors (embedIndexChunks) into `stats.embedded` and loads them into
 * this process's memory (warmVectors); a provider error is
 * recorded on the index (`embeddingError`, `embeddingFailedAt`) and in `stats.embeddingError`
 * instead of thrown, so the job that runs this succeeds with the lexical index in place (the
 * vectors embedded before the error stay; the next refresh continues). Database errors propagate.
 */
async function embedRecordingFailure(db: Db, indexId: string, embedding: EmbeddingEngine, stats: IndexStats): Promise<void> {
  try {
    stats.embedded = await embedIndexChunks(db, indexId, embedding);
    // the search after a push should not wait for the vectors to load (vectors.ts)
    await warmVectors(db, indexId, embedding.engine);
  } catch (e) {
    if (!(e instanceof EmbeddingProviderError)) throw e;
    stats.embeddingError = e.message;
    await db.searchIndex.update({
      where: { id: indexId },
      data: { embeddingError: e.message.slice(0, 500), embeddingErrorDetail: e.detail.slice(0, 500), embeddingFailedAt: new Date() },
    });
  }
}

/**
 * Replaces the index's file list with `files` as of `tip`, in one transaction guarded on the
 * commit the refresh started from; then removes blobs that no index holds any more. False when
 * another refresh moved the index first.
 */
async function swapFiles(
  db: Db,
  indexId: string,
  from: string | null,
  tip: string | null,
  files: TreeFile[],
  stats: IndexStats,
): Promise<boolean> {
  const before = new Map(
    (await db.searchFile.findMany({ where: { indexId }, select: { path: true, blobOid: true } })).map((f) => [f.path, f.blobOid]),
  );
  const now = new Map(files.map((f) => [f.path, f.oid]));
  const gone = [...before.keys()].filter((p) => !now.has(p));
  const changed = files.filter((f) => before.get(f.path) !== f.oid);
  const applied = await db.$transaction(
    async (tx) => {
      const moved = await tx.searchIndex.updateMany({
        where: { id: indexId, commitSha: from },
        data: {
          commitSha: tip,
          status: "ready",
          error: null,
          fileCount: stats.files,
          chunkCount: stats.chunks,
          indexedAt: new Date(),
          embeddingModel: null,
          chunker: CHUNKER_VERSION,
        },
      });
      if (moved.count === 0) return false;
      const drop = [...gone, ...changed.filter((f) => before.has(f.path)).map((f) => f.path)];
      for (const part of batches(drop, ROWS)) await tx.searchFile.deleteMany({ where: { indexId, path: { in: part } } });
      for (const part of batches(changed, ROWS))
        await tx.searchFile.createMany({ data: part.map((f) => ({ indexId, path: f.path, blobOid: f.oid })) });
      return true;
    },
    { maxWait: 60_000, timeout: 120_000 },
  );
  if (!applied) return false;
  // blobs this index let go of, unless another index (or path) still holds them
  const released = [
    ...new Set([...gone.map((p) => before.get(p)!), ...changed.map((f) => before.get(f.path)).filter((o): o is string => !!o)]),
  ];
  for (const part of batches(released, ROWS)) {
    await db.$transaction(async (tx) => {
      const held = new Set(
        (await tx.searchFile.findMany({ where: { blobOid: { in: part } }, select: { blobOid: true }, distinct: ["blobOid"] })).map(
          (f) => f.blobOid,
        ),
      );
      const free = part.filter((o) => !held.has(o));
      if (!free.length) return;
      await tx.searchChunk.deleteMany({ where: { blobOid: { in: free } } });
      await tx.searchBlob.deleteMany({ where: { oid: { in: free } } });
    });
  }
  return true;
}
