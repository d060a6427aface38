/**
 * Accounts: sign up, password check, profile. Passwords are hashed with argon2id (@node-rs/argon2).
 */
import { hash, verify } from "@node-rs/argon2";
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { usernameProblem } from "./names";
import { assertUnderLimit, penalize, reset } from "@/server/rate-limit";

export const MIN_PASSWORD_LENGTH = 8;

export const signUpInput = z.object({
  username: z.string().trim(),
  password: z.string().max(1024, "password is at most 1024 characters"),
  name: z.string().trim().max(100).optional(),
  email: z.string().trim().email("email is not a valid address").max(254).optional().or(z.literal("").transform(() => undefined)),
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
 * Creates an account. Errors: BAD_REQUEST for an invalid or reserved username or a password
 * shorter than 8 characters; CONFLICT when the username (case-insensitively) or email is taken.
 */
export async function signUp(db: Db, input: SignUpInput, options: { isAdmin?: boolean } = {}): Promise<Profile> {
  const parsed = signUpInput.safeParse(input);
  if (!parsed.success) throw new AppError("BAD_REQUEST", parsed.error.issues.map((i) => i.message).join("; "));
  const { username, password, name, email } = parsed.data;
  const problem = usernameProblem(username);
  if (problem) throw new AppError("BAD_REQUEST", problem);
  if (password.length < MIN_PASSWORD_LENGTH) throw new AppError("BAD_REQUEST", `password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  const taken = await db.user.findFirst({ where: { OR: [{ usernameLower: username.toLowerCase() }, ...(email ? [{ email }] : [])] }, select: { usernameLower: true } });
  if (taken) throw new AppError("CONFLICT", taken.usernameLower === username.toLowerCase() ? `username "${username}" is already taken` : "that email is already in use");
  const passwordHash = await hash(password);
  try {
    return await db.user.create({
      data: { username, usernameLower: username.toLowerCase(), name: name || null, email: email ?? null, passwordHash, isAdmin: options.isAdmin ?? false },
      select: profileSelect,
    });
  } catch (e) {
    if ((e as { code?: string }).code === "P2002") throw new AppError("CONFLICT", `username "${username}" is already taken`);
    throw e;
  }
}

/**
 * The user for a username/password pair, or null (unknown user or wrong password). After 10
 * failed attempts for one username within 15 minutes every attempt is refused until the window
 * passes (LIMITS.signInFailures): AppError TOO_MANY_REQUESTS with retryAfter seconds. A
 * successful sign-in clears the count. Unknown usernames are counted too, so the answer does
 * not reveal which accounts exist.
 */
export async function authenticate(db: Db, username: string, password: string): Promise<Profile | null> {
  const key = username.trim().toLowerCase();
  await assertUnderLimit("signInFailures", key);
  const user = await db.user.findUnique({ where: { usernameLower: key }, select: { ...profileSelect, passwordHash: true } });
  if (!user?.passwordHash || !(await verify(user.passwordHash, password).catch(() => false))) {
    await penalize("signInFailures", key);
    return null;
  }
  await reset("signInFailures", key);
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
export async function upsertGithubUser(db: Db, github: { id: string; login: string; name?: string | null; email?: string | null }): Promise<Profile> {
  const existing = await db.user.findUnique({ where: { githubId: github.id }, select: profileSelect });
  if (existing) return existing;
  let username = github.login.replace(/[^A-Za-z0-9-]/g, "-").replace(/^-+|-+$/g, "").slice(0, 39) || "user";
  for (let n = 2; (await db.user.findUnique({ where: { usernameLower: username.toLowerCase() } })) || usernameProblem(username); n++) {
    username = `${github.login.slice(0, 30)}-${n}`;
  }
  const emailFree = github.email && !(await db.user.findUnique({ where: { email: github.email } }));
  return db.user.create({
    data: { username, usernameLower: username.toLowerCase(), name: github.name ?? null, email: emailFree ? github.email : null, githubId: github.id },
    select: profileSelect,
  });
}
