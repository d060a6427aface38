/**
 * The LFS batch API and the "basic" transfer endpoints (docs/lfs.md "Batch API", "Transfers"),
 * under `/<owner>/<repo>.git/info/lfs/`:
 *
 *   POST objects/batch          which objects to transfer and where (services/lfs/plan-batch.ts)
 *   GET  objects/<oid>          the object's content, streamed (Content-Length set; one byte range
 *                               with `Range`, as git-lfs sends to resume a download)
 *   PUT  objects/<oid>/<size>   upload: streamed to disk while hashed (services/lfs/store-object.ts)
 *   POST verify                 {oid, size}: 200 once the repository has the object
 *
 * Bodies are bounded: the batch and verify JSON by MAX_BODY_BYTES (1 MiB), an upload by its
 * announced size (and the per-object limit and quota, checked before reading a byte), every wait
 * for upload data by the git HTTP idle timeout (SVC_GIT_UPLOAD_IDLE_MS, http-limits.ts).
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable, Transform, type TransformCallback } from "node:stream";
import parseRange from "range-parser";
import { getConfig, getAuthSecret } from "@/server/config";
import { getDb } from "@/server/db";
import { isLfsOid } from "@/lib/lfs-pointer";
import { PayloadTooLargeError, readBodyLimited } from "@/server/http/body-limit";
import { gitHttpLimits } from "@/server/http/git/http-limits";
import { NO_CACHE } from "@/server/http/git/plain-text";
import { lfsObjectPath } from "@/server/services/lfs/object-path";
import { planBatch, type BatchObjectIn, type TransferTarget } from "@/server/services/lfs/plan-batch";
import { lfsUsage, sizeProblem } from "@/server/services/lfs/quota";
import { LfsContentMismatch, LfsQuotaExceeded, referencedObjectSize, storeLfsObject } from "@/server/services/lfs/store-object";
import { LFS_TOKEN_TTL_S, signLfsToken, type LfsOperation } from "@/server/services/lfs/token";
import type { LfsAccess } from "./authorize";
import { lfsError, lfsJson } from "./respond";

/** Most objects one batch request may name (git-lfs sends at most 100). */
export const MAX_BATCH_OBJECTS = 1000;

/** The JSON body of an LFS request (at most 1 MiB), or the 413/400 answer. */
export async function readLfsJson(req: Request): Promise<Record<string, unknown> | Response> {
  let raw: Uint8Array;
  try {
    raw = await readBodyLimited(req);
  } catch (e) {
    if (e instanceof PayloadTooLargeError) return lfsError(413, e.message);
    return lfsError(400, "could not read the request body");
  }
  try {
    const body = JSON.parse(Buffer.from(raw).toString("utf8")) as unknown;
    if (body && typeof body === "object" && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // answered below
  }
  return lfsError(400, "the request body must be a JSON object");
}

/** The LFS base URL of a repository: `<public URL>/<owner>/<repo>.git/info/lfs` (config.publicUrl, as clone URLs). */
export function lfsBaseHref(owner: string, name: string): string {
  return `${getConfig().publicUrl}/${encodeURIComponent(owner)}/${encodeURIComponent(name)}.git/info/lfs`;
}

/** The headers a batch answer's actions carry: the request's own LFS token, a fresh one for its principal, or none (anonymous). */
function transferTarget(access: LfsAccess, operation: LfsOperation): TransferTarget {
  const baseHref = lfsBaseHref(access.repo.owner, access.repo.name);
  if (access.token) return { baseHref, header: { Authorization: `Bearer ${access.token}` }, expiresIn: LFS_TOKEN_TTL_S };
  if (!access.principal) return { baseHref, header: {}, expiresIn: LFS_TOKEN_TTL_S };
  const { token, expiresIn } = signLfsToken(getAuthSecret(), { repoId: access.repo.id, operation, principal: access.principal });
  return { baseHref, header: { Authorization: `Bearer ${token}` }, expiresIn };
}

/** POST objects/batch with an already parsed body and access checked for the body's operation. */
export async function answerBatch(access: LfsAccess, body: Record<string, unknown>): Promise<Response> {
  const operation = body.operation as LfsOperation;
  if (body.transfers !== undefined && !(Array.isArray(body.transfers) && body.transfers.includes("basic")))
    return lfsError(422, 'svc supports only the "basic" transfer adapter');
  if (body.hash_algo !== undefined && body.hash_algo !== "sha256") return lfsError(409, 'svc supports only the "sha256" hash algorithm');
  if (!Array.isArray(body.objects)) return lfsError(422, '"objects" must be an array of {oid, size}');
  if (body.objects.length > MAX_BATCH_OBJECTS) return lfsError(413, `a batch may name at most ${MAX_BATCH_OBJECTS} objects`);
  const objects = (body.objects as unknown[]).map((o) => (o && typeof o === "object" ? (o as BatchObjectIn) : { oid: null, size: null }));
  const planned = await planBatch(await getDb(), access.repo.id, operation, objects, transferTarget(access, operation));
  return lfsJson(200, { transfer: "basic", objects: planned, hash_algo: "sha256" });
}

/**
 * The byte range a GET asks for (RFC 9110 §14): one range → `{start, end}` (inclusive byte
 * offsets); a range past the end → "unsatisfiable" (416); no Range, a malformed one or several
 * ranges → null, the whole object (a server may ignore Range, §14.2; git-lfs asks for one).
 */
export function requestedRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  if (!header) return null;
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) return "unsatisfiable";
  if (ranges === -2 || ranges.type !== "bytes" || ranges.length !== 1) return null;
  return { start: ranges[0].start, end: ranges[0].end };
}

