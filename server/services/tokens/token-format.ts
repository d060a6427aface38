/**
 * Personal access token format (spec "Personal access token"): `svc_<prefix>_<secret>` where
 * <prefix> is 8 and <secret> is 40 base62 characters, both from a CSPRNG without modulo bias.
 * Only the SHA-256 (hex) of the whole token is stored.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const PREFIX_LENGTH = 8;
export const SECRET_LENGTH = 40;
const TOKEN_RE = /^svc_([0-9A-Za-z]{8})_([0-9A-Za-z]{32,})$/;

/**
 * `length` characters from ALPHABET. Bytes ≥ 248 (= 4·62) are rejected so each character is
 * uniform (rejection sampling), not biased by `byte % 62`.
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new token: the full secret string (shown once) and its visible prefix. */
export function generateToken(): { token: string; prefix: string } {
  const prefix = randomBase62(PREFIX_LENGTH);
  return { token: `svc_${prefix}_${randomBase62(SECRET_LENGTH)}`, prefix };
}

/** Hex SHA-256 of a token string: what the database stores. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Splits a token string into its prefix, or null when it is not of the svc_ format. */
export function parseToken(token: string): { prefix: string } | null {
  const m = TOKEN_RE.exec(token);
  return m ? { prefix: m[1] } : null;
}

/** Constant-time comparison of a token against a stored hex hash. */
export function verifyTokenHash(token: string, storedHash: string): boolean {
  const a = Buffer.from(hashToken(token), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
