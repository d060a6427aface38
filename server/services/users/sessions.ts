/**
 * Browser sessions (docs/security.md "Sessions and service tokens"). A sign-in creates a
 * UserSession row; the session JWT (next-auth cookie, or the same JWT sent as `Authorization:
 * Bearer` — the "service token") carries its id as `sid`, and resolveActor accepts the JWT only
 * while the row exists. Signing out deletes the row, "sign out everywhere" deletes all of the
 * user's rows: the JWT then stops working for the browser and the API alike, before its 30-day
 * expiry. Personal access tokens are separate and unaffected.
 */
import type { Db } from "@/server/db";
import { readRows } from "@/server/db/read";
import { boolOf } from "@/server/db/raw";
import { getConfig } from "@/server/config";
import { AppError } from "@/server/errors";
import { inTransaction } from "@/server/db/transaction";

/** A session as listed: `current` marks the one the request came with. Dates ISO. */
export interface SessionView {
  id: string;
  createdAt: string;
  userAgent: string | null;
  current: boolean;
}

/** The identity columns resolveActor needs, loaded with the session in one query. */
export interface SessionUser {
  id: string;
  username: string;
  name: string | null;
  email: string | null;
  isAdmin: boolean;
}

/**
 * Starts a session for `userId` (at sign-in); returns its id, the JWT's `sid`. `userAgent` is
 * trimmed to 200 characters. Every interactive sign-in (password, GitHub, OpenID Connect) of a
 * user with two-factor authentication (User.twoFactorEnabled) starts the session pending its
 * second factor: it signs nobody in until services/two-factor/pending-session.ts
 * completeSecondFactor clears the flag (docs/security.md "Two-factor"). `opts.secondFactorDone`
 * starts it complete: a passwordless passkey sign-in, which is both factors at once.
 */
export async function startSession(
  db: Db,
  userId: string,
  userAgent?: string | null,
  opts: { secondFactorDone?: boolean } = {},
): Promise<string> {
  // control characters (U+0000–U+001F, U+007F) are dropped: the string is shown in the session list
  const ua =
    [...(userAgent ?? "")]
      .filter((ch) => ch >= " " && ch !== "\x7f")
      .join("")
      .slice(0, 200) || null;
  // read and insert in one transaction (a write outside inTransaction could join another
  // request's open SQLite transaction: server/db/transaction.ts)
  const row = await inTransaction(db, async (tx) => {
    const user = opts.secondFactorDone ? null : await tx.user.findUnique({ where: { id: userId }, select: { twoFactorEnabled: true } });
    return tx.userSession.create({
      data: { userId, userAgent: ua, secondFactorPending: Boolean(user?.twoFactorEnabled) },
      select: { id: true },
    });
  });
  return row.id;
}

/**
 * The user of a live session, or null when the session was revoked (or never existed), waits for
 * its second factor, or belongs to another user than the JWT's `sub`. ONE statement on the read path (server/db/read.ts:
 * it runs on every cookie or service-token request), never cached, so a revoked session stops
 * working on the next request of any process.
 */
export async function sessionUser(db: Db, sessionId: string, userId: string): Promise<SessionUser | null> {
  const p = getConfig().provider === "postgresql" ? "$1" : "?";
  const [row] = await readRows<{ userId: string; username: string; name: string | null; email: string | null; isAdmin: unknown }>(
    db,
    `SELECT s."userId", u."username", u."name", u."email", u."isAdmin"
      FROM "UserSession" s JOIN "User" u ON u."id" = s."userId" WHERE s."id" = ${p} AND NOT s."secondFactorPending"`,
    [sessionId],
  );
  return row && row.userId === userId
    ? { id: row.userId, username: row.username, name: row.name, email: row.email, isAdmin: boolOf(row.isAdmin) }
    : null;
}

/** Ends one session (sign out). Unknown ids are ignored: signing out twice is fine. */
export async function endSession(db: Db, sessionId: string): Promise<void> {
  await db.userSession.deleteMany({ where: { id: sessionId } });
}

/** The user's sessions, newest first. */
export async function listSessions(db: Db, userId: string, currentSessionId?: string): Promise<SessionView[]> {
  const rows = await db.userSession.findMany({
    where: { userId, secondFactorPending: false },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    select: { id: true, createdAt: true, userAgent: true },
  });
  return rows.map((r) => ({ id: r.id, createdAt: r.createdAt.toISOString(), userAgent: r.userAgent, current: r.id === currentSessionId }));
}

/** Revokes one of the user's sessions. Errors: NOT_FOUND when it is not theirs or does not exist. */
export async function revokeSession(db: Db, userId: string, sessionId: string): Promise<{ id: string; revoked: true }> {
  const { count } = await db.userSession.deleteMany({ where: { id: sessionId, userId } });
  if (count === 0) throw new AppError("NOT_FOUND", "session not found");
  return { id: sessionId, revoked: true };
}

/**
 * Sign out everywhere: revokes every session of the user, the caller's own included. Returns how
 * many. `db` may be a transaction's client (an administrator's password or two-factor reset ends
 * the sessions in the transaction that changes the account).
 */
export async function revokeAllSessions(db: Pick<Db, "userSession">, userId: string): Promise<{ revoked: number }> {
  const { count } = await db.userSession.deleteMany({ where: { userId } });
  return { revoked: count };
}
