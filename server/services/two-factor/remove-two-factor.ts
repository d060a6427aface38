/**
 * An administrator's two-factor reset (`svc user reset-two-factor`, docs/security.md "Lost
 * password or second factor"): for a user who lost their authenticator app, their recovery codes
 * and their passkeys, the operator removes every second factor so that the password alone signs
 * in again (Gitea: a site administrator removes a user's two-factor authentication). Named
 * remove…, not reset…: test/unit/vitest-isolation.test.ts reads a `reset…(` call as a reset of
 * module-level state.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { inTransaction } from "@/server/db/transaction";
import { findSignInAccount } from "@/server/services/users/sign-in-account";
import { revokeAllSessions } from "@/server/services/users/sessions";
import { clearAccountSignInLimit } from "@/server/services/users/sign-in-limits";
import { refreshTwoFactorFlag } from "./two-factor-flag";

/** What `removeTwoFactor` removed. */
export interface RemoveTwoFactorResult {
  userId: string;
  username: string;
  /** True when a TOTP secret (confirmed or still being set up) was removed. */
  totpRemoved: boolean;
  /** Recovery codes removed, used ones included. */
  recoveryCodesRemoved: number;
  /** Names of the passkeys removed, oldest first. */
  passkeysRemoved: string[];
  /** Sessions ended, pending ones (waiting for a second factor) included. */
  sessionsEnded: number;
  /** User.twoFactorEnabled afterwards: false (recomputed by two-factor-flag.ts). */
  twoFactorEnabled: boolean;
}

/**
 * Removes every second factor of the account `username` (case-insensitive) — the TOTP secret
 * (User.totpSecret / totpEnabledAt / totpLastStep), all recovery codes and all passkeys —,
 * recomputes User.twoFactorEnabled the one way (two-factor-flag.ts `refreshTwoFactorFlag`) and ends
 * all of the user's sessions, in one transaction; then clears the account-wide sign-in limit
 * (sign-in-limits.ts `clearAccountSignInLimit`: a code guesser's failures count there). Nothing to remove is not an error (the result
 * says so). Afterwards the password alone signs in, and organizations requiring two-factor
 * authentication hold the user back until they set it up again. Errors: NOT_FOUND when no account
 * has that name; BAD_REQUEST for an organization or a bot account (they never sign in).
 */
export async function removeTwoFactor(db: Db, username: string): Promise<RemoveTwoFactorResult> {
  const found = await findSignInAccount(db, username);
  const userId = found.id;
  const result = await inTransaction(db, async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { totpSecret: true, totpEnabledAt: true } });
    if (!user) throw new AppError("NOT_FOUND", `no user named "${username}"`);
    const passkeys = await tx.passkey.findMany({
      where: { userId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { name: true },
    });
    await tx.user.update({
      where: { id: userId },
      data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null },
      select: { id: true },
    });
    const codes = await tx.recoveryCode.deleteMany({ where: { userId } });
    await tx.passkey.deleteMany({ where: { userId } });
    const twoFactorEnabled = await refreshTwoFactorFlag(tx, userId);
    const sessions = await revokeAllSessions(tx, userId);
    return {
      userId,
      username: found.username,
      totpRemoved: user.totpSecret !== null || user.totpEnabledAt !== null,
      recoveryCodesRemoved: codes.count,
      passkeysRemoved: passkeys.map((p) => p.name),
      sessionsEnded: sessions.revoked,
      twoFactorEnabled,
    };
  });
  await clearAccountSignInLimit(found.username);
  return result;
}
