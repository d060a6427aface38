/**
 * The account an operator's recovery command names (docs/security.md "Lost password or second
 * factor"): set-password.ts and two-factor/remove-two-factor.ts look it up the same way.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";

/**
 * The person account named `username` (case-insensitive) → {id, username}. Errors: NOT_FOUND when
 * no account has that name; BAD_REQUEST for an organization or a bot account (they never sign in).
 */
export async function findSignInAccount(db: Db, username: string): Promise<{ id: string; username: string }> {
  const user = await db.user.findUnique({
    where: { usernameLower: username.toLowerCase() },
    select: { id: true, username: true, isOrg: true, isBot: true },
  });
  if (!user) throw new AppError("NOT_FOUND", `no user named "${username}"`);
  if (user.isOrg || user.isBot)
    throw new AppError("BAD_REQUEST", `${user.username} is ${user.isOrg ? "an organization" : "a bot account"}: it never signs in`);
  return { id: user.id, username: user.username };
}