/**
 * GET objects/<oid>: the content, streamed with backpressure; 404 unless the repository references
 * it. With `Range: bytes=N-` (git-lfs resuming an interrupted download) or any one range: 206 with
 * Content-Range and that part; a range past the end: 416 with a Content-Range naming the size.
 */
export async function downloadObject(req: Request, access: LfsAccess, oid: string): Promise<Response> {
  if (!isLfsOid(oid)) return lfsError(422, "the object id must be 64 lower-case hex characters (SHA-256)");
  const size = await referencedObjectSize(await getDb(), access.repo.id, oid);
  const file = lfsObjectPath(oid);
  const present =
    size !== null &&
    (await stat(file).then(
      (s) => s.isFile() && s.size === size,
      () => false,
    ));
  if (!present) return lfsError(404, "object does not exist in this repository");
  const range = requestedRange(req.headers.get("range"), size);
  if (range === "unsatisfiable")
    return lfsError(416, `the requested range is outside the object (${size} bytes)`, { "content-range": `bytes */${size}` });
  const headers: Record<string, string> = { "content-type": "application/octet-stream", "accept-ranges": "bytes", ...NO_CACHE };
  if (size === 0) return new Response(null, { status: 200, headers: { ...headers, "content-length": "0" } });
  const { start, end } = range ?? { start: 0, end: size - 1 };
  headers["content-length"] = String(end - start + 1);
  if (range) headers["content-range"] = `bytes ${start}-${end}/${size}`;
  const stream = createReadStream(file, { highWaterMark: 256 * 1024, start, end });
  req.signal.addEventListener("abort", () => stream.destroy(), { once: true });
  return new Response(Readable.toWeb(stream) as ReadableStream, { status: range ? 206 : 200, headers });
}

/** Fails the stream when no chunk came for `idleMs`. */
class IdleWatch extends Transform {
  private timer: NodeJS.Timeout;
  constructor(private readonly idleMs: number) {
    super();
    this.timer = this.arm();
  }
  private arm(): NodeJS.Timeout {
    return setTimeout(() => this.destroy(new Error(`no upload data for ${Math.round(this.idleMs / 1000)} s`)), this.idleMs);
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    clearTimeout(this.timer);
    this.timer = this.arm();
    cb(null, chunk);
  }
  override _flush(cb: TransformCallback): void {
    clearTimeout(this.timer);
    cb();
  }
  override _destroy(err: Error | null, cb: (error: Error | null) => void): void {
    clearTimeout(this.timer);
    cb(err);
  }
}

/**
 * PUT objects/<oid>/<size>: stores the body when its length and SHA-256 match (422 otherwise;
 * nothing kept). The per-object limit (422) and the quota (507) are checked before reading a byte
 * and the quota again, atomically with recording the object, once it is read (store-object.ts).
 */
export async function uploadObject(req: Request, access: LfsAccess, oid: string, sizeText: string): Promise<Response> {
  if (!isLfsOid(oid)) return lfsError(422, "the object id must be 64 lower-case hex characters (SHA-256)");
  if (!/^(0|[1-9][0-9]{0,15})$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText)))
    return lfsError(422, "the object size must be a non-negative whole number of bytes");
  const size = Number(sizeText);
  const declared = req.headers.get("content-length");
  if (declared !== null && declared.trim() !== String(size))
    return lfsError(422, `Content-Length ${declared.slice(0, 20)} differs from the object's size ${size}`);
  const db = await getDb();
  if ((await referencedObjectSize(db, access.repo.id, oid)) === null) {
    const problem = sizeProblem(size, await lfsUsage(db, access.repo.id));
    if (problem) return lfsError(problem.startsWith("LFS quota") ? 507 : 422, problem);
  }
  const body = req.body ? Readable.fromWeb(req.body as never) : Readable.from([]);
  try {
    await storeLfsObject(db, access.repo.id, oid, size, body, [new IdleWatch(gitHttpLimits().uploadIdleMs)]);
  } catch (e) {
    if (e instanceof LfsContentMismatch) return lfsError(422, `upload refused: ${e.message}`);
    if (e instanceof LfsQuotaExceeded) return lfsError(e.status, e.message); // the quota re-checked as the upload completes
    return lfsError(400, `upload failed: ${(e as Error)?.message ?? "the client went away"}`);
  } finally {
    body.destroy();
  }
  return new Response(null, { status: 200, headers: NO_CACHE });
}

/** POST verify {oid, size}: 200 when the repository has the object with that size, 404 when not, 422 on a size mismatch. */
export async function verifyObject(access: LfsAccess, body: Record<string, unknown>): Promise<Response> {
  const { oid, size } = body;
  if (typeof oid !== "string" || !isLfsOid(oid)) return lfsError(422, "the object id must be 64 lower-case hex characters (SHA-256)");
  const stored = await referencedObjectSize(await getDb(), access.repo.id, oid);
  if (stored === null) return lfsError(404, "object does not exist in this repository");
  if (stored !== size) return lfsError(422, `the object's size is ${stored} bytes, not ${String(size).slice(0, 20)}`);
  return lfsJson(200, {});
}
