/** Signing in: username and password (argon2id, rate limited), or a GitHub identity (OAuth). */
import { hash, verify } from "@node-rs/argon2";
import { stringProblem } from "@/server/validation/strings";
import type { Db } from "@/server/db";
import { takeSignInAttempt } from "./sign-in-limits";
import { profileSelect, type Profile } from "./profile";
import { createExternalUser } from "./external-user";

/** A fixed argon2 hash, made once, that unknown users' passwords are checked against. */
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hash(`svc-no-such-user-${Math.random()}`));

/**
 * The user for a username/password pair, or null (unknown user or wrong password). `address` is
 * the caller's (clientAddress; "unknown" when none, e.g. the CLI). Each attempt first takes a
 * point from the sign-in limits (./sign-in-limits.ts: per address+account 10 / 15 min, per
 * address 50 / 15 min, per account from new addresses 100 / hour), so parallel guesses never
 * pass more than the limit; a success gives the points back. Over a limit: AppError
 * TOO_MANY_REQUESTS with retryAfter seconds, even for the right password. Unknown usernames
 * are counted like real ones and their password is checked against a dummy argon2 hash, so
 * neither the answer nor its timing tells which accounts exist.
 */
export async function authenticate(db: Db, username: string, password: string, address = "unknown"): Promise<Profile | null> {
  // text no account can have (lone surrogates, NUL, controls: server/validation/strings.ts) is a
  // wrong answer, never a database error
  if (stringProblem(username.trim(), "line") || stringProblem(password, "text")) return null;
  const key = username.trim().toLowerCase();
  const attempt = await takeSignInAttempt(key, address);
  const user = await db.user.findUnique({ where: { usernameLower: key }, select: { ...profileSelect, passwordHash: true } });
  // passwords are at most 1024 characters (signUpInput); a longer one is wrong without hashing it
  const ok = password.length <= 1024 && (await verify(user?.passwordHash ?? (await dummy()), password).catch(() => false));
  if (!user?.passwordHash || !ok) return null;
  await attempt.succeeded();
  return { id: user.id, username: user.username, name: user.name, email: user.email };
}

/**
 * Finds or creates the account for a GitHub identity (OAuth sign-in). A new account is made by
 * createExternalUser (./external-user.ts): the GitHub login as username when free, else
 * login-<n>; the email only when no account uses it.
 */
export async function upsertGithubUser(
  db: Db,
  github: { id: string; login: string; name?: string | null; email?: string | null },
): Promise<Profile> {
  const existing = await db.user.findUnique({ where: { githubId: github.id }, select: profileSelect });
  if (existing) return existing;
  return createExternalUser(db, { login: github.login, name: github.name, email: github.email }, { githubId: github.id });
}
