/**
 * Token REST endpoints (spec "Token endpoints"; fields and statuses decided in docs/api.md):
 *   POST   /api/tokens       {name, scopes?, expiresInDays?} → 201 token record + "token" (once)
 *   GET    /api/tokens       → 200 [token record]
 *   DELETE /api/tokens/:id   id, id prefix or token prefix → 204 (the segment is percent-decoded
 *                            exactly once; a malformed escape is 400, server/http/path.ts)
 * Authorized by the browser session or the service token (Bearer <session JWT>) only: no
 * credentials → 401; a personal access token → 403 (spec "Authentication" 2).
 */
import type { Db } from "@/server/db";
import { getDb } from "@/server/db";
import { AppError } from "@/server/errors";
import { requireSession, resolveActor, type Actor } from "@/server/auth/actor";
import { assertSameOrigin } from "@/server/auth/csrf";
import { getConfig } from "@/server/config";
import { createToken, listTokens, revokeToken } from "@/server/services/tokens/manage-tokens";
import { handle, json, readJson } from "./respond";
import { decodePathSegment } from "./path";

/**
 * The caller, who must be signed in with the session (cookie) or a service token. A cookie-made
 * POST or DELETE must come from svc's own pages (Origin check, server/auth/csrf.ts;
 * docs/security.md "Cross-site requests (CSRF)").
 */
async function sessionActor(req: Request): Promise<{ actor: Actor; db: Db }> {
  const actor = await resolveActor(req);
  if (!actor) throw new AppError("UNAUTHORIZED", "sign in, or send Authorization: Bearer <service token>");
  requireSession(actor, "manage tokens");
  assertSameOrigin(actor, req.method, req.headers, getConfig().publicUrl);
  return { actor, db: await getDb() };
}

/**
 * A POST made with the session cookie must say it is JSON: a `text/plain` form post or a typeless
 * Blob (CSRF vehicles) is 415. Scripts using a service token (never sent by a browser on its own)
 * may send any type; the body must still parse as JSON.
 */
function isJson(req: Request, actor: Actor): boolean {
  if (!actor.fromCookie) return true;
  return (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase() === "application/json";
}

export function postTokens(req: Request): Promise<Response> {
  return handle(async () => {
    const { actor, db } = await sessionActor(req);
    if (!isJson(req, actor))
      return json({ error: { code: "UNSUPPORTED_MEDIA_TYPE", message: "send the body as Content-Type: application/json" } }, 415);
    const body = await readJson(req);
    if (typeof body !== "object" || body === null || Array.isArray(body))
      throw new AppError("BAD_REQUEST", "request body must be a JSON object");
    const created = await createToken(db, actor.user.id, body as never);
    return json(created, 201, { "cache-control": "no-store" });
  }, req);
}

export function getTokens(req: Request): Promise<Response> {
  return handle(async () => {
    const { actor, db } = await sessionActor(req);
    return json(await listTokens(db, actor.user.id));
  }, req);
}

/**
 * DELETE /api/tokens/:id. `rawId` is the path segment as sent, still percent-encoded (the route
 * takes it from the request URL, not from Next's already-decoded params), so it is decoded here
 * exactly once: `/api/tokens/%25` names the token "%". Errors: 400 for a malformed escape.
 */
export function deleteToken(req: Request, rawId: string): Promise<Response> {
  return handle(async () => {
    const { actor, db } = await sessionActor(req);
    await revokeToken(db, actor.user.id, decodePathSegment(rawId, "token id"));
    return new Response(null, { status: 204 });
  }, req);
}
