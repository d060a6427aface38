/**
 * Personal access token format (spec "Personal access token"; checksum: docs/api.md "Token
 * endpoints"): `svc_<prefix>_<secret><checksum>` where <prefix> is 8 and <secret> 40 base62
 * characters, both from a CSPRNG without modulo bias, and <checksum> is 6 base62 characters of the
 * CRC32 of everything before it (as GitHub's `ghp_` tokens carry a CRC32), so a scanner can tell an
 * svc token from a random look-alike without a database lookup. Tokens made before the checksum
 * (`svc_<8>_<40>`, "legacy") keep working: they are verified against the database alone. Only
 * the SHA-256 (hex) of the whole token is stored.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const PREFIX_LENGTH = 8;
export const SECRET_LENGTH = 40;
/** Base62 characters of the CRC32 suffix (62^6 > 2^32). */
export const CHECKSUM_LENGTH = 6;
const TOKEN_RE = /^svc_([0-9A-Za-z]{8})_([0-9A-Za-z]{32,})$/;

/** CRC-32 (IEEE 802.3, the polynomial of zlib and PNG) lookup table. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 of the UTF-8 bytes of `text`, as an unsigned 32-bit number (same as zlib's crc32). */
export function crc32(text: string): number {
  let c = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8")) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The 6-character base62 checksum of a token body `svc_<prefix>_<secret>` (big-endian digits, zero-padded). */
export function tokenChecksum(body: string): string {
  let n = crc32(body);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/**
 * Does `token` have the current format (`svc_<8>_<40+6>`) with a correct checksum? False for
 * legacy tokens (no checksum), for look-alikes and for anything else. Pure; no database.
 */
export function hasValidChecksum(token: string): boolean {
  const m = TOKEN_RE.exec(token);
  if (!m || m[2].length !== SECRET_LENGTH + CHECKSUM_LENGTH) return false;
  const cut = token.length - CHECKSUM_LENGTH;
  return tokenChecksum(token.slice(0, cut)) === token.slice(cut);
}

/**
 * Can `token` be a token this software issued? `checksum` (current format, checksum correct),
 * `legacy` (`svc_<8>_<40>`, made before checksums; only the database can tell) or `no` (a
 * look-alike: a current-length token with a wrong checksum, or another length).
 */
export function tokenKind(token: string): "checksum" | "legacy" | "no" {
  const m = TOKEN_RE.exec(token);
  if (!m) return "no";
  if (m[2].length === SECRET_LENGTH) return "legacy";
  return hasValidChecksum(token) ? "checksum" : "no";
}

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

/** A new token `svc_<8>_<40><6 checksum>` (59 characters): the full secret string (shown once) and its visible prefix. */
export function generateToken(): { token: string; prefix: string } {
  const prefix = randomBase62(PREFIX_LENGTH);
  const body = `svc_${prefix}_${randomBase62(SECRET_LENGTH)}`;
  return { token: body + tokenChecksum(body), prefix };
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
