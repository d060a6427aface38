/**
 * JSON responses for the plain HTTP endpoints. Error body: {"error": {"code", "message"}} with the
 * status of the AppError code (docs/api.md "Errors"); anything else is logged and answered 500.
 */
import { AppError, httpStatusOf } from "@/server/errors";

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
}

export function errorResponse(e: unknown): Response {
  if (e instanceof AppError) {
    const headers: Record<string, string> = e.retryAfter ? { "retry-after": String(e.retryAfter) } : {};
    return json({ error: { code: e.code, message: e.message } }, httpStatusOf(e.code), headers);
  }
  console.error("unhandled error", e);
  return json({ error: { code: "INTERNAL_SERVER_ERROR", message: "internal error" } }, 500);
}

/** Runs a handler, turning thrown errors into JSON error responses. */
export async function handle(fn: () => Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (e) {
    return errorResponse(e);
  }
}

/** Parses a JSON request body. Errors: BAD_REQUEST for a missing or malformed body. */
export async function readJson(req: Request): Promise<unknown> {
  const text = await req.text();
  if (!text.trim()) throw new AppError("BAD_REQUEST", "request body must be a JSON object");
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("BAD_REQUEST", "request body is not valid JSON");
  }
}
