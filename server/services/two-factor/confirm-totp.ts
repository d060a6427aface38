/** users.twoFactor.confirm: enabling TOTP (docs/security.md "Two-factor authentication"). */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { acceptTotp } from "./totp";
import { replaceRecoveryCodes } from "./recovery-codes";
import { refreshTwoFactorFlag } from "./two-factor-flag";

/**
 * Enables TOTP with a code from the secret users.twoFactor.setup made, and returns ten new
 * recovery codes (`xxxxx-xxxxx`, shown only now). From the next sign-in on, the user is asked for
 * a second factor. Errors: CONFLICT when already enabled; BAD_REQUEST when setup was not run or
 * the code is wrong (or already used).
 */
export async function confirmTotp(db: Db, userId: string, code: string): Promise<{ enabled: true; recoveryCodes: string[] }> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { totpSecret: true, totpEnabledAt: true } });
  if (!user) throw new AppError("NOT_FOUND", "user not found");
  if (user.totpEnabledAt) throw new AppError("CONFLICT", "two-factor authentication with an app is already enabled");
  if (!user.totpSecret) throw new AppError("BAD_REQUEST", "start the setup first (users.twoFactor.setup)");
  if (!(await acceptTotp(db, userId, code, false)))
    throw new AppError("BAD_REQUEST", "incorrect code; enter the current code from your app");
  const recoveryCodes = await db.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: userId, totpEnabledAt: null, totpSecret: user.totpSecret },
      data: { totpEnabledAt: new Date() },
    });
    if (count !== 1) throw new AppError("CONFLICT", "two-factor setup changed meanwhile; start again");
    const codes = await replaceRecoveryCodes(tx, userId);
    await refreshTwoFactorFlag(tx, userId);
    return codes;
  });
  return { enabled: true, recoveryCodes };
}
