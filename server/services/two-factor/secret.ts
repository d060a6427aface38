/**
 * TOTP secrets at rest (docs/security.md "Two-factor authentication"): sealed with AES-256-GCM
 * through server/ai/secret-box.ts's seal/open, under a key of their own — HKDF-SHA256 of the
 * server's auth secret (NEXTAUTH_SECRET or DATA_DIR/auth-secret) with the purpose label
 * "svc totp-secrets v1" — and the user id as associated data, so a value copied to another user's
 * row fails to open. Stored as `<keyId>:<iv>.<tag>.<ciphertext>` in User.totpSecret.
 * Changing the auth secret makes the sealed secrets unreadable: those users then sign in with a
 * recovery code and set TOTP up again.
 */
import { createHash, hkdfSync } from "node:crypto";
import { getAuthSecret } from "@/server/config";
import { open, seal, type SecretKey } from "@/server/ai/secret-box";

const PURPOSE = "svc totp-secrets v1";
const derived = new Map<string, SecretKey>();

/** The AES key for TOTP secrets, derived from the current auth secret (memoized). */
function totpKey(): SecretKey {
  const secret = getAuthSecret();
  let k = derived.get(secret);
  if (!k) {
    const key = Buffer.from(hkdfSync("sha256", secret, "svc", PURPOSE, 32));
    k = { id: createHash("sha256").update(key).digest("hex").slice(0, 16), key };
    derived.set(secret, k);
  }
  return k;
}

const aadOf = (userId: string) => `totp:${userId}`;

/** The column value for `userId`'s Base32 TOTP secret `plain`. */
export function sealTotpSecret(userId: string, plain: string): string {
  const sealed = seal(plain, aadOf(userId), totpKey());
  return `${sealed.keyId}:${sealed.ciphertext}`;
}

/** The Base32 secret from a User.totpSecret value, or null when it does not open (tampered, other row, other key). */
export function openTotpSecret(userId: string, stored: string | null): string | null {
  if (!stored) return null;
  const i = stored.indexOf(":");
  if (i <= 0) return null;
  return open({ keyId: stored.slice(0, i), ciphertext: stored.slice(i + 1) }, aadOf(userId), [totpKey()]);
}
