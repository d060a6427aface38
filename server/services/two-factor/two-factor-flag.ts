/**
 * User.twoFactorEnabled: true while the user has a second factor — a confirmed TOTP secret
 * (User.totpEnabledAt) or at least one passkey (Passkey rows). Sign-in (users/sessions.ts
 * startSession) and organization access rules (grants.ts, an organization's
 * orgRequireTwoFactor) read this one column instead of joining both sources
 * (docs/security.md "Two-factor").
 */
import type { Db } from "@/server/db";

/** A Prisma client or an interactive transaction's client (both have `user` and `passkey`). */
type DbOrTx = Pick<Db, "user" | "passkey">;

/**
 * Recomputes User.twoFactorEnabled from the user's TOTP and passkeys. Call it in the same
 * transaction as every change to either (confirm or disable TOTP, add or remove a passkey).
 * Returns the new value. Unknown users: false, nothing written.
 */
export async function refreshTwoFactorFlag(db: DbOrTx, userId: string): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { totpEnabledAt: true, twoFactorEnabled: true } });
  if (!user) return false;
  const enabled = user.totpEnabledAt !== null || (await db.passkey.count({ where: { userId } })) > 0;
  if (enabled !== user.twoFactorEnabled) await db.user.update({ where: { id: userId }, data: { twoFactorEnabled: enabled } });
  return enabled;
}
