/**
 * Link intents (docs/security.md "Single sign-on (OpenID Connect)", "Linking"): a signed-in user
 * asks to link an OpenID Connect identity to the account; svc stores an AuthChallenge (purpose
 * "oidc-link", the user's id, the SHA-256 of a random secret, 10 minutes) and hands the secret to
 * the browser in an httpOnly cookie (OIDC_LINK_COOKIE). The sign-in that comes back from the
 * provider with that cookie attaches the identity to that user, once: the intent is consumed.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "@/server/db";

/** How long a link intent lasts (ms): the round trip through the provider's login page. */
export const OIDC_LINK_TTL_MS = 10 * 60 * 1000;

/** The cookie holding the link secret (httpOnly, SameSite=Lax, path /api/auth). */
export const OIDC_LINK_COOKIE = "svc-oidc-link";

const PURPOSE = "oidc-link";
const digest = (secret: string) => createHash("sha256").update(secret).digest("hex");

/**
 * Starts a link intent for `userId`: → {secret (43 base64url characters, for the cookie),
 * expiresAt}. The user's earlier intents and every expired intent are removed.
 */
export async function startOidcLink(db: Db, userId: string): Promise<{ secret: string; expiresAt: Date }> {
  const secret = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + OIDC_LINK_TTL_MS);
  await db.authChallenge.deleteMany({ where: { purpose: PURPOSE, OR: [{ userId }, { expiresAt: { lt: new Date() } }] } });
  await db.authChallenge.create({ data: { userId, purpose: PURPOSE, challenge: digest(secret), expiresAt } });
  return { secret, expiresAt };
}

/**
 * The user id of the unexpired link intent with `secret`, which is consumed (deleted), or null
 * (unknown, expired, already used, or not base64url). Two concurrent uses: only one gets the id.
 */
export async function consumeOidcLink(db: Db, secret: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(secret)) return null;
  const row = await db.authChallenge.findFirst({
    where: { purpose: PURPOSE, challenge: digest(secret), expiresAt: { gt: new Date() } },
    select: { id: true, userId: true },
  });
  if (!row?.userId) return null;
  const { count } = await db.authChallenge.deleteMany({ where: { id: row.id } });
  return count === 1 ? row.userId : null;
}
