/**
 * TOTP codes (RFC 6238; docs/security.md "Two-factor authentication"): SHA-1, 6 digits, 30-second
 * steps, the step before and after the current one accepted (clock drift), through otplib. Each
 * code is accepted once: User.totpLastStep records the last accepted step and a compare-and-set
 * on it makes a replay — even two concurrent requests with the same code — fail.
 */
import { generateSecret, generateURI, verify } from "otplib";
import type { Db } from "@/server/db";
import { openTotpSecret } from "./secret";

/** Seconds of tolerance each way: one 30-second step. */
const TOLERANCE_S = 30;

/** A new Base32 secret (20 random bytes, 32 characters), as authenticator apps expect. */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// URI an authenticator app scans: issuer "svc", label "svc:<username>". */
export function totpUri(username: string, secret: string): string {
  return generateURI({ issuer: "svc", label: username, secret });
}

/** `code` with spaces removed when it is six digits, else null (never reaches otplib). */
export function totpCodeOf(code: string): string | null {
  const c = code.replace(/\s+/g, "");
  return /^\d{6}$/.test(c) ? c : null;
}

/**
 * The time step `code` is valid at for Base32 `secret` (current step ± 1), or null. Pure: no
 * replay check (use acceptTotp for that).
 */
export async function totpStep(secret: string, code: string): Promise<number | null> {
  const token = totpCodeOf(code);
  if (!token) return null;
  const result = await verify({ secret, token, epochTolerance: TOLERANCE_S }).catch(() => ({ valid: false as const }));
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

/**
 * Checks `code` against the user's sealed TOTP secret (`confirmed`: only an enabled one; else the
 * unconfirmed one from setup) and, when it is right, records its step so it is never accepted
 * again. True only for a right code not used before. Unknown users, no secret, a secret that no
 * longer opens: false.
 */
export async function acceptTotp(db: Db, userId: string, code: string, confirmed = true): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { totpSecret: true, totpEnabledAt: true, totpLastStep: true } });
  if (!user || (confirmed && !user.totpEnabledAt)) return false;
  const secret = openTotpSecret(userId, user.totpSecret);
  if (!secret) return false;
  const step = await totpStep(secret, code);
  if (step === null || (user.totpLastStep !== null && step <= user.totpLastStep)) return false;
  const { count } = await db.user.updateMany({
    where: { id: userId, totpSecret: user.totpSecret, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
    data: { totpLastStep: step },
  });
  return count === 1;
}
