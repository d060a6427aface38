/**
 * Stores one uploaded LFS object (docs/lfs.md "Upload", "Quota"): the body is streamed to a
 * temporary file under DATA_DIR/lfs/tmp while its SHA-256 and length are computed — never held in
 * memory — and refused (temporary file deleted, nothing recorded) when it is longer or shorter
 * than the size announced or its hash is not the oid. A verified object is then recorded in one
 * transaction serialized per repository (`lockKey("lfs-usage:<repoId>")`: a PostgreSQL advisory
 * lock, so across svc processes too; SQLite's BEGIN IMMEDIATE transactions run one at a time): unless the
 * repository already references the oid, its usage plus this size is checked against its quota
 * again (the batch's check is not a reservation: concurrent uploads could pass it together), and
 * refused (LfsQuotaExceeded, temporary file deleted, nothing recorded) when over; else the
 * LfsObject row (created, or its createdAt refreshed for the GC grace period: gc-objects.ts) and
 * the repository's LfsRepoObject row are written idempotently and the file is renamed into its
 * content-addressed place (object-path.ts; a rename over an existing copy is harmless: same
 * content) before the commit — a failed rename rolls the rows back.
 */
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Db } from "@/server/db";
import { inTransaction, lockKey } from "@/server/db/transaction";
import { AppError } from "@/server/errors";
import { lfsObjectPath, lfsTempDir } from "./object-path";
import { lfsUsage, sizeProblem } from "./quota";

/** The body ended with a length or hash other than announced. */
export class LfsContentMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LfsContentMismatch";
  }
}

/**
 * Recording the object would take the repository past its quota (or the object is over the
 * per-object limit): `status` is what the LFS API answers, 507 for the quota, 422 for the limit
 * (as the batch's per-object errors, plan-batch.ts); `message` names usage, quota and size.
 */
export class LfsQuotaExceeded extends Error {
  constructor(
    readonly status: 507 | 422,
    message: string,
  ) {
    super(message);
    this.name = "LfsQuotaExceeded";
  }
}

/** Counts and hashes the bytes passing through; fails as soon as more than `limit` bytes came. */
class HashCounter extends Transform {
  readonly hash = createHash("sha256");
  bytes = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) return cb(new LfsContentMismatch(`the body is longer than the announced size of ${this.limit} bytes`));
    this.hash.update(chunk);
    cb(null, chunk);
  }
}

/**
 * Streams `body` into the store as object `oid` of `size` bytes and records that repository
 * `repoId` references it; `through` are streams the body passes first (e.g. an idle timeout).
 * Errors (nothing is kept or recorded for any): LfsContentMismatch when the length or SHA-256
 * differ; LfsQuotaExceeded when the repository's usage plus `size` would pass its quota now;
 * the stream's own error when the client goes away.
 */
export async function storeLfsObject(
  db: Db,
  repoId: string,
  oid: string,
  size: number,
  body: Readable,
  through: Transform[] = [],
): Promise<void> {
  const finalPath = lfsObjectPath(oid);
  const tmpDir = lfsTempDir();
  await mkdir(tmpDir, { recursive: true });
  const tmpPath = path.join(tmpDir, `${oid}.${randomBytes(6).toString("hex")}.part`);
  const counter = new HashCounter(size);
  try {
    await pipeline([body, ...through, counter, createWriteStream(tmpPath, { flags: "wx", mode: 0o600 })]);
    if (counter.bytes !== size)
      throw new LfsContentMismatch(`the body is ${counter.bytes} bytes but the object's announced size is ${size} bytes`);
    const actual = counter.hash.digest("hex");
    if (actual !== oid) throw new LfsContentMismatch(`the body's SHA-256 is ${actual}, not the object id ${oid}`);
    await recordLfsObject(db, repoId, oid, size, async () => {
      await mkdir(path.dirname(finalPath), { recursive: true });
      await rename(tmpPath, finalPath);
    });
  } catch (e) {
    await unlink(tmpPath).catch(() => {});
    throw e;
  }
}

/**
 * Links object `oid` (`size` bytes) to `repoId` in one transaction serialized per repository:
 * unless already linked, re-checks the usage plus `size` against the quota (quota.ts) and throws
 * LfsQuotaExceeded (nothing written) when over; else upserts the LfsObject row (refreshing
 * createdAt) and the LfsRepoObject row and runs `place` (putting the file in the store) before
 * the commit. Retried once on a concurrent insert of the same oid (CONFLICT).
 */
export async function recordLfsObject(db: Db, repoId: string, oid: string, size: number, place?: () => Promise<void>): Promise<void> {
  const write = () =>
    inTransaction(db, async (tx) => {
      await lockKey(tx, `lfs-usage:${repoId}`); // concurrent uploads into one repository cannot pass the quota together
      const linked = await tx.lfsRepoObject.findUnique({ where: { repoId_oid: { repoId, oid } }, select: { oid: true } });
      if (!linked) {
        const problem = sizeProblem(size, await lfsUsage(tx, repoId));
        if (problem) throw new LfsQuotaExceeded(problem.startsWith("LFS quota") ? 507 : 422, problem);
      }
      await tx.lfsObject.upsert({ where: { oid }, create: { oid, size: BigInt(size) }, update: { createdAt: new Date() } });
      await tx.lfsRepoObject.upsert({ where: { repoId_oid: { repoId, oid } }, create: { repoId, oid }, update: {} });
      await place?.();
    });
  try {
    await write();
  } catch (e) {
    if (!(e instanceof AppError && e.code === "CONFLICT")) throw e;
    await write();
  }
}

/** Reads `repoId`'s reference to `oid`: its size in bytes, or null when the repository does not reference it. */
export async function referencedObjectSize(db: Db, repoId: string, oid: string): Promise<number | null> {
  const row = await db.lfsRepoObject.findUnique({ where: { repoId_oid: { repoId, oid } }, select: { object: { select: { size: true } } } });
  return row ? Number(row.object.size) : null;
}

/** Throws BAD_REQUEST naming the problem when `size` is not a whole number of bytes. */
export function assertLfsSize(size: unknown): asserts size is number {
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0)
    throw new AppError("BAD_REQUEST", "an LFS object size is a non-negative whole number of bytes");
}
