/** users.twoFactor.status (docs/security.md "Two-factor authentication"). */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";

export interface TwoFactorStatus {
  /** TOTP confirmed and on. */
  totp: boolean;
  /** When TOTP was enabled (ISO), or null. */
  totpEnabledAt: string | null;
  /** Unused recovery codes. */
  recoveryCodesLeft: number;
  /** Registered passkeys. */
  passkeys: number;
  /** Any second factor (User.twoFactorEnabled): sign-ins ask for it. */
  enabled: boolean;
}

/** The caller's second factors. NOT_FOUND for an unknown user. */
export async function twoFactorStatus(db: Db, userId: string): Promise<TwoFactorStatus> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { totpEnabledAt: true, twoFactorEnabled: true, _count: { select: { passkeys: true } } },
  });
  if (!user) throw new AppError("NOT_FOUND", "user not found");
  const recoveryCodesLeft = await db.recoveryCode.count({ where: { userId, usedAt: null } });
  return {
    totp: user.totpEnabledAt !== null,
    totpEnabledAt: user.totpEnabledAt?.toISOString() ?? null,
    recoveryCodesLeft,
    passkeys: user._count.passkeys,
    enabled: user.twoFactorEnabled,
  };
}
