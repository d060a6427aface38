/**
 * Personal access tokens a user manages: create, list, find, revoke. The one implementation used
 * by the token REST endpoints, the settings page and the `svc token` CLI (spec "Personal access
 * token", "Token endpoints", "Token CLI"). Checking a presented token is ./verify-token.ts.
 */
import { z } from "zod";
import { line, stringProblem } from "@/server/validation/strings";
import type { Db } from "@/server/db";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import { AppError } from "@/server/errors";
import { consume } from "@/server/rate-limit";
import { DEFAULT_SCOPES, parseScopes, type Scope } from "@/server/auth/scopes";
import { generateToken, hashToken } from "./token-format";

const DAY_MS = 86_400_000;

/** Longest expiry a token may be given, in days (ten years). */
export const MAX_EXPIRY_DAYS = 3650;

/** A token as listed: never the secret nor its hash. Dates are ISO strings; null = never. */
export interface TokenRecord {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  expired: boolean;
}

export const createTokenInput = z.object({
  name: line("name").trim().min(1, "name is required").max(100, "name is at most 100 characters"),
  scopes: z.union([z.array(line("scope")), line("scopes")]).optional(),
  /** Whole days until expiry, 1 to 3650; absent or null = never expires. */
  expiresInDays: z
    .number()
    .int("expiresInDays must be a whole number of days")
    .min(1, "expiresInDays must be at least 1")
    .max(MAX_EXPIRY_DAYS, `expiresInDays must be at most ${MAX_EXPIRY_DAYS}`)
    .nullish(),
});
export type CreateTokenInput = z.input<typeof createTokenInput>;

type Row = { id: string; name: string; prefix: string; scopes: string; expiresAt: Date | null; lastUsedAt: Date | null; createdAt: Date };

function toRecord(row: Row, now = Date.now()): TokenRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes.split(",") as Scope[],
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    expired: row.expiresAt !== null && row.expiresAt.getTime() <= now,
  };
}

/**
 * Creates a token for `userId`. Scopes default to repo:read,repo:write; expiry in whole days
 * (default never). Returns the record plus `token`, the secret, which is never retrievable again.
 * Errors: BAD_REQUEST for a missing name, unknown scopes or a bad expiry; TOO_MANY_REQUESTS
 * (retryAfter seconds) past 30 tokens per user per hour (LIMITS.tokenCreations).
 */
export async function createToken(db: Db, userId: string, input: CreateTokenInput): Promise<TokenRecord & { token: string }> {
  const parsed = createTokenInput.safeParse(input);
  if (!parsed.success)
    throw new AppError("BAD_REQUEST", parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "));
  await consume("tokenCreations", userId);
  const scopes = parsed.data.scopes === undefined ? DEFAULT_SCOPES : parseScopes(parsed.data.scopes);
  const expiresAt = parsed.data.expiresInDays ? new Date(Date.now() + parsed.data.expiresInDays * DAY_MS) : null;
  for (let attempt = 0; ; attempt++) {
    const { token, prefix } = generateToken();
    try {
      const row = await db.accessToken.create({
        data: { userId, name: parsed.data.name, prefix, tokenHash: hashToken(token), scopes: scopes.join(","), expiresAt },
      });
      return { ...toRecord(row), token };
    } catch (e) {
      // a prefix collision (62^8 space) is retried; anything else is real
      if (attempt < 3 && isUniqueViolation(e)) continue;
      throw e;
    }
  }
}

/** The user's tokens, newest first, with the expired marker. */
export async function listTokens(db: Db, userId: string): Promise<TokenRecord[]> {
  const rows = await db.accessToken.findMany({
    where: { userId },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, prefix: true, scopes: true, expiresAt: true, lastUsedAt: true, createdAt: true },
  });
  const now = Date.now();
  return rows.map((r) => toRecord(r, now));
}

/**
 * Finds one of the user's tokens by full id, unique id prefix, or token prefix (with or without
 * the `svc_` lead). Errors: NOT_FOUND when nothing matches; BAD_REQUEST listing the candidates
 * when a prefix matches more than one token, or for a ref that is not a single line of
 * well-formed text (NUL, control characters, lone surrogates) or is over 200 characters.
 */
export async function findToken(db: Db, userId: string, ref: string): Promise<TokenRecord> {
  const problem = stringProblem(ref, "line");
  if (problem || ref.length > 200)
    throw new AppError("BAD_REQUEST", problem ? `token id ${problem}` : "token id is at most 200 characters");
  const needle = ref.trim().replace(/^svc_/, "").replace(/_$/, "");
  if (!needle) throw new AppError("BAD_REQUEST", "a token id, id prefix or token prefix is required");
  const rows = await db.accessToken.findMany({
    where: { userId, OR: [{ id: { startsWith: needle } }, { prefix: needle.slice(0, 8) }] },
    select: { id: true, name: true, prefix: true, scopes: true, expiresAt: true, lastUsedAt: true, createdAt: true },
  });
  const exact = rows.filter((r) => r.id === needle || r.prefix === needle);
  const matches = exact.length ? exact : rows.filter((r) => r.id.startsWith(needle));
  if (matches.length === 0) throw new AppError("NOT_FOUND", `no token matches "${ref}"`);
  if (matches.length > 1) {
    throw new AppError(
      "BAD_REQUEST",
      `"${ref}" matches ${matches.length} tokens; use more characters: ${matches.map((m) => `${m.id} (${m.name}, svc_${m.prefix})`).join(", ")}`,
    );
  }
  return toRecord(matches[0]);
}

/** Revokes (deletes) the user's token named by id, id prefix or token prefix; returns what was revoked. Errors as `findToken`. */
export async function revokeToken(db: Db, userId: string, ref: string): Promise<TokenRecord> {
  const token = await findToken(db, userId, ref);
  await db.accessToken.deleteMany({ where: { id: token.id, userId } });
  return token;
}
