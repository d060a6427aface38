/**
 * Encryption at rest for repository AI keys (docs/ai.md "Encryption at rest and rotation"):
 * AES-256-GCM from node:crypto, a random 96-bit IV per value, the 128-bit auth tag stored with it,
 * and associated data (the repository id and provider) bound in, so a ciphertext copied to another
 * row fails to decrypt.
 *
 * The 256-bit key is HKDF-SHA256 of a server secret with a purpose label ("svc repo-ai-keys v1"),
 * so it is never the session-signing key itself. The secret is `SVC_AI_KEY_SECRET` when set,
 * else the server's auth secret (NEXTAUTH_SECRET or DATA_DIR/auth-secret, server/config.ts).
 * `SVC_AI_KEY_SECRET_PREVIOUS` (comma-separated) lists retired secrets that still decrypt during
 * a rotation. Each ciphertext records the key id (a fingerprint of the derived key) it was made
 * with, so rotation knows which rows to re-encrypt.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { getAuthSecret } from "@/server/config";

const PURPOSE = "svc repo-ai-keys v1";
const SALT = "svc";

export interface SecretKey {
  /** 16 hex characters identifying the derived key (not the key; a SHA-256 prefix of it). */
  id: string;
  key: Buffer;
}

export interface Sealed {
  /** `base64url(iv).base64url(tag).base64url(ciphertext)`. */
  ciphertext: string;
  /** The SecretKey.id that sealed it. */
  keyId: string;
}

const derived = new Map<string, SecretKey>();

/** The AES key for one secret (memoized per secret). */
function deriveKey(secret: string): SecretKey {
  let k = derived.get(secret);
  if (!k) {
    const key = Buffer.from(hkdfSync("sha256", secret, SALT, PURPOSE, 32));
    k = { id: createHash("sha256").update(key).digest("hex").slice(0, 16), key };
    derived.set(secret, k);
  }
  return k;
}

/** The key new values are sealed with: SVC_AI_KEY_SECRET, else the server's auth secret. */
export function currentSecretKey(env: Record<string, string | undefined> = process.env): SecretKey {
  const own = env.SVC_AI_KEY_SECRET?.trim();
  return deriveKey(own || getAuthSecret());
}

/**
 * Every key that may open a value: the current one first, then each of SVC_AI_KEY_SECRET_PREVIOUS,
 * then the auth secret (so setting SVC_AI_KEY_SECRET for the first time needs no other step).
 */
export function secretKeys(env: Record<string, string | undefined> = process.env): SecretKey[] {
  const out = [currentSecretKey(env)];
  const more = [
    ...(env.SVC_AI_KEY_SECRET_PREVIOUS ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    getAuthSecret(),
  ];
  for (const s of more) {
    const k = deriveKey(s);
    if (!out.some((o) => o.id === k.id)) out.push(k);
  }
  return out;
}

/** Encrypts `plain` with the current key; `aad` (e.g. "<repoId>:<provider>") is authenticated, not stored. */
export function seal(plain: string, aad: string, key: SecretKey = currentSecretKey()): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.key, iv);
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return { ciphertext: [iv, tag, ct].map((b) => b.toString("base64url")).join("."), keyId: key.id };
}

/**
 * Decrypts a sealed value with the key named by `keyId` among `secretKeys()`. Returns null when
 * no configured secret has that id, or the value fails authentication (tampered, another row's
 * value, a wrong secret) — never throws, never includes the value in any message.
 */
export function open(sealed: Sealed, aad: string, keys: SecretKey[] = secretKeys()): string | null {
  const key = keys.find((k) => k.id === sealed.keyId);
  if (!key) return null;
  const parts = sealed.ciphertext.split(".");
  if (parts.length !== 3) return null;
  try {
    const [iv, tag, ct] = parts.map((p) => Buffer.from(p, "base64url"));
    if (iv!.length !== 12 || tag!.length !== 16) return null;
    const decipher = createDecipheriv("aes-256-gcm", key.key, iv!, { authTagLength: 16 });
    decipher.setAAD(Buffer.from(aad, "utf8"));
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(ct!), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
