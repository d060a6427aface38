/**
 * The tRPC HTTP handler for both mount points: /api/trpc/<path> and the spec's /trpc/<path>
 * (a rewrite in next.config.mjs). Next hands a rewritten request to the route with its original
 * URL, so the endpoint prefix is taken from the URL actually received.
 *
 * Limits (docs/api.md "Limits"): bodies over MAX_BODY_BYTES (1 MiB) get 413 before tRPC sees
 * them; a batch may name at most MAX_BATCH_SIZE procedures (400 beyond).
 */
import { TRPCError, getErrorShape } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { logServerError, requestIdOf, runWithRequestId, withRequestId } from "@/server/request-id";
import { appRouter } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";
import { AppError } from "@/server/errors";
import { actorResolver, type Actor } from "@/server/auth/actor";
import { assertSameOrigin } from "@/server/auth/csrf";
import { getConfig } from "@/server/config";
import { PayloadTooLargeError, withBodyLimit } from "./body-limit";

/** The most procedures one batched request may call; the browser client batches at most this many. */
export const MAX_BATCH_SIZE = 10;

/** 413 as tRPC answers a request-level error: {"error": {message, code: -32013, data: {code: "PAYLOAD_TOO_LARGE", httpStatus: 413, path}}}. */
function payloadTooLarge(e: PayloadTooLargeError, path: string): Response {
  const error = new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: e.message, cause: e });
  const shape = getErrorShape({ config: appRouter._def._config, error, type: "unknown", path, input: undefined, ctx: undefined });
  return new Response(JSON.stringify({ error: shape }), { status: 413, headers: { "content-type": "application/json" } });
}

/** 403 as tRPC answers a request-level error (the shape of payloadTooLarge's). */
function forbidden(e: AppError, path: string): Response {
  const error = new TRPCError({ code: "FORBIDDEN", message: e.message, cause: e });
  const shape = getErrorShape({ config: appRouter._def._config, error, type: "subscription", path, input: undefined, ctx: undefined });
  return new Response(JSON.stringify({ error: shape }), { status: 403, headers: { "content-type": "application/json" } });
}

// at run time `procedures` is flat, keyed by the dotted path (its type is the nested router)
const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } } | undefined>;

/**
 * The cross-site check of a subscription made with the session cookie, as a plain 403 before tRPC
 * runs. tRPC answers a subscription's errors inside a 200 event stream, which a foreign page's
 * EventSource or <img> does not care about; the base middleware (server/api/trpc.ts) refuses the
 * same request too, this only makes the refusal an HTTP status. Null when the request may go on.
 */
async function refuseCrossSiteSubscription(
  req: Request,
  paths: string,
  resolveActor: () => Promise<Actor | null>,
): Promise<Response | null> {
  if (req.method !== "GET" || !paths.split(",").some((p) => procedures[p]?._def.type === "subscription")) return null;
  try {
    assertSameOrigin(await resolveActor(), "POST", req.headers, getConfig().publicUrl);
    return null;
  } catch (e) {
    if (e instanceof AppError && e.code === "FORBIDDEN") return forbidden(e, paths);
    return null; // a bad credential or a busy database: tRPC answers it as for any procedure
  }
}

export async function handleTrpc(original: Request): Promise<Response> {
  const { pathname } = new URL(original.url);
  const endpoint = pathname.startsWith("/trpc/") ? "/trpc" : "/api/trpc";
  let req: Request;
  try {
    req = await withBodyLimit(original);
  } catch (e) {
    if (e instanceof PayloadTooLargeError) return payloadTooLarge(e, pathname.slice(endpoint.length + 1));
    throw e;
  }
  // Request id (docs/api.md "Errors: no 500 for bad input, nothing internal in an answer"): in the
  // context and the x-request-id header; every 5xx is logged under it (the client only sees
  // "internal error (request <id>)", server/api/trpc.ts).
  const requestId = requestIdOf(original);
  // the caller's credentials are read at most once for the whole request (the check below and
  // every procedure of a batch: server/auth/actor.ts actorResolver)
  const resolveActor = actorResolver(original);
  const refused = await refuseCrossSiteSubscription(original, pathname.slice(endpoint.length + 1), resolveActor);
  if (refused) return withRequestId(refused, requestId);
  const res = await runWithRequestId(requestId, () =>
    fetchRequestHandler({
      endpoint,
      req,
      router: appRouter,
      maxBatchSize: MAX_BATCH_SIZE,
      createContext: (opts) => createContext({ req: opts.req, requestId, resolveActor }),
      onError: ({ error, path }) => {
        if (getHTTPStatusCodeFromError(error) >= 500) logServerError(requestId, path ?? "(no procedure)", error.cause ?? error);
      },
      // a rate-limit refusal also says when to come back in the standard header (RFC 9110 Retry-After)
      responseMeta: ({ errors }) => {
        const seconds = Math.max(0, ...errors.map((e) => (e.cause instanceof AppError ? (e.cause.retryAfter ?? 0) : 0)));
        return seconds > 0 ? { headers: { "retry-after": String(seconds) } } : {};
      },
    }),
  );
  return withRequestId(res, requestId);
}
