/**
 * Checking a presented personal access token (spec "Authentication"): for API requests
 * (verifyPersonalAccessToken) and for secret scanning (isLiveToken).
 */
import type { Db } from "@/server/db";
import { readRows } from "@/server/db/read";
import { boolOf, dateOf } from "@/server/db/raw";
import { getConfig } from "@/server/config";
import { AppError } from "@/server/errors";
import type { Scope } from "@/server/auth/scopes";
import { parseToken, tokenKind, verifyTokenHash } from "./token-format";

/** Last use is written at most once per this many ms per token (throttled writes). */
export const LAST_USED_THROTTLE_MS = 60_000;

export interface VerifiedToken {
  tokenId: string;
  userId: string;
  scopes: Scope[];
  /** When the token was made, and when it expires (null: never): organization token policies read them. */
  createdAt: Date;
  expiresAt: Date | null;
  /**
   * The token's user as requests act with it, read in the same statement; null for a bot account
   * (the AI reviewer never acts through a request, docs/ai.md "AI review").
   */
  user: TokenUser | null;
}

/** The identity columns of a token's user (what resolveActor needs). */
export interface TokenUser {
  id: string;
  username: string;
  name: string | null;
  email: string | null;
  isAdmin: boolean;
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
  return {
    tokenId: row.id,
    userId: row.userId,
    scopes: row.scopes.split(",") as Scope[],
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    user: row.user,
  };
}

/** A stored token row with its user's identity columns, as `findStoredToken` reads it. */
type RawTokenRow = {
  id: string;
  userId: string;
  tokenHash: string;
  scopes: string;
  expiresAt: unknown;
  createdAt: unknown;
  lastUsedAt: unknown;
  username: string | null;
  name: string | null;
  email: string | null;
  isAdmin: unknown;
  isBot: unknown;
};

/**
 * The stored row of `token` when its hash matches (constant time), with its user; null when
 * unknown or revoked, "malformed" when it cannot be an svc token (not `svc_<8>_<32+>`, or a
 * current-format token whose checksum is wrong: refused without a database query). Legacy tokens
 * (no checksum) are looked up as before. ONE statement on the read path (server/db/read.ts: this
 * runs on every token-authenticated request), never cached: a revoked (deleted) token is unknown
 * to the next request of any process (docs/performance.md "Hardening II, item 15").
 */
async function findStoredToken(db: Pick<Db, "$queryRawUnsafe">, token: string) {
  const parsed = parseToken(token);
  if (!parsed || tokenKind(token) === "no") return "malformed" as const;
  const p = getConfig().provider === "postgresql" ? "$1" : "?";
  const [row] = await readRows<RawTokenRow>(
    db,
    `SELECT t."id", t."userId", t."tokenHash", t."scopes", t."expiresAt", t."createdAt", t."lastUsedAt",
      u."username", u."name", u."email", u."isAdmin", u."isBot"
      FROM "AccessToken" t LEFT JOIN "User" u ON u."id" = t."userId" WHERE t."prefix" = ${p}`,
    [parsed.prefix],
  );
  if (!row || !verifyTokenHash(token, row.tokenHash)) return null;
  const user =
    row.username !== null && !boolOf(row.isBot)
      ? { id: row.userId, username: row.username, name: row.name, email: row.email, isAdmin: boolOf(row.isAdmin) }
      : null;
  return {
    id: row.id,
    userId: row.userId,
    scopes: row.scopes,
    expiresAt: dateOf(row.expiresAt),
    createdAt: dateOf(row.createdAt)!,
    lastUsedAt: dateOf(row.lastUsedAt),
    user,
  };
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
