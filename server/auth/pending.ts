/**
 * The sign-in waiting for its second factor in this request's session cookie (docs/security.md
 * "Two-factor authentication"). resolveActor treats a pending session as signed out; the second
 * step (users.twoFactor.verifySignIn, app/signin/two-factor) reads the cookie's JWT here instead:
 * `sid` (the UserSession row) and `sub` (the user), then services/two-factor/pending-session.ts
 * checks the row is pending and younger than 10 minutes.
 */
import { decode } from "next-auth/jwt";
import { getAuthSecret } from "@/server/config";
import type { Db } from "@/server/db";
import { pendingSession, type PendingSession } from "@/server/services/two-factor/pending-session";
import { sessionCookie } from "./actor";

/** `{sessionId, userId}` from the session cookie's JWT, or null (no cookie, unreadable, no `sid`). Never throws. */
export async function sessionCookieIds(headers: Headers): Promise<{ sessionId: string; userId: string } | null> {
  const jwt = sessionCookie(headers.get("cookie"));
  if (!jwt) return null;
  const payload = await decode({ token: jwt, secret: getAuthSecret() }).catch(() => null);
  const sid = payload?.sid;
  return typeof sid === "string" && typeof payload?.sub === "string" ? { sessionId: sid, userId: payload.sub } : null;
}

/**
 * The pending sign-in of the request with `headers` (its Cookie header), or null when there is no
 * session cookie, it does not decode, or its session is not pending (complete, expired, revoked):
 * services/two-factor/pending-session.ts pendingSession.
 */
export async function pendingSignIn(db: Db, headers: { get(name: string): string | null }): Promise<PendingSession | null> {
  const ids = await sessionCookieIds(new Headers({ cookie: headers.get("cookie") ?? "" }));
  return ids ? pendingSession(db, ids.sessionId, ids.userId) : null;
}
