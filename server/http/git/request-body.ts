/**
 * Reading a git smart HTTP request body on demand (docs/git-http.md "Limits"):
 * git is spawned only once the first byte arrived (`start`), every wait for the client is
 * bounded by `uploadIdleMs` (the wait ends with UploadStalled), a client that goes away ends it
 * with ClientGone, and a body svc stops reading early is drained a little (`abandon`) so the
 * client can read the answer, then cancelled. `ByteLimit` caps decompressed upload-pack bodies.
 */
import { Readable, Transform, type TransformCallback } from "node:stream";
import { gitHttpLimits } from "./http-limits";

/** The decompressed body passed the cap: 413 before git answered (the cap is in bytes). */
export class BodyTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`request body larger than ${maxBytes} bytes after decompression`);
  }
}

/** No body byte arrived for `idleMs` while svc was waiting for one: 408. */
export class UploadStalled extends Error {
  constructor(readonly idleMs: number) {
    super(`no request body data for ${Math.round(idleMs / 1000)} s`);
  }
}

/** The client closed the connection (or the request was aborted) while sending the body. */
export class ClientGone extends Error {
  constructor(cause?: unknown) {
    super("the client closed the connection", { cause });
  }
}

type Chunk = ReadableStreamReadResult<Uint8Array>;

/** A request body read chunk by chunk, with the idle timeout on every wait for the client. */
export class RequestBody {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private pending: Promise<Chunk> | null = null;
  private first: Uint8Array | null = null;
  private finished = false;
  private draining = false;

  constructor(
    body: ReadableStream<Uint8Array>,
    private readonly signal?: AbortSignal,
  ) {
    this.reader = body.getReader();
  }

  /** True once the body was read to its end or cancelled. */
  get done(): boolean {
    return this.finished;
  }

  /**
   * Waits for the first chunk (lazy start: git is spawned after this). Resolves false for an
   * empty body. Rejects with UploadStalled (nothing for `uploadIdleMs` ms) or ClientGone.
   */
  async start(): Promise<boolean> {
    for (;;) {
      const r = await this.read();
      if (r.done) return false;
      if (r.value.byteLength > 0) {
        this.first = r.value;
        return true;
      }
    }
  }

  /**
   * The whole body (the chunk `start` read first) as a Node stream for `pipeline`, pulled with
   * backpressure: time spent while git does not read is not idle time. `onData` runs per chunk.
   * It errors with UploadStalled or ClientGone.
   */
  stream(onData: () => void): Readable {
    const readable = new Readable({
      read: () => {
        if (this.first) {
          const c = this.first;
          this.first = null;
          onData();
          readable.push(Buffer.from(c.buffer, c.byteOffset, c.byteLength));
          return;
        }
        this.read().then(
          (r) => {
            if (r.done) {
              readable.push(null);
              return;
            }
            onData();
            readable.push(Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength));
          },
          (e: unknown) => readable.destroy(e as Error),
        );
      },
    });
    return readable;
  }

  /**
   * svc stopped reading before the end (it answered 413/408, or git exited): reads and drops up
   * to `drainBytes` more bytes in the background (each wait bounded by `uploadIdleMs`) so the
   * client gets to read the answer, then cancels the body (closing the connection if unfinished).
   */
  abandon(): void {
    if (this.finished || this.draining) return;
    this.draining = true;
    this.first = null;
    const limit = gitHttpLimits().drainBytes;
    void (async () => {
      let n = 0;
      try {
        while (n <= limit) {
          const r = await this.read();
          if (r.done) return;
          n += r.value.byteLength;
        }
      } catch {
        // stalled or gone: cancel below
      }
      this.cancel();
    })();
  }

  /** Stops reading at once; the connection closes if the body was not complete. */
  cancel(): void {
    if (this.finished) return;
    this.finished = true;
    this.reader.cancel().catch(() => {});
  }

  /** The next chunk; one read is in flight at a time (shared by concurrent callers). */
  private read(): Promise<Chunk> {
    if (this.finished) return Promise.resolve({ done: true, value: undefined });
    const idleMs = gitHttpLimits().uploadIdleMs;
    if (!this.pending) {
      const p = this.reader.read();
      this.pending = p;
      p.then(
        (r) => {
          if (this.pending === p) this.pending = null;
          if (r.done) this.finished = true;
        },
        () => {
          if (this.pending === p) this.pending = null;
          this.finished = true;
        },
      );
    }
    const pending = this.pending;
    return new Promise<Chunk>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        this.signal?.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        cleanup();
        reject(new ClientGone(this.signal?.reason));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new UploadStalled(idleMs));
      }, idleMs);
      if (this.signal?.aborted) return onAbort();
      this.signal?.addEventListener("abort", onAbort, { once: true });
      pending.then(
        (r) => {
          cleanup();
          resolve(r);
        },
        (e: unknown) => {
          cleanup();
          reject(new ClientGone(e));
        },
      );
    });
  }
}

/** Is this a Node zlib failure (bad or truncated gzip)? */
export function isZlibError(e: unknown): boolean {
  const code = (e as { code?: string })?.code ?? "";
  return code.startsWith("Z_") || code === "ERR_ZLIB_INITIALIZATION_FAILED";
}

/** Is this git closing its stdin early (not the client's fault)? */
export function isPipeClosed(e: unknown): boolean {
  const code = (e as { code?: string })?.code ?? "";
  return code === "EPIPE" || code === "ERR_STREAM_DESTROYED" || code === "ERR_STREAM_PREMATURE_CLOSE" || code === "ECONNRESET";
}

/** Passes bytes through until more than `maxBytes` went by, then fails with BodyTooLarge. */
export class ByteLimit extends Transform {
  private seen = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) cb(new BodyTooLarge(this.maxBytes));
    else cb(null, chunk);
  }
}
