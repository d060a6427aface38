/**
 * Cross-site request forgery defence (docs/security.md "Cross-site requests (CSRF)"). The browser
 * session cookie is sent with requests that other sites cause (a form posting `text/plain`, an
 * <img>); SameSite=Lax stops cross-site ones but not same-site ones (another port or subdomain of
 * the same host). So a state-changing request authenticated by the cookie must come from svc's own
 * pages: its `Origin` must be svc's origin (the public URL's, or the one the request was sent to).
 * Token credentials (Bearer, Basic) are never sent by a browser on its own and need no check.
 * Browsers send `Origin` on every POST; when it is absent, `Sec-Fetch-Site: same-origin` is
 * accepted instead, and anything else is refused.
 */
import { AppError } from "@/server/errors";
import type { Actor } from "./actor";

function hostOf(origin: string): string | null {
  try {
    const u = new URL(origin);
    return u.protocol === "http:" || u.protocol === "https:" ? u.host : null;
  } catch {
    return null;
  }
}

/**
 * Throws FORBIDDEN unless a cookie-authenticated, state-changing request is same-origin.
 * `publicUrl` is svc's base URL (getConfig().publicUrl). No-op for anonymous callers, tokens,
 * and safe methods (GET, HEAD, OPTIONS).
 */
export function assertSameOrigin(actor: Actor | null, method: string, headers: Headers, publicUrl: string): void {
  if (!actor?.fromCookie || ["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase())) return;
  const origin = headers.get("origin");
  if (!origin) {
    if (headers.get("sec-fetch-site") === "same-origin") return;
    throw new AppError("FORBIDDEN", "cross-site request refused: a request made with the session cookie must carry this site's Origin");
  }
  const host = hostOf(origin);
  const allowed = [hostOf(publicUrl), headers.get("x-forwarded-host"), headers.get("host")].filter(Boolean);
  if (!host || !allowed.includes(host))
    throw new AppError("FORBIDDEN", `cross-site request refused: Origin ${origin.slice(0, 100)} is not this site`);
}
