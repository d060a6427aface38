/**
 * Account settings: the caller's own name, email and password, and the public profile
 * of any user. Rules follow sign-up (./sign-up.ts): emails are unique case-insensitively and stored
 * lower-cased, passwords are 8–1024 characters and hashed with argon2id.
 *
 * Changing the password (docs/api.md "Accounts"): needs the current password AND a browser
 * session or service token (a personal access token is refused, as for session management), so
 * a leaked token can never take over the account. Wrong current passwords are counted per user
 * (LIMITS.passwordChecks, 10 per 15 minutes, taken before the check; a success clears them).
 * On success every other session of the user ends; the caller's own session is kept.
 */
import { verify } from "@node-rs/argon2";
import { z } from "zod";
import { line, text } from "@/server/validation/strings";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { isRecordMissing, isUniqueViolation } from "@/server/db/prisma-errors";
import { consume, reset } from "@/server/rate-limit";
import { checkNewPassword, hashNewPassword } from "./sign-up";
import { profileSelect, type Profile } from "./profile";
import { emailTaken } from "./email-taken";

export const updateProfileInput = z.object({
  /** Display name; "" or null removes it. */
  name: line("name").trim().max(100, "name is at most 100 characters").nullable().optional(),
  /** Email; "" or null removes it. Unique case-insensitively (CONFLICT). */
  email: line("email")
    .trim()
    .max(254, "email is at most 254 characters")
    .refine((v) => v === "" || line("email").email().safeParse(v).success, "email is not a valid address")
    .nullable()
    .optional(),
});

export const changePasswordInput = z.object({
  currentPassword: text("currentPassword", "currentPassword is required").max(1024, "currentPassword is at most 1024 characters"),
  newPassword: text("newPassword", "newPassword is required").max(1024, "newPassword is at most 1024 characters"),
});

export const profileInput = z.object({
  username: line("username", "username is required").trim().min(1, "username is required").max(39, "username is at most 39 characters"),
});

/** The public profile of a user: no email, no id of anything private. Dates ISO. */
export interface PublicProfile {
  id: string;
  username: string;
  name: string | null;
  createdAt: string;
  /** "organization" for an organization (docs/orgs.md): the /<name> page branches on it. */
  kind: "user" | "organization";
}

/**
 * users.profile {username} → the public profile (username compared case-insensitively).
 * Errors: NOT_FOUND "user not found".
 */
export async function publicProfile(db: Db, username: string): Promise<PublicProfile> {
  const user = await db.user.findUnique({
    where: { usernameLower: username.toLowerCase() },
    select: { id: true, username: true, name: true, createdAt: true, isOrg: true },
  });
  if (!user) throw new AppError("NOT_FOUND", "user not found");
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    createdAt: user.createdAt.toISOString(),
    kind: user.isOrg ? "organization" : "user",
  };
}

/**
 * users.updateProfile {name?, email?} → the caller's {id, username, name, email}. Absent fields
 * are kept; "" or null removes the name or email. The email is stored lower-cased.
 * Errors: CONFLICT "that email is already in use" (case-insensitively, like sign-up);
 * NOT_FOUND when the account vanished.
 */
export async function updateProfile(db: Db, userId: string, input: z.output<typeof updateProfileInput>): Promise<Profile> {
  const data: { name?: string | null; email?: string | null } = {};
  if (input.name !== undefined) data.name = input.name || null;
  if (input.email !== undefined) data.email = input.email ? input.email.toLowerCase() : null;
  if (data.email && (await emailTaken(db, data.email, userId))) throw new AppError("CONFLICT", "that email is already in use");
  try {
    return await db.user.update({ where: { id: userId }, data, select: profileSelect });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", "that email is already in use");
    if (isRecordMissing(e)) throw new AppError("NOT_FOUND", "user not found");
    throw e;
  }
}

/**
 * users.changePassword {currentPassword, newPassword} → {changed: true, signedOut: n} (n = other
 * sessions ended). `keepSessionId` is the caller's session, which stays signed in.
 * Errors, in this order: BAD_REQUEST "password must be at least 8 characters" / "the new password
 * must differ from the current one" (checked first, no attempt counted); TOO_MANY_REQUESTS
 * (retryAfter) after 10 checks in 15 minutes without a success; BAD_REQUEST for an account without
 * a password (GitHub sign-in only) or "current password is incorrect" (nothing changes).
 */
export async function changePassword(
  db: Db,
  userId: string,
  input: z.output<typeof changePasswordInput>,
  keepSessionId: string | undefined,
): Promise<{ changed: true; signedOut: number }> {
  checkNewPassword(input.newPassword);
  if (input.newPassword === input.currentPassword) throw new AppError("BAD_REQUEST", "the new password must differ from the current one");
  await consume("passwordChecks", userId);
  const user = await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  if (!user) throw new AppError("NOT_FOUND", "user not found");
  if (!user.passwordHash) throw new AppError("BAD_REQUEST", "this account signs in with GitHub and has no password to change");
  const ok = await verify(user.passwordHash, input.currentPassword).catch(() => false);
  if (!ok) throw new AppError("BAD_REQUEST", "current password is incorrect");
  await reset("passwordChecks", userId);
  const passwordHash = await hashNewPassword(input.newPassword);
  const [, ended] = await db.$transaction([
    db.user.update({ where: { id: userId }, data: { passwordHash }, select: { id: true } }),
    db.userSession.deleteMany({ where: { userId, ...(keepSessionId ? { NOT: { id: keepSessionId } } : {}) } }),
  ]);
  return { changed: true, signedOut: ended.count };
}
