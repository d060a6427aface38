/**
 * next-auth 4 options: credentials (username + password) and, when GITHUB_ID and GITHUB_SECRET
 * are set, GitHub OAuth. Sessions are JWTs (required by the credentials provider); the JWT's
 * `sub` is the user id and `sid` its UserSession row (revoked at sign-out). The same JWT, sent as `Authorization: Bearer <jwt>`, is the "service
 * token" accepted by /api/tokens (see resolveActor).
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

/** Session lifetime in seconds (30 days, next-auth's default). */
export const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;

export function getAuthOptions(): NextAuthOptions {
  const { github } = getConfig();
  return {
    secret: getAuthSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        name: "username and password",
        credentials: { username: { label: "Username", type: "text" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
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
      ...(github ? [GithubProvider({ clientId: github.clientId, clientSecret: github.clientSecret })] : []),
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
        if (account?.provider !== "github") return true;
        return Boolean(profile);
      },
      async jwt({ token, account, profile, user }) {
        if (account?.provider === "github" && profile) {
          const p = profile as { id?: number | string; login?: string; name?: string | null; email?: string | null };
          const local = await upsertGithubUser(await getDb(), { id: String(p.id), login: p.login ?? "user", name: p.name, email: p.email });
          token.sub = local.id;
          token.sid = await startSession(await getDb(), local.id);
        } else if (user) {
          token.sub = user.id;
          token.sid = await startSession(await getDb(), user.id, (user as { userAgent?: string }).userAgent);
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
