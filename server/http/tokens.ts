/**
 * Token REST endpoints (spec "Token endpoints"; fields and statuses decided in docs/api.md):
 *   POST   /api/tokens       {name, scopes?, expiresInDays?} → 201 token record + "token" (once)
 *   GET    /api/tokens       → 200 [token record]
 *   DELETE /api/tokens/:id   id, id prefix or token prefix → 204
 * Authorized by the browser session or the service token (Bearer <session JWT>) only: no
 * credentials → 401; a personal access token → 403 (spec "Authentication" 2).
 */
import type { Db } from "@/server/db";
import { getDb } from "@/server/db";
import { AppError } from "@/server/errors";
import { resolveActor, type Actor } from "@/server/auth/actor";
import { createToken, listTokens, revokeToken } from "@/server/services/tokens";
import { handle, json, readJson } from "./respond";

async function sessionActor(req: Request): Promise<{ actor: Actor; db: Db }> {
  const actor = await resolveActor(req);
  if (!actor) throw new AppError("UNAUTHORIZED", "sign in, or send Authorization: Bearer <service token>");
  if (actor.via !== "session") {
    throw new AppError("FORBIDDEN", "personal access tokens cannot manage tokens; use your session or service token");
  }
  return { actor, db: await getDb() };
}

export function postTokens(req: Request): Promise<Response> {
  return handle(async () => {
    const { actor, db } = await sessionActor(req);
    const body = await readJson(req);
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw new AppError("BAD_REQUEST", "request body must be a JSON object");
    const created = await createToken(db, actor.user.id, body as never);
    return json(created, 201, { "cache-control": "no-store" });
  });
}

export function getTokens(req: Request): Promise<Response> {
  return handle(async () => {
    const { actor, db } = await sessionActor(req);
    return json(await listTokens(db, actor.user.id));
  });
}

export function deleteToken(req: Request, id: string): Promise<Response> {
  return handle(async () => {
    const { actor, db } = await sessionActor(req);
    await revokeToken(db, actor.user.id, decodeURIComponent(id));
    return new Response(null, { status: 204 });
  });
}
