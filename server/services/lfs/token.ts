/**
 * Short-lived LFS transfer tokens (docs/lfs.md "Authentication"): what `git-lfs-authenticate`
 * over SSH hands to git-lfs, and what the batch API puts in its actions' headers. A token is
 * `svclfs.<payload>.<signature>`: the payload is base64url JSON naming the repository, the
 * operation and the principal (a user or a deploy key) and the expiry; the signature is
 * HMAC-SHA256 over "svc-lfs-token:" + payload with the server secret (config.getAuthSecret).
 * Only the LFS endpoints accept it (server/http/lfs/authorize.ts); it is never a git or API
 * credential. Nothing is stored: it cannot be revoked, hence its short life.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export type LfsOperation = "download" | "upload";

/** Who a token acts for: a user (by id) or a deploy key (by id; read-only keys get download tokens only). */
export type LfsPrincipal = { kind: "user"; userId: string } | { kind: "deploy"; keyId: string };

export interface LfsTokenClaims {
  repoId: string;
  operation: LfsOperation;
  principal: LfsPrincipal;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

/** How long a token is valid, in seconds (10 minutes). */
export const LFS_TOKEN_TTL_S = 600;

/** The prefix that tells an LFS token from a PAT or a session JWT. */
export const LFS_TOKEN_PREFIX = "svclfs.";

function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(`svc-lfs-token:${payload}`).digest("base64url");
}

/** A token for `claims` without `exp`, valid `ttlS` seconds from `nowMs`. Returns the token and its expiry (seconds). */
export function signLfsToken(
  secret: string,
  claims: Omit<LfsTokenClaims, "exp">,
  nowMs = Date.now(),
  ttlS = LFS_TOKEN_TTL_S,
): { token: string; expiresIn: number } {
  const body: LfsTokenClaims = { ...claims, exp: Math.floor(nowMs / 1000) + ttlS };
  const payload = Buffer.from(JSON.stringify(body)).toString("base64url");
  return { token: `${LFS_TOKEN_PREFIX}${payload}.${sign(secret, payload)}`, expiresIn: ttlS };
}

/**
 * The claims of a valid, unexpired token, or null when it is malformed, its signature does not
 * match `secret` (compared in constant time) or it expired before `nowMs`.
 */
export function verifyLfsToken(secret: string, token: string, nowMs = Date.now()): LfsTokenClaims | null {
  if (!token.startsWith(LFS_TOKEN_PREFIX) || token.length > 2048) return null;
  const rest = token.slice(LFS_TOKEN_PREFIX.length);
  const dot = rest.indexOf(".");
  if (dot <= 0) return null;
  const payload = rest.slice(0, dot);
  const given = Buffer.from(rest.slice(dot + 1), "base64url");
  const expected = Buffer.from(sign(secret, payload), "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: LfsTokenClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as LfsTokenClaims;
  } catch {
    return null;
  }
  if (typeof claims?.exp !== "number" || claims.exp * 1000 <= nowMs) return null;
  if (typeof claims.repoId !== "string" || (claims.operation !== "download" && claims.operation !== "upload")) return null;
  const p = claims.principal;
  if (!p || !((p.kind === "user" && typeof p.userId === "string") || (p.kind === "deploy" && typeof p.keyId === "string"))) return null;
  return claims;
}
