/**
 * Recovery codes (docs/security.md "Two-factor authentication"): ten single-use codes made when
 * TOTP is confirmed (or regenerated), shown once, stored as hex SHA-256 of the normalized code
 * (RecoveryCode.codeHash). Each code is 10 characters from a 32-letter alphabet (50 random bits),
 * shown as `xxxxx-xxxxx`; a fast hash is enough for that much entropy.
 */
import { createHash, randomInt } from "node:crypto";
import type { Db } from "@/server/db";

/** How many codes a set has. */
export const RECOVERY_CODE_COUNT = 10;

/** Lower-case letters and digits without 0, 1, l, o (easy to misread). */
const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** A code normalized for hashing: lower case, dashes and spaces removed. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, "");
}

/** Hex SHA-256 of the normalized code. */
export function hashRecoveryCode(code: string): string {
  return createHash("sha256").update(normalizeRecoveryCode(code)).digest("hex");
}

/** One new code, `xxxxx-xxxxx`. */
function newCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

/** A DB client or transaction client with recoveryCode. */
type DbOrTx = Pick<Db, "recoveryCode">;

/**
 * Replaces the user's recovery codes with RECOVERY_CODE_COUNT new ones; returns them in clear
 * (the only time they exist in clear). Call inside the transaction that enables TOTP or regenerates.
 */
export async function replaceRecoveryCodes(db: DbOrTx, userId: string): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newCode());
  await db.recoveryCode.deleteMany({ where: { userId } });
  await db.recoveryCode.createMany({ data: [...codes].map((c) => ({ userId, codeHash: hashRecoveryCode(c) })) });
  return [...codes];
}

/**
 * Uses up one of the user's recovery codes: true when `code` is one not used before (it is then
 * marked usedAt, compare-and-set so two concurrent uses cannot both pass), else false.
 */
export async function useRecoveryCode(db: Db, userId: string, code: string): Promise<boolean> {
  const normalized = normalizeRecoveryCode(code);
  if (!/^[a-z0-9]{10}$/.test(normalized)) return false;
  const { count } = await db.recoveryCode.updateMany({
    where: { userId, codeHash: hashRecoveryCode(normalized), usedAt: null },
    data: { usedAt: new Date() },
  });
  return count === 1;
}

/** How many unused recovery codes the user has. */
export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  return db.recoveryCode.count({ where: { userId, usedAt: null } });
}
