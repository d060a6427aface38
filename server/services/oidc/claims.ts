/**
 * The ID token claims svc reads at an OpenID Connect sign-in, and the rules applied to them
 * (docs/security.md "Single sign-on (OpenID Connect)"). The token itself is validated by next-auth
 * through openid-client before any of this runs (issuer, audience, signature, nonce, expiry).
 */

/** The claims svc uses: `iss` and `sub` identify the person; the rest seed a new account. */
export interface OidcClaims {
  iss: string;
  sub: string;
  preferredUsername?: string;
  name?: string;
  email?: string;
  emailVerified: boolean;
}

const str = (v: unknown, max: number): string | undefined => (typeof v === "string" && v.trim() ? v.trim().slice(0, max) : undefined);

/**
 * The claims of a validated ID token (next-auth's `profile`), or null when `iss` or `sub` is
 * missing. `email_verified` counts only as the boolean true or the string "true" (some providers
 * send strings). Strings are trimmed and capped (255 characters; `sub` is at most 255 by the spec).
 */
export function readOidcClaims(profile: unknown): OidcClaims | null {
  if (!profile || typeof profile !== "object") return null;
  const p = profile as Record<string, unknown>;
  const iss = str(p.iss, 2048);
  const sub = typeof p.sub === "string" && p.sub.length > 0 && p.sub.length <= 255 ? p.sub : undefined;
  if (!iss || !sub) return null;
  return {
    iss,
    sub,
    preferredUsername: str(p.preferred_username, 255) ?? str(p.nickname, 255),
    name: str(p.name, 255),
    email: str(p.email, 255),
    emailVerified: p.email_verified === true || p.email_verified === "true",
  };
}

/**
 * Whether the token's `iss` is the configured OIDC_ISSUER. openid-client checks `iss` against the
 * issuer the discovery document names; this checks that document named the configured one (a
 * trailing "/" aside, which providers differ on: Authentik's issuers end in "/").
 */
export function issuerMatches(configured: string, iss: string): boolean {
  const norm = (u: string) => u.replace(/\/+$/, "");
  return norm(configured) === norm(iss);
}

/**
 * The email a new account may take from the claims: only a verified one (`email_verified` true),
 * lower-cased, and only when it looks like an address; else null. Whether another account already
 * uses it is decided at creation (createExternalUser), and never links the two.
 */
export function verifiedEmail(claims: OidcClaims): string | null {
  if (!claims.emailVerified || !claims.email) return null;
  const email = claims.email.toLowerCase();
  return /^[^\s@]+@[^\s@]+$/.test(email) ? email : null;
}

/** The login a new account's username derives from: preferred_username, else the email, else the name, else "user". */
export function loginHint(claims: OidcClaims): string {
  return claims.preferredUsername ?? claims.email ?? claims.name ?? "user";
}
