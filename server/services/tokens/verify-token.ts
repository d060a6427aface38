/**
 * Checking a presented personal access token (spec "Authentication"): for API requests
 * (verifyPersonalAccessToken) and for secret scanning (isLiveToken).
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Scope } from "@/server/auth/scopes";
import { parseToken, tokenKind, verifyTokenHash } from "./token-format";

/** Last use is written at most once per this many ms per token (throttled writes). */
export const LAST_USED_THROTTLE_MS = 60_000;

export interface VerifiedToken {
  tokenId: string;
  userId: string;
  scopes: Scope[];
}

/**
 * Checks a presented `svc_…` token: checksum (current format; a wrong one is refused without a
 * query, legacy tokens have none), known prefix, matching hash (constant time), not expired.
 * Revoked tokens are deleted, so they are unknown. Records last use at most once a minute.
 * Errors: UNAUTHORIZED "invalid token" / "token expired".
 */
export async function verifyPersonalAccessToken(db: Db, token: string): Promise<VerifiedToken> {
  const row = await findStoredToken(db, token);
  if (row === "malformed") throw new AppError("UNAUTHORIZED", "invalid token");
  if (!row) throw new AppError("UNAUTHORIZED", "invalid or revoked token");
  const now = Date.now();
  if (row.expiresAt && row.expiresAt.getTime() <= now) throw new AppError("UNAUTHORIZED", "token expired");
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_THROTTLE_MS) {
    await db.accessToken.updateMany({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } });
  }
  return { tokenId: row.id, userId: row.userId, scopes: row.scopes.split(",") as Scope[] };
}

/**
 * The stored row of `token` when its hash matches (constant time), null when unknown or
 * revoked, "malformed" when it cannot be an svc token (not `svc_<8>_<32+>`, or a current-format
 * token whose checksum is wrong: refused without a database query). Legacy tokens (no checksum)
 * are looked up as before.
 */
async function findStoredToken(db: Db, token: string) {
  const parsed = parseToken(token);
  if (!parsed || tokenKind(token) === "no") return "malformed" as const;
  const row = await db.accessToken.findUnique({
    where: { prefix: parsed.prefix },
    select: { id: true, userId: true, tokenHash: true, scopes: true, expiresAt: true, lastUsedAt: true },
  });
  return row && verifyTokenHash(token, row.tokenHash) ? row : null;
}

/**
 * Is `token` a personal access token that works in this instance right now (stored, hash
 * matches, not expired)? For secret scanning (push protection): unlike
 * `verifyPersonalAccessToken` it never throws for a bad token and never records a use.
 * Look-alikes with a wrong checksum are answered false without a database query.
 */
export async function isLiveToken(db: Db, token: string): Promise<boolean> {
  const row = await findStoredToken(db, token);
  return row !== null && row !== "malformed" && (row.expiresAt === null || row.expiresAt.getTime() > Date.now());
}
