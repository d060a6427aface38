/**
 * Who an OpenID Connect sign-in signs in as (docs/security.md "Single sign-on (OpenID Connect)").
 * Called by next-auth's signIn callback with the claims of an ID token it has already validated.
 */
import type { Db } from "@/server/db";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import { createExternalUser } from "@/server/services/users/external-user";
import { issuerMatches, loginHint, verifiedEmail, type OidcClaims } from "./claims";
import { consumeOidcLink } from "./link-intent";

/** Why a sign-in was refused; the sign-in page shows a message per reason. */
export type OidcRefusal = "issuer" | "link-expired" | "linked-elsewhere" | "already-linked";

export type OidcSignInResult = { ok: true; userId: string; created: boolean; linked: boolean } | { ok: false; reason: OidcRefusal };

/**
 * Resolves the account for `claims`:
 * - `iss` not the configured issuer → refused "issuer";
 * - with `linkSecret` (the link cookie): the intent's user (consumed; unknown or expired →
 *   "link-expired") gets the identity, unless it is linked to another user ("linked-elsewhere") or
 *   that user already has another identity at this issuer ("already-linked"); the sign-in then
 *   continues as that user;
 * - an identity (iss, sub) already linked → its user (lastUsedAt updated);
 * - else a new account (createExternalUser: username from preferred_username made unique, the
 *   name, the email only when verified and unused) with the identity. An existing account with
 *   the same email is never linked: it links only from its own settings, signed in.
 */
export async function resolveOidcSignIn(
  db: Db,
  claims: OidcClaims,
  opts: { issuer: string; linkSecret?: string | null },
): Promise<OidcSignInResult> {
  if (!issuerMatches(opts.issuer, claims.iss)) return { ok: false, reason: "issuer" };
  const key = { issuer_subject: { issuer: claims.iss, subject: claims.sub } };
  const existing = await db.externalIdentity.findUnique({ where: key, select: { id: true, userId: true } });
  if (opts.linkSecret) {
    const userId = await consumeOidcLink(db, opts.linkSecret);
    if (!userId) return { ok: false, reason: "link-expired" };
    if (existing && existing.userId !== userId) return { ok: false, reason: "linked-elsewhere" };
    if (!existing) {
      const other = await db.externalIdentity.findFirst({ where: { userId, issuer: claims.iss }, select: { id: true } });
      if (other) return { ok: false, reason: "already-linked" };
      try {
        await db.externalIdentity.create({
          data: { userId, provider: "oidc", issuer: claims.iss, subject: claims.sub, lastUsedAt: new Date() },
        });
      } catch (e) {
        if (isUniqueViolation(e)) return { ok: false, reason: "linked-elsewhere" };
        throw e;
      }
      return { ok: true, userId, created: false, linked: true };
    }
  }
  if (existing) {
    await db.externalIdentity.update({ where: { id: existing.id }, data: { lastUsedAt: new Date() } });
    return { ok: true, userId: existing.userId, created: false, linked: false };
  }
  try {
    const user = await createExternalUser(
      db,
      { login: loginHint(claims), name: claims.name, email: verifiedEmail(claims) },
      { externalIdentities: { create: { provider: "oidc", issuer: claims.iss, subject: claims.sub, lastUsedAt: new Date() } } },
    );
    return { ok: true, userId: user.id, created: true, linked: false };
  } catch (e) {
    // the same person's first sign-in twice at once: the other one created the account
    const again = isUniqueViolation(e) ? await db.externalIdentity.findUnique({ where: key, select: { userId: true } }) : null;
    if (again) return { ok: true, userId: again.userId, created: false, linked: false };
    throw e;
  }
}
