/**
 * POST /api/oidc/link: the signed-in user (browser session cookie, same-origin) starts linking an
 * OpenID Connect identity (docs/security.md "Single sign-on (OpenID Connect)", "Linking"). Stores a
 * link intent (10 minutes) and sets its secret in the httpOnly cookie `svc-oidc-link` (path
 * /api/auth, SameSite=Lax so it comes back on the provider's redirect); the page then calls
 * signIn("oidc"). → 200 {expiresAt}; 401 signed out; 403 not same-origin or not a browser
 * session; 404 when OpenID Connect is not configured.
 */
import { resolveActor } from "@/server/auth/actor";
import { assertSameOrigin } from "@/server/auth/csrf";
import { getConfig } from "@/server/config";
import { getDb } from "@/server/db";
import { AppError } from "@/server/errors";
import { handle, json } from "@/server/http/respond";
import { OIDC_LINK_COOKIE, OIDC_LINK_TTL_MS, startOidcLink } from "@/server/services/oidc/link-intent";

export const dynamic = "force-dynamic";

export async function POST(req: Request): Promise<Response> {
  return handle(async () => {
    const { oidc, publicUrl } = getConfig();
    if (!oidc) throw new AppError("NOT_FOUND", "single sign-on is not configured");
    const actor = await resolveActor({ headers: req.headers });
    if (!actor) throw new AppError("UNAUTHORIZED", "sign in to link an identity");
    if (!actor.fromCookie || actor.via !== "session") throw new AppError("FORBIDDEN", "identities are linked from a browser session");
    assertSameOrigin(actor, req.method, req.headers, publicUrl);
    const { secret, expiresAt } = await startOidcLink(await getDb(), actor.user.id);
    const secure = publicUrl.startsWith("https:") ? "; Secure" : "";
    const cookie = `${OIDC_LINK_COOKIE}=${secret}; Path=/api/auth; Max-Age=${OIDC_LINK_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure}`;
    return json({ expiresAt: expiresAt.toISOString() }, 200, { "set-cookie": cookie, "cache-control": "no-store" });
  }, req);
}
