/**
 * OpenID Connect single sign-on for next-auth (docs/security.md "Single sign-on (OpenID Connect)").
 *
 * The provider is next-auth 4's generic OAuth provider with `wellKnown` discovery and `idToken:
 * true`, so the callback goes through openid-client's `client.callback`
 * (node_modules/next-auth/core/lib/oauth/callback.js), which checks `state`, sends the PKCE
 * verifier, and validates the ID token: signature against the provider's JWKS (jwks_uri from
 * discovery), `iss` equal to the discovered issuer, `aud` containing the client id (`azp` when
 * several audiences), `nonce` equal to the one sent, `exp`/`iat` (10 s clock tolerance). The
 * profile is the ID token's claims (with the userinfo endpoint's added). resolveOidcAccount then checks that the discovered issuer is
 * the configured OIDC_ISSUER and decides the account.
 */
import "server-only";
import type { Account, Profile } from "next-auth";
import type { OAuthConfig } from "next-auth/providers/oauth";
import type { TokenSet } from "openid-client";
import { getConfig, type Config } from "@/server/config";
import { getDb } from "@/server/db";
import { readOidcClaims } from "@/server/services/oidc/claims";
import { resolveOidcSignIn, type OidcRefusal } from "@/server/services/oidc/sign-in-oidc";

type OidcSettings = NonNullable<Config["oidc"]>;

/** The discovery document's URL for `issuer` (OpenID Connect Discovery 1.0 §4). */
export function wellKnownUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
}

/** next-auth provider "oidc": authorization code flow with PKCE, state and nonce; the ID token's claims as profile. */
export function oidcProvider(oidc: OidcSettings): OAuthConfig<Record<string, unknown>> {
  return {
    id: "oidc",
    name: oidc.name,
    type: "oauth",
    wellKnown: wellKnownUrl(oidc.issuer),
    clientId: oidc.clientId,
    clientSecret: oidc.clientSecret,
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    authorization: { params: { scope: oidc.scopes } },
    // The profile: the validated ID token's claims, completed by the userinfo endpoint's (providers
    // that follow the spec's default, like oidc-provider, put profile and email claims only there).
    // openid-client refuses a userinfo answer whose `sub` is not the ID token's; the ID token's
    // claims win where both have one.
    userinfo: {
      async request({ tokens, client }) {
        const set = tokens as TokenSet; // next-auth hands over openid-client's TokenSet
        const idClaims = set.claims();
        if (!client.issuer.metadata.userinfo_endpoint || !set.access_token) return idClaims;
        const info = await client.userinfo(set);
        return { ...info, ...idClaims };
      },
    },
    profile(claims) {
      const s = (v: unknown) => (typeof v === "string" ? v : null);
      return { id: String(claims.sub), name: s(claims.name) ?? s(claims.preferred_username), email: s(claims.email) };
    },
  };
}

/** Where a refused sign-in lands: link problems on the settings page that started the link, the rest on the sign-in page. */
const REFUSAL_PAGE: Record<OidcRefusal, string> = {
  issuer: "/signin?error=OidcIssuer",
  "link-expired": "/settings/account?sso=link-expired#sso",
  "linked-elsewhere": "/settings/account?sso=linked-elsewhere#sso",
  "already-linked": "/settings/account?sso=already-linked#sso",
};

/**
 * next-auth's signIn callback for provider "oidc": resolves the account (resolveOidcSignIn) and
 * stores its id on `account.svcUserId` for the jwt callback (next-auth hands both callbacks the
 * same `account` object) → true, or the URL of the page explaining a refusal.
 */
export async function resolveOidcAccount(
  account: Account,
  profile: Profile | undefined,
  issuer: string,
  linkSecret?: string | null,
): Promise<true | string> {
  const claims = readOidcClaims(profile);
  if (!claims) return `${getConfig().publicUrl}/signin?error=OidcClaims`;
  const result = await resolveOidcSignIn(await getDb(), claims, { issuer, linkSecret });
  if (!result.ok) return `${getConfig().publicUrl}${REFUSAL_PAGE[result.reason]}`;
  account.svcUserId = result.userId;
  return true;
}
