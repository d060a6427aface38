/** users.twoFactor.disable (docs/security.md "Two-factor authentication"). */
import { z } from "zod";
import { verify } from "@node-rs/argon2";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { consume } from "@/server/rate-limit";
import { text } from "@/server/validation/strings";
import { checkSecondFactorCode } from "./code-check";
import { refreshTwoFactorFlag } from "./two-factor-flag";

export const disableTotpInput = z
  .object({ code: text("code").max(64).optional(), password: text("password").max(1024).optional() })
  .refine((v) => Boolean(v.code) !== Boolean(v.password), { message: "give either code or password" });

/**
 * Turns TOTP off after proving it is the owner: a current TOTP code or a recovery code (sign-in
 * limits, code-check.ts), or the account password (passwordChecks limit, as changePassword).
 * Clears the secret and every recovery code and recomputes User.twoFactorEnabled (passkeys may
 * keep it on). Errors: BAD_REQUEST when TOTP is not enabled, for a wrong code or password, or a
 * password on an account without one; TOO_MANY_REQUESTS over the limits.
 */
export async function disableTotp(
  db: Db,
  userId: string,
  input: z.infer<typeof disableTotpInput>,
  address: string,
): Promise<{ disabled: true; twoFactorEnabled: boolean }> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { username: true, totpEnabledAt: true, passwordHash: true } });
  if (!user) throw new AppError("NOT_FOUND", "user not found");
  if (!user.totpEnabledAt) throw new AppError("BAD_REQUEST", "two-factor authentication with an app is not enabled");
  if (input.password !== undefined) {
    await consume("passwordChecks", userId);
    if (!user.passwordHash) throw new AppError("BAD_REQUEST", "this account has no password; confirm with a code instead");
    if (!(await verify(user.passwordHash, input.password).catch(() => false))) throw new AppError("BAD_REQUEST", "password is incorrect");
  } else {
    await checkSecondFactorCode(db, { id: userId, username: user.username }, input.code ?? "", address, { allowRecovery: true });
  }
  const twoFactorEnabled = await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null } });
    await tx.recoveryCode.deleteMany({ where: { userId } });
    return refreshTwoFactorFlag(tx, userId);
  });
  return { disabled: true, twoFactorEnabled };
}
