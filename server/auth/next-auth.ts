/**
 * next-auth 4 options: credentials (username + password; refused under OIDC_ONLY=1), when
 * GITHUB_ID and GITHUB_SECRET are set GitHub OAuth, and when OIDC_ISSUER, OIDC_CLIENT_ID and
 * OIDC_CLIENT_SECRET are set OpenID Connect (provider id "oidc", ./oidc-provider.ts). Sessions are JWTs (required by the credentials provider); the JWT's
 * `sub` is the user id and `sid` its UserSession row (revoked at sign-out). The same JWT, sent as `Authorization: Bearer <jwt>`, is the "service
 * token" accepted by /api/tokens (see resolveActor). A third provider, "passkey", signs in
 * without a password (docs/security.md "Passkeys").
 */
// Holds the OAuth secret and signs sessions: only the auth route handler and server components may import it.
import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GithubProvider from "next-auth/providers/github";
import { getAuthSecret, getConfig } from "@/server/config";
import { getDb } from "@/server/db";
import { authenticate, upsertGithubUser } from "@/server/services/users/sign-in";
import { AppError } from "@/server/errors";
import { clientAddress } from "@/server/http/client-address";
import { endSession, startSession } from "@/server/services/users/sessions";
import { signInWithPasskey } from "@/server/services/passkeys/sign-in-with-passkey";
import { oidcProvider, resolveOidcAccount } from "./oidc-provider";

/** Session lifetime in seconds (30 days, next-auth's default). */
export const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;

/**
 * The options for one request. `request.oidcLinkSecret`: the link cookie's value (the route
 * handler reads it), which makes an OpenID Connect sign-in link its identity to the user who
 * started the link (server/services/oidc/link-intent.ts); `request.userAgent` is recorded on
 * the session an OAuth sign-in starts; `request.replaces`: the session the browser came back from
 * the identity provider with, ended when the OpenID Connect sign-in starts a new session for the
 * same user (its cookie is replaced, so it would stay listed in Settings → Sessions, unusable, until
 * it expired: the usual case is linking an identity from Settings → Account).
 */
export function getAuthOptions(
  request: { oidcLinkSecret?: string | null; userAgent?: string | null; replaces?: { sessionId: string; userId: string } | null } = {},
): NextAuthOptions {
  const { github, oidc, oidcOnly } = getConfig();
  return {
    secret: getAuthSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        name: "username and password",
        credentials: { username: { label: "Username", type: "text" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          // OIDC_ONLY=1: only single sign-on signs in (docs/security.md "Single sign-on (OpenID Connect)")
          if (oidcOnly) throw new Error("password sign-in is turned off; use single sign-on");
          if (!credentials?.username || !credentials.password) return null;
          const headers = new Headers(); // next-auth hands the request headers over as a plain object
          for (const [k, v] of Object.entries(req?.headers ?? {})) if (typeof v === "string") headers.set(k, v);
          let user;
          try {
            user = await authenticate(await getDb(), credentials.username, credentials.password, clientAddress(headers));
          } catch (e) {
            // next-auth shows a thrown error's message to the sign-in form (too many attempts)
            if (e instanceof AppError) throw new Error(e.message);
            throw e;
          }
          // userAgent reaches the jwt callback, which records it on the new session row
          return user
            ? { id: user.id, name: user.name ?? user.username, email: user.email, userAgent: headers.get("user-agent") ?? undefined }
            : null;
        },
      }),
      // passwordless passkey sign-in (docs/security.md "Passkeys"): `response` is the JSON of
      // @simplewebauthn/browser startAuthentication's answer to users.passkeys.signInOptions
      CredentialsProvider({
        id: "passkey",
        name: "passkey",
        credentials: { response: { label: "Passkey response", type: "text" } },
        async authorize(credentials, req) {
          // OIDC_ONLY: the identity provider is the only way in (a passkey still serves as a second factor)
          if (oidcOnly) throw new Error("passkey sign-in is turned off; use single sign-on");
          const headers = new Headers();
          for (const [k, v] of Object.entries(req?.headers ?? {})) if (typeof v === "string") headers.set(k, v);
          try {
            const user = await signInWithPasskey(await getDb(), credentials?.response, clientAddress(headers));
            return user && { ...user, userAgent: headers.get("user-agent") ?? undefined };
          } catch (e) {
            if (e instanceof AppError) throw new Error(e.message);
            throw e;
          }
        },
      }),
      ...(github ? [GithubProvider({ clientId: github.clientId, clientSecret: github.clientSecret })] : []),
      ...(oidc ? [oidcProvider(oidc)] : []),
    ],
    events: {
      // Signing out revokes the session row, so this JWT stops working for the API too
      // (docs/security.md "Sessions and service tokens").
      async signOut({ token }) {
        if (typeof token?.sid === "string") await endSession(await getDb(), token.sid);
      },
    },
    callbacks: {
      async signIn({ account, profile }) {
        if (account?.provider === "oidc" && oidc) return resolveOidcAccount(account, profile, oidc.issuer, request.oidcLinkSecret);
        if (account?.provider !== "github") return true;
        return Boolean(profile);
      },
      async jwt({ token, account, profile, user }) {
        if (account?.provider === "oidc" && typeof account.svcUserId === "string") {
          // set by resolveOidcAccount in the signIn callback, which next-auth runs first
          token.sub = account.svcUserId;
          token.sid = await startSession(await getDb(), account.svcUserId, request.userAgent);
          if (request.replaces?.userId === account.svcUserId) await endSession(await getDb(), request.replaces.sessionId);
        } else if (account?.provider === "github" && profile) {
          const p = profile as { id?: number | string; login?: string; name?: string | null; email?: string | null };
          const local = await upsertGithubUser(await getDb(), { id: String(p.id), login: p.login ?? "user", name: p.name, email: p.email });
          token.sub = local.id;
          token.sid = await startSession(await getDb(), local.id);
        } else if (user) {
          token.sub = user.id;
          // a passkey sign-in verified the user (user verification required): both factors at once
          token.sid = await startSession(await getDb(), user.id, (user as { userAgent?: string }).userAgent, {
            secondFactorDone: account?.provider === "passkey",
          });
        }
        return token;
      },
      async session({ session, token }) {
        (session as { userId?: string }).userId = token.sub;
        return session;
      },
    },
  };
}
