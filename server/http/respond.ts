/**
 * JSON responses for the plain HTTP endpoints. Error body: {"error": {"code", "message"}} with the
 * status of the AppError code (docs/api.md "Errors"), 413 PAYLOAD_TOO_LARGE for a body over the
 * cap (docs/api.md "Limits"); anything else is logged and answered 500.
 */
import { AppError, databaseBusy, httpStatusOf, isDatabaseBusy } from "@/server/errors";
import { REQUEST_ID_HEADER, logServerError, newRequestId, requestIdOf } from "@/server/request-id";
import { MAX_BODY_BYTES, PayloadTooLargeError, payloadTooLarge, readBodyLimited } from "./body-limit";

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
}

/**
 * The JSON error response for `e`: AppError → its status and message (and Retry-After when it has
 * one); SQLite's "database is locked" → 503 with Retry-After (`databaseBusy`); anything else → 500
 * {"error": {code: "INTERNAL_SERVER_ERROR", message: "internal error (request <id>)", requestId}}
 * with the x-request-id header, never the cause's message, which is logged under that id
 * (`req` gives the id and the method and path for the log line; docs/api.md "Errors: no 500 for bad
 * input, nothing internal in an answer").
 */
export function errorResponse(e: unknown, req?: Request): Response {
  if (e instanceof PayloadTooLargeError) return payloadTooLarge(e);
  if (isDatabaseBusy(e)) e = databaseBusy();
  if (e instanceof AppError) {
    const headers: Record<string, string> = e.retryAfter ? { "retry-after": String(e.retryAfter) } : {};
    return json({ error: { code: e.code, message: e.message } }, httpStatusOf(e.code), headers);
  }
  const requestId = req ? requestIdOf(req) : newRequestId();
  logServerError(requestId, req ? `${req.method} ${new URL(req.url).pathname}` : "HTTP", e);
  return json({ error: { code: "INTERNAL_SERVER_ERROR", message: `internal error (request ${requestId})`, requestId } }, 500, {
    [REQUEST_ID_HEADER]: requestId,
  });
}

/** Runs a handler, turning thrown errors into JSON error responses (`req`: see errorResponse). */
export async function handle(fn: () => Promise<Response>, req?: Request): Promise<Response> {
  try {
    return await fn();
  } catch (e) {
    return errorResponse(e, req);
  }
}

/**
 * Parses a JSON request body of at most MAX_BODY_BYTES (1 MiB). Errors: PayloadTooLargeError
 * (413 through `handle`) for a larger body, before reading it when Content-Length says so;
 * BAD_REQUEST for a missing or malformed body.
 */
export async function readJson(req: Request): Promise<unknown> {
  const text = new TextDecoder().decode(await readBodyLimited(req, MAX_BODY_BYTES));
  if (!text.trim()) throw new AppError("BAD_REQUEST", "request body must be a JSON object");
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("BAD_REQUEST", "request body is not valid JSON");
  }
}
