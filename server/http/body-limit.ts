/**
 * The request body cap of svc's JSON endpoints: tRPC (server/http/trpc.ts),
 * /api/tokens (`readJson`) and next-auth's POSTs. Git smart HTTP is not capped: pushes are large
 * and stream straight into git (server/http/git/smart-http.ts). Decisions: docs/api.md "Limits".
 *
 * A body is refused before it is read when its Content-Length is over the limit, and as soon as
 * the count passes the limit when it has none (chunked). The rest of the body is never read by
 * svc (at most 1 MiB plus one chunk is ever held); the connection stays open so the client
 * reliably receives the 413 (closing it under an unread upload can reset the connection before
 * the client reads the answer, RFC 9112 §9.6).
 */
/** The largest request body accepted, in bytes (1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A request body larger than `limit` bytes. Transports answer it with 413. */
export class PayloadTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body is larger than ${limit} bytes (the limit is ${formatBytes(limit)})`);
    this.name = "PayloadTooLargeError";
  }
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;
}

/** True when the request declares (Content-Length) a body larger than `limit` bytes. */
export function declaresTooLarge(req: Request, limit = MAX_BODY_BYTES): boolean {
  const declared = req.headers.get("content-length");
  return declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit;
}

/**
 * After a 413, up to this many more bytes (8 MiB) of the refused body are read and thrown away
 * in the background, so a keep-alive connection can carry the next request; past that the body
 * is cancelled, which closes the connection.
 */
export const DISCARD_BYTES = 8 * 1024 * 1024;

/** Reads and drops the rest of a refused body (at most DISCARD_BYTES), then cancels it. Never throws. */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  void (async () => {
    let dropped = 0;
    while (dropped <= DISCARD_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
    }
    await reader.cancel();
  })().catch(() => {}); // the client went away: nothing left to drop
}

/**
 * The request body as bytes, at most `limit` (bytes, default 1 MiB); an empty array when there
 * is no body. Errors: PayloadTooLargeError when Content-Length is over the limit (nothing is
 * read into memory) or when the body passes the limit while being read (reading stops there).
 * The refused rest is discarded in the background (see DISCARD_BYTES), never buffered.
 */
export async function readBodyLimited(req: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array<ArrayBuffer>> {
  if (!req.body) {
    if (declaresTooLarge(req, limit)) throw new PayloadTooLargeError(limit);
    return new Uint8Array(0);
  }
  const reader = req.body.getReader();
  if (declaresTooLarge(req, limit)) {
    discardRest(reader);
    throw new PayloadTooLargeError(limit);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      discardRest(reader);
      throw new PayloadTooLargeError(limit);
    }
    chunks.push(value);
  }
  reader.releaseLock();
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * A copy of `req` whose body is the bytes already read (≤ `limit`), for handlers that read the
 * body themselves (tRPC's fetchRequestHandler, next-auth). `make` builds the copy (a NextRequest
 * for next-auth, which needs `nextUrl`). GET and HEAD requests are returned as they are.
 * Errors: PayloadTooLargeError, as `readBodyLimited`.
 */
export async function withBodyLimit<R extends Request = Request>(
  req: R,
  limit = MAX_BODY_BYTES,
  make: (url: string, init: RequestInit) => R = (url, init) => new Request(url, init) as R,
): Promise<R> {
  if (req.method === "GET" || req.method === "HEAD") return req;
  const body = await readBodyLimited(req, limit);
  const headers = new Headers(req.headers);
  headers.delete("transfer-encoding");
  headers.set("content-length", String(body.byteLength));
  return make(req.url, { method: req.method, headers, body: body.byteLength ? body : null, signal: req.signal });
}

/** The plain-JSON 413 of the REST endpoints: {"error": {"code": "PAYLOAD_TOO_LARGE", "message"}}. */
export function payloadTooLarge(e: PayloadTooLargeError): Response {
  return new Response(JSON.stringify({ error: { code: "PAYLOAD_TOO_LARGE", message: e.message } }), {
    status: 413,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
