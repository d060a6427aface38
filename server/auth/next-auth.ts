/**
 * next-auth 4 options: credentials (username + password) and, when GITHUB_ID and GITHUB_SECRET
 * are set, GitHub OAuth. Sessions are JWTs (required by the credentials provider); the JWT's
 * `sub` is the user id. The same JWT, sent as `Authorization: Bearer <jwt>`, is the "service
 * token" accepted by /api/tokens (see resolveActor).
 */
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GithubProvider from "next-auth/providers/github";
import { getAuthSecret, getConfig } from "@/server/config";
import { getDb } from "@/server/db";
import { authenticate, upsertGithubUser } from "@/server/services/users";
import { AppError } from "@/server/errors";

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
        async authorize(credentials) {
          if (!credentials?.username || !credentials.password) return null;
          let user;
          try {
            user = await authenticate(await getDb(), credentials.username, credentials.password);
          } catch (e) {
            // next-auth shows a thrown error's message to the sign-in form (too many attempts)
            if (e instanceof AppError) throw new Error(e.message);
            throw e;
          }
          return user ? { id: user.id, name: user.name ?? user.username, email: user.email } : null;
        },
      }),
      ...(github ? [GithubProvider({ clientId: github.clientId, clientSecret: github.clientSecret })] : []),
    ],
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
        } else if (user) {
          token.sub = user.id;
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
