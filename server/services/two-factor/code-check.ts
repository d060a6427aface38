/**
 * Checking a second-factor code (TOTP or recovery code) under the sign-in limits
 * (users/sign-in-limits.ts; docs/security.md "Two-factor authentication"). Every check takes an
 * attempt BEFORE the code is looked at, so parallel guesses cannot exceed the limits, and a right
 * code gives it back. The account part of the limit key is `<username>#2fa` ("#" is in no
 * username): a right password cannot reset the count of wrong codes, while the per-address level
 * (50 / 15 min) is shared with password attempts. With 10 wrong codes per address and account
 * per 15 minutes, guessing a 6-digit code (3 valid at a time) is bounded to ~1 in 33,000 per
 * window.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { takeSignInAttempt } from "@/server/services/users/sign-in-limits";
import { acceptTotp, totpCodeOf } from "./totp";
import { useRecoveryCode } from "./recovery-codes";

/** The limit key for second-factor attempts on `username`. */
export function secondFactorLimitKey(username: string): string {
  return `${username.toLowerCase()}#2fa`;
}

/**
 * Verifies `code` for the user: six digits are a TOTP code (each accepted once), anything else a
 * recovery code (used up when right; only when `allowRecovery`). Returns which factor matched.
 * Errors: TOO_MANY_REQUESTS (with retryAfter) over the limits; BAD_REQUEST "incorrect
 * two-factor code" when it does not match (or was already used).
 */
export async function checkSecondFactorCode(
  db: Db,
  user: { id: string; username: string },
  code: string,
  address: string,
  opts: { allowRecovery?: boolean } = {},
): Promise<"totp" | "recovery"> {
  const attempt = await takeSignInAttempt(secondFactorLimitKey(user.username), address);
  let factor: "totp" | "recovery" | null = null;
  if (totpCodeOf(code)) {
    if (await acceptTotp(db, user.id, code)) factor = "totp";
  } else if (opts.allowRecovery && (await useRecoveryCode(db, user.id, code))) {
    factor = "recovery";
  }
  if (!factor) throw new AppError("BAD_REQUEST", "incorrect two-factor code (or one already used)");
  await attempt.succeeded();
  return factor;
}
