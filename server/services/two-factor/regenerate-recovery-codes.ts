/** users.twoFactor.regenerateRecoveryCodes (docs/security.md "Two-factor authentication"). */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { checkSecondFactorCode } from "./code-check";
import { replaceRecoveryCodes } from "./recovery-codes";

/**
 * Replaces the user's recovery codes with ten new ones (the old ones stop working) after a
 * current TOTP code; returns them, shown only now. Errors: BAD_REQUEST when TOTP is not enabled
 * or the code is wrong; TOO_MANY_REQUESTS over the sign-in limits (code-check.ts).
 */
export async function regenerateRecoveryCodes(db: Db, userId: string, code: string, address: string): Promise<{ recoveryCodes: string[] }> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { username: true, totpEnabledAt: true } });
  if (!user) throw new AppError("NOT_FOUND", "user not found");
  if (!user.totpEnabledAt) throw new AppError("BAD_REQUEST", "two-factor authentication with an app is not enabled");
  await checkSecondFactorCode(db, { id: userId, username: user.username }, code, address);
  return { recoveryCodes: await db.$transaction((tx) => replaceRecoveryCodes(tx, userId)) };
}
