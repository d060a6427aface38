/**
 * Request ids (docs/api.md "Errors: no 500 for bad input, nothing internal in an answer"): every
 * HTTP request gets one, so a 500's generic message ("internal error (request <id>)") can be
 * matched with the server log line that has the cause and stack. A caller's (or a proxy's)
 * `X-Request-Id` header is kept when well-formed, otherwise a random UUID is made. The id is
 * returned in the `x-request-id` response header.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";

/** What a caller-supplied id may look like: 1–128 of [A-Za-z0-9._:-] (no spaces, no control characters). */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

const ids = new WeakMap<Request, string>();

/**
 * The id of `req`: its well-formed `X-Request-Id` header, else a new UUID; the same string for
 * every call with the same Request object.
 */
export function requestIdOf(req: Request): string {
  let id = ids.get(req);
  if (!id) {
    const given = req.headers.get(REQUEST_ID_HEADER);
    id = given && WELL_FORMED.test(given) ? given : randomUUID();
    ids.set(req, id);
  }
  return id;
}

const current = new AsyncLocalStorage<string>();

/** Runs `fn` with `id` as the current request id (see `currentRequestId`). */
export function runWithRequestId<T>(id: string, fn: () => T): T {
  return current.run(id, fn);
}

/** The id set by the enclosing `runWithRequestId`, or undefined outside one. */
export function currentRequestId(): string | undefined {
  return current.getStore();
}

/** A new id for work not tied to an HTTP request (server components, the CLI). */
export function newRequestId(): string {
  return randomUUID();
}

/**
 * `res` with the `x-request-id` header set to `id`. Responses made by `new Response` have mutable
 * headers; a response with immutable ones (e.g. from `fetch`) is copied around its body stream.
 */
export function withRequestId(res: Response, id: string): Response {
  try {
    res.headers.set(REQUEST_ID_HEADER, id);
    return res;
  } catch {
    const headers = new Headers(res.headers);
    headers.set(REQUEST_ID_HEADER, id);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

/** Logs a server error as `[request <id>] <where>: <error with stack>` (console.error). */
export function logServerError(id: string, where: string, error: unknown): void {
  console.error(`[request ${id}] ${where}:`, error);
}
