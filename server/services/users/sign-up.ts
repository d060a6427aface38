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

/** users.signUp input: username, password, name?, email? ("" = none). */
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
    if (!isUniqueViolation(e)) throw e;
    const target = String((e as { meta?: { target?: unknown } }).meta?.target ?? "");
    throw new AppError("CONFLICT", target.includes("email") ? "that email is already in use" : `username "${username}" is already taken`);
  }
}
