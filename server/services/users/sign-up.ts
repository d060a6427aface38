/** Creating an account with a password (users.signUp, the CLI). Passwords are hashed with argon2id (@node-rs/argon2). */
import { hash } from "@node-rs/argon2";
import { z } from "zod";
import { line, text } from "@/server/validation/strings";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import { addressKey, consume } from "@/server/rate-limit";
import { usernameProblem } from "@/lib/names";
import { profileSelect, type Profile } from "./profile";
import { emailTaken } from "./email-taken";

/** Shortest password accepted, in characters (sign-up and password change). */
export const MIN_PASSWORD_LENGTH = 8;

/** Longest password accepted, in characters (argon2 hashes any length; this bounds the work). */
const MAX_PASSWORD_LENGTH = 1024;

/** The string rule of a new password (multi-line text: NUL and lone surrogates refused; at most 1024 characters). */
const passwordText = text("password").max(MAX_PASSWORD_LENGTH, `password is at most ${MAX_PASSWORD_LENGTH} characters`);

/**
 * Checks a new password against the one rule of sign-up, a password change (users/account.ts) and
 * an administrator's reset (users/set-password.ts): well-formed text without NUL, 8–1024 characters.
 * Errors: BAD_REQUEST naming the problem ("password must be at least 8 characters", …).
 */
export function checkNewPassword(password: string): void {
  const parsed = passwordText.safeParse(password);
  if (!parsed.success) throw new AppError("BAD_REQUEST", parsed.error.issues.map((i) => i.message).join("; "));
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new AppError("BAD_REQUEST", `password must be at least ${MIN_PASSWORD_LENGTH} characters`);
}

/**
 * The stored form of a new password: `checkNewPassword`, then its argon2id hash (PHC string, as
 * User.passwordHash holds it). Errors: BAD_REQUEST as `checkNewPassword`.
 */
export async function hashNewPassword(password: string): Promise<string> {
  checkNewPassword(password);
  return hash(password);
}

/** users.signUp input: username, password, name?, email? ("" = none). */
export const signUpInput = z.object({
  username: line("username").trim(),
  password: passwordText,
  name: line("name").trim().max(100).optional(),
  email: line("email")
    .trim()
    .email("email is not a valid address")
    .max(254)
    .optional()
    .or(z.literal("").transform(() => undefined)),
});
export type SignUpInput = z.input<typeof signUpInput>;

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
  checkNewPassword(password);
  if (await db.user.findUnique({ where: { usernameLower: username.toLowerCase() }, select: { id: true } }))
    throw new AppError("CONFLICT", `username "${username}" is already taken`);
  if (email && (await emailTaken(db, email))) throw new AppError("CONFLICT", "that email is already in use");
  const passwordHash = await hashNewPassword(password);
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
    if (!isUniqueViolation(e)) throw e;
    const target = String((e as { meta?: { target?: unknown } }).meta?.target ?? "");
    throw new AppError("CONFLICT", target.includes("email") ? "that email is already in use" : `username "${username}" is already taken`);
  }
}
