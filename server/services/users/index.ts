/**
 * Accounts: sign up, password check, profile. Passwords are hashed with argon2id (@node-rs/argon2).
 */
import { hash, verify } from "@node-rs/argon2";
import { z } from "zod";
import { line, stringProblem, text } from "@/server/validation/strings";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { usernameProblem } from "@/lib/names";
import { addressKey, consume } from "@/server/rate-limit";
import { takeSignInAttempt } from "./sign-in-limits";

export const MIN_PASSWORD_LENGTH = 8;

export const signUpInput = z.object({
  username: line("username").trim(),
  password: text("password").max(1024, "password is at most 1024 characters"),
  name: line("name").trim().max(100).optional(),
  email: line("email")
    .trim()
    .email("email is not a valid address")
    .max(254)
    .optional()
    .or(z.literal("").transform(() => undefined)),
});
export type SignUpInput = z.input<typeof signUpInput>;

/** The profile returned by users.me: {id, username, name, email}. */
export interface Profile {
  id: string;
  username: string;
  name: string | null;
  email: string | null;
}

const profileSelect = { id: true, username: true, name: true, email: true } as const;

/**
 * Whether an account uses `email`, compared case-insensitively (issue #6 item 8: Alice@X.com and
 * alice@x.com are one address, as GitHub compares them). New emails are stored lower-cased; the
 * comparison also catches rows stored before that with other cases.
 */
async function emailTaken(db: Db, email: string): Promise<boolean> {
  const rows = await db.$queryRaw<unknown[]>`SELECT 1 FROM "User" WHERE lower("email") = ${email.toLowerCase()} LIMIT 1`;
  return rows.length > 0;
}

/**
 * Creates an account; the email is stored lower-cased. `options.address` is the caller's address
 * (clientAddress) for the sign-up limit: every attempt from it counts, valid or not
 * (LIMITS.signUps, 20 per hour); without it (the CLI, run by an administrator) nothing is counted.
 * Errors: TOO_MANY_REQUESTS (retryAfter seconds) over the limit; BAD_REQUEST for an invalid or
 * reserved username or a password shorter than 8 characters; CONFLICT when the username or the
 * email (both case-insensitively) is taken.
 */
export async function signUp(db: Db, input: SignUpInput, options: { isAdmin?: boolean; address?: string } = {}): Promise<Profile> {
  if (options.address !== undefined) await consume("signUps", addressKey(options.address));
  const parsed = signUpInput.safeParse(input);
  if (!parsed.success) throw new AppError("BAD_REQUEST", parsed.error.issues.map((i) => i.message).join("; "));
  const { username, password, name } = parsed.data;
  const email = parsed.data.email?.toLowerCase();
  const problem = usernameProblem(username);
  if (problem) throw new AppError("BAD_REQUEST", problem);
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new AppError("BAD_REQUEST", `password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (await db.user.findUnique({ where: { usernameLower: username.toLowerCase() }, select: { id: true } }))
    throw new AppError("CONFLICT", `username "${username}" is already taken`);
  if (email && (await emailTaken(db, email))) throw new AppError("CONFLICT", "that email is already in use");
  const passwordHash = await hash(password);
  try {
    return await db.user.create({
      data: {
        username,
        usernameLower: username.toLowerCase(),
        name: name || null,
        email: email ?? null,
        passwordHash,
        isAdmin: options.isAdmin ?? false,
      },
      select: profileSelect,
    });
  } catch (e) {
    const target = String((e as { meta?: { target?: unknown } }).meta?.target ?? "");
    if ((e as { code?: string }).code === "P2002")
      throw new AppError("CONFLICT", target.includes("email") ? "that email is already in use" : `username "${username}" is already taken`);
    throw e;
  }
}

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
 * neither the answer nor its timing tells which accounts exist (issue #6 item 8).
 */
export async function authenticate(db: Db, username: string, password: string, address = "unknown"): Promise<Profile | null> {
  // text no account can have (lone surrogates, NUL, controls: server/validation/strings.ts) is a
  // wrong answer, never a database error (issue #6 item 9)
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

/** The profile of a user id. Errors: NOT_FOUND. */
export async function getProfile(db: Db, userId: string): Promise<Profile> {
  const user = await db.user.findUnique({ where: { id: userId }, select: profileSelect });
  if (!user) throw new AppError("NOT_FOUND", "user not found");
  return user;
}

/** A user by username (case-insensitive), or null. */
export async function findUserByUsername(db: Db, username: string): Promise<Profile | null> {
  return db.user.findUnique({ where: { usernameLower: username.toLowerCase() }, select: profileSelect });
}

/**
 * Finds or creates the account for a GitHub identity (OAuth sign-in). A new account takes the
 * GitHub login as username when free, else login-<n>.
 */
export async function upsertGithubUser(
  db: Db,
  github: { id: string; login: string; name?: string | null; email?: string | null },
): Promise<Profile> {
  const existing = await db.user.findUnique({ where: { githubId: github.id }, select: profileSelect });
  if (existing) return existing;
  let username =
    github.login
      .replace(/[^A-Za-z0-9-]/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 39) || "user";
  for (let n = 2; (await db.user.findUnique({ where: { usernameLower: username.toLowerCase() } })) || usernameProblem(username); n++) {
    username = `${github.login.slice(0, 30)}-${n}`;
  }
  const email = github.email?.toLowerCase();
  const emailFree = email && !(await emailTaken(db, email));
  return db.user.create({
    data: {
      username,
      usernameLower: username.toLowerCase(),
      name: github.name ?? null,
      email: emailFree ? email : null,
      githubId: github.id,
    },
    select: profileSelect,
  });
}
