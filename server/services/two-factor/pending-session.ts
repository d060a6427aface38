/**
 * The second step of signing in (docs/security.md "Two-factor"). A user with two-factor
 * authentication who passes the first step (password, GitHub or OpenID Connect) gets a session
 * row marked `secondFactorPending` (users/sessions.ts startSession): its JWT cookie is set, but
 * sessionUser ignores the row, so the browser is signed out everywhere (pages, tRPC, REST, SSE)
 * until a TOTP code, a recovery code or a passkey completes it. A pending session left for
 * PENDING_SECOND_FACTOR_MS is dead: it can no longer be completed.
 */
import type { Db } from "@/server/db";
import { inTransaction } from "@/server/db/transaction";

/** How long a sign-in may wait for its second factor: 10 minutes, in ms. */
export const PENDING_SECOND_FACTOR_MS = 10 * 60_000;

/** A session waiting for its second factor, with what the second step page needs. */
export interface PendingSession {
  sessionId: string;
  userId: string;
  username: string;
  /** Which second factors the user has: TOTP (recovery codes then work too) and passkeys. */
  totp: boolean;
  passkeys: boolean;
}

/**
 * The pending session `sessionId` of `userId` (the JWT's `sid` and `sub`), or null when it does
 * not exist, belongs to someone else, is already complete or is older than
 * PENDING_SECOND_FACTOR_MS.
 */
export async function pendingSession(db: Db, sessionId: string, userId: string): Promise<PendingSession | null> {
  const row = await db.userSession.findFirst({
    where: { id: sessionId, userId, secondFactorPending: true, createdAt: { gt: new Date(Date.now() - PENDING_SECOND_FACTOR_MS) } },
    select: { user: { select: { username: true, totpEnabledAt: true, _count: { select: { passkeys: true } } } } },
  });
  if (!row) return null;
  return {
    sessionId,
    userId,
    username: row.user.username,
    totp: row.user.totpEnabledAt !== null,
    passkeys: row.user._count.passkeys > 0,
  };
}

/**
 * Completes a pending session after its second factor was verified: from then on the session
 * signs the user in. A compare-and-set on the pending flag and the age, so two concurrent
 * completions (or one after expiry) cannot both count. Returns false when the session was not
 * pending (already complete, expired, revoked or unknown).
 */
export async function completeSecondFactor(db: Db, sessionId: string, userId: string): Promise<boolean> {
  // a write outside inTransaction could join another request's open SQLite transaction (server/db/transaction.ts)
  const { count } = await inTransaction(db, (tx) =>
    tx.userSession.updateMany({
      where: { id: sessionId, userId, secondFactorPending: true, createdAt: { gt: new Date(Date.now() - PENDING_SECOND_FACTOR_MS) } },
      data: { secondFactorPending: false },
    }),
  );
  return count === 1;
}
