/**
 * resolveActor: the one place that turns a request into an identity, used by tRPC, the token
 * REST endpoints and git smart HTTP (docs/architecture.md "Identity").
 *
 * Accepted credentials, first match wins:
 *   Authorization: Bearer svc_…            personal access token (its scopes)
 *   Authorization: token svc_…             the same, in GitHub's form (CI tools written for GitHub's REST API)
 *   Authorization: Bearer <next-auth JWT>  service token (the user's session; every scope)
 *   Authorization: Basic <user>:<svc_…>    PAT as the password (git); the user part is ignored
 *   next-auth session cookie               browser session (every scope)
 * A session JWT (cookie or service token) works only while its UserSession row (`sid`) exists:
 * signing out or "sign out everywhere" revokes it (docs/security.md "Sessions and service tokens";
 * services/users/sessions.ts).
 * No credentials → null (anonymous). Credentials presented but invalid, expired or revoked →
 * AppError UNAUTHORIZED: a bad token never silently degrades to anonymous.
 */
import { decode } from "next-auth/jwt";
import { getAuthSecret } from "@/server/config";
import { getDb } from "@/server/db";
import { AppError } from "@/server/errors";
import { SCOPES, hasScope, type Scope } from "./scopes";
import { verifyPersonalAccessToken } from "@/server/services/tokens/verify-token";
import { sessionUser } from "@/server/services/users/sessions";

export interface ActorUser {
  id: string;
  username: string;
  name: string | null;
  email: string | null;
  isAdmin: boolean;
}

export interface Actor {
  user: ActorUser;
  /** session: browser cookie or service token; pat: personal access token. */
  via: "session" | "pat";
  scopes: readonly Scope[];
  tokenId?: string;
  /** For via "pat": the token's creation and expiry (null: never), for organization token policies (services/repos/token-policy.ts). */
  token?: { createdAt: Date; expiresAt: Date | null };
  /** The UserSession id, for via "session". */
  sessionId?: string;
  /** True when the credential came from the session cookie (mutations then need a same-origin Origin: csrf.ts). */
  fromCookie?: boolean;
}

const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/** A cookie value percent-decoded when it is well-formed, else as sent (never throws). */
function decodeCookieValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The session-cookie pairs of a Cookie header: only next-auth's session cookie names (and their
 * `.0`, `.1` chunks) are kept and decoded, so a malformed cookie of any other name (`foo=%`) is
 * ignored rather than failing the request (docs/security.md "Cookies").
 */
function sessionCookies(header: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of header?.split(";") ?? []) {
    const i = part.indexOf("=");
    if (i <= 0) continue;
    const name = part.slice(0, i).trim();
    if (SESSION_COOKIES.some((n) => name === n || name.startsWith(`${n}.`))) out.set(name, decodeCookieValue(part.slice(i + 1).trim()));
  }
  return out;
}

/** The session JWT from the cookie header (joining next-auth's chunked `.0`, `.1` cookies), or null. */
export function sessionCookie(header: string | null): string | null {
  const cookies = sessionCookies(header);
  for (const name of SESSION_COOKIES) {
    if (cookies.has(name)) return cookies.get(name)!;
    const chunks: string[] = [];
    for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
    if (chunks.length) return chunks.join("");
  }
  return null;
}

/** A personal access token's actor: token and user read in one statement (verify-token.ts). */
async function fromPat(token: string): Promise<Actor> {
  const verified = await verifyPersonalAccessToken(await getDb(), token);
  // a bot account (the AI reviewer, docs/ai.md "AI review") never acts through a request
  if (!verified.user) throw new AppError("UNAUTHORIZED", "invalid or revoked token");
  return {
    user: verified.user,
    via: "pat",
    scopes: verified.scopes,
    tokenId: verified.tokenId,
    token: { createdAt: verified.createdAt, expiresAt: verified.expiresAt },
  };
}

async function fromSessionJwt(jwt: string, presented: boolean): Promise<Actor | null> {
  const payload = await decode({ token: jwt, secret: getAuthSecret() }).catch(() => null);
  const sid = typeof payload?.sid === "string" ? payload.sid : null;
  const user = payload?.sub && sid ? await sessionUser(await getDb(), sid, payload.sub) : null;
  if (!user || !sid) {
    if (presented) throw new AppError("UNAUTHORIZED", "invalid, expired or signed-out session token");
    return null; // a stale or signed-out cookie is simply signed out
  }
  return { user, via: "session", scopes: SCOPES, sessionId: sid, fromCookie: !presented };
}

/** The actor of a request, or null when it carries no credentials. Errors: UNAUTHORIZED (see above). */
export async function resolveActor(req: { headers: Headers }): Promise<Actor | null> {
  const authorization = req.headers.get("authorization")?.trim();
  if (authorization) {
    const [scheme, ...rest] = authorization.split(/\s+/);
    const value = rest.join(" ");
    if (/^bearer$/i.test(scheme) && value) {
      return value.startsWith("svc_") ? fromPat(value) : fromSessionJwt(value, true);
    }
    if (/^token$/i.test(scheme) && value.startsWith("svc_")) return fromPat(value);
    if (/^basic$/i.test(scheme) && value) {
      const decoded = Buffer.from(value, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      const password = colon >= 0 ? decoded.slice(colon + 1) : "";
      if (!password.startsWith("svc_")) throw new AppError("UNAUTHORIZED", "use a personal access token (svc_…) as the password");
      return fromPat(password);
    }
    throw new AppError(
      "UNAUTHORIZED",
      "unsupported Authorization header; use Bearer <token>, token <svc_…> or Basic with a token as password",
    );
  }
  const cookie = sessionCookie(req.headers.get("cookie"));
  return cookie ? fromSessionJwt(cookie, false) : null;
}

/**
 * `resolveActor` for one request, run at most once however often it is asked: the procedures of
 * a tRPC batch and the HTTP handler's subscription check share one token or session lookup. The
 * memo lives as long as the request (nothing is cached across requests, so a revoked credential
 * fails on the next one). Errors: as resolveActor's, the same error for every asker.
 */
export function actorResolver(req: { headers: Headers }): () => Promise<Actor | null> {
  let actor: Promise<Actor | null> | undefined;
  return () => (actor ??= resolveActor(req));
}

/** Throws FORBIDDEN naming the scope when the actor's token lacks it. */
export function requireScope(actor: Actor, scope: Scope): void {
  if (!hasScope(actor.scopes, scope)) {
    throw new AppError("FORBIDDEN", `this token lacks the "${scope}" scope`);
  }
}

/** Throws FORBIDDEN unless the actor is a browser session or service token (not a PAT): session and token management. */
export function requireSession(actor: Actor, what: string): void {
  if (actor.via !== "session") throw new AppError("FORBIDDEN", `personal access tokens cannot ${what}; use your session or service token`);
}
