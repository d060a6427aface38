/**
 * Git LFS files in the browser (docs/lfs.md "In the browser"): a blob that is an LFS pointer is
 * shown, diffed and downloaded as the object it names, when this repository may serve that object.
 *
 * The rule (security): a repository serves an object only when it references it (an
 * LfsRepoObject row: an upload to it, or a fork's copy of its parent's rows). Anyone can commit a
 * pointer naming any oid; without the row check a pointer in a public repository could read an
 * object uploaded only to a private one. A pointer whose object is not referenced, or whose file
 * is missing or of another size, stays a pointer (the page says "object not uploaded").
 */
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { Db } from "@/server/db";
import { LFS_POINTER_MAX_BYTES, parseLfsPointer } from "@/lib/lfs-pointer";
import { BINARY_SNIFF_BYTES, MAX_TEXT_BYTES, looksBinary, type Blob } from "@/server/git/repository";
import { objectInfo, readBlobs } from "@/server/git/objects";
import { lfsObjectPath } from "./object-path";

/** A pointer this repository may serve: the object's oid (hex SHA-256), size in bytes and content file. */
export interface LfsBlob {
  oid: string;
  size: number;
  path: string;
}

/** What a file view or diff says of an LFS pointer: its object, and whether this repository serves it. */
export interface LfsInfo {
  oid: string;
  /** The object's size in bytes (the pointer's `size`). */
  size: number;
  /** False: the pointer is shown as is ("stored in Git LFS; object not uploaded"). */
  stored: boolean;
}

/**
 * The object a pointer blob names, when repository `repoId` may serve it (an LfsRepoObject row
 * exists) and its content file exists with the pointer's size; else null (not a pointer, not
 * referenced, not uploaded). `content`: the blob's bytes; anything of LFS_POINTER_MAX_BYTES or
 * more is not a pointer and is answered null without a query (callers check the blob's size
 * with `git cat-file --batch-check` before reading it). One indexed query and one stat.
 */
export async function resolveLfsBlob(db: Db, repoId: string, content: Buffer | string): Promise<LfsBlob | null> {
  if (content.length >= LFS_POINTER_MAX_BYTES) return null;
  const pointer = parseLfsPointer(typeof content === "string" ? content : content.toString("utf8"));
  if (!pointer) return null;
  const row = await db.lfsRepoObject.findUnique({ where: { repoId_oid: { repoId, oid: pointer.oid } }, select: { oid: true } });
  if (!row) return null;
  const path = lfsObjectPath(pointer.oid);
  const st = await stat(path).catch(() => null);
  if (!st?.isFile() || st.size !== pointer.size) return null;
  return { oid: pointer.oid, size: pointer.size, path };
}

/**
 * The LFS view of blob `blobSha` of a repository: null when it is not a pointer (its size,
 * from `--batch-check`, is LFS_POINTER_MAX_BYTES or more, or its text does not parse); else the
 * pointer's object and `blob` (its LfsBlob) when stored. Reads at most LFS_POINTER_MAX_BYTES of git.
 */
export async function lfsInfoOfBlob(
  db: Db,
  repoId: string,
  gitDir: string,
  blobSha: string,
): Promise<{ info: LfsInfo; blob: LfsBlob | null } | null> {
  const [meta] = await objectInfo(gitDir, [blobSha]);
  if (meta?.type !== "blob" || meta.size >= LFS_POINTER_MAX_BYTES) return null;
  let content: Buffer | null = null;
  await readBlobs(gitDir, [meta.id], (_, c) => (content = Buffer.from(c)));
  if (!content) return null;
  return lfsInfoOf(db, repoId, content);
}

/** As `lfsInfoOfBlob`, for content already read (under LFS_POINTER_MAX_BYTES, else null). */
export async function lfsInfoOf(db: Db, repoId: string, content: Buffer | string): Promise<{ info: LfsInfo; blob: LfsBlob | null } | null> {
  if (content.length >= LFS_POINTER_MAX_BYTES) return null;
  const pointer = parseLfsPointer(typeof content === "string" ? content : content.toString("utf8"));
  if (!pointer) return null;
  const blob = await resolveLfsBlob(db, repoId, content);
  return { info: { ...pointer, stored: blob !== null }, blob };
}

/**
 * The first `max` bytes of an object's content file (fewer when it is shorter). Bounded:
 * one read of at most `max` bytes.
 */
export async function readLfsHead(blob: LfsBlob, max: number): Promise<Buffer> {
  const fh = await open(blob.path, "r");
  try {
    const buf = Buffer.alloc(Math.min(max, blob.size));
    let at = 0;
    while (at < buf.length) {
      const { bytesRead } = await fh.read(buf, at, buf.length - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return buf.subarray(0, at);
  } finally {
    await fh.close();
  }
}

/**
 * A file view's blob (`readBlob`'s shape) with LFS applied: for a pointer this repository serves,
 * the object's size, binary flag and text (up to MAX_TEXT_BYTES, read from the content file; the
 * same limits as any blob); `lfs` says whether the file is a pointer and whether it is stored.
 * Blobs that are not pointers come back unchanged with `lfs` null.
 */
export async function withLfsContent(db: Db, repoId: string, blob: Blob): Promise<Blob & { lfs: LfsInfo | null }> {
  if (blob.size >= LFS_POINTER_MAX_BYTES || blob.text === null) return { ...blob, lfs: null };
  const found = await lfsInfoOf(db, repoId, blob.text);
  if (!found) return { ...blob, lfs: null };
  if (!found.blob) return { ...blob, lfs: found.info };
  const obj = found.blob;
  const head = await readLfsHead(obj, Math.max(MAX_TEXT_BYTES, BINARY_SNIFF_BYTES));
  const isBinary = looksBinary(head);
  const truncated = !isBinary && obj.size > MAX_TEXT_BYTES;
  const text = isBinary ? null : truncated ? new StringDecoder("utf8").write(head.subarray(0, MAX_TEXT_BYTES)) : head.toString("utf8");
  return { ...blob, size: obj.size, isBinary, truncated, text, lfs: found.info };
}

/**
 * The object's content as a web stream for a Response body (pull-based: a slow client slows the
 * reads, memory stays flat); aborting `signal` (the client went away) closes the file.
 */
export function lfsObjectStream(blob: LfsBlob, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const file = createReadStream(blob.path, { highWaterMark: 64 * 1024 });
  signal?.addEventListener("abort", () => file.destroy(), { once: true });
  return Readable.toWeb(file) as ReadableStream<Uint8Array>;
}
