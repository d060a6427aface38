/** The sign-in second step with a code (docs/security.md "Two-factor authentication"). */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { checkSecondFactorCode } from "./code-check";
import { completeSecondFactor, pendingSession } from "./pending-session";

/**
 * Completes the pending session `sessionId` of `userId` (from the session cookie's JWT: `sid`,
 * `sub`) with a TOTP code or a recovery code (used up). From then on the session signs the user
 * in. Errors: UNAUTHORIZED when no sign-in of this browser waits for a second factor (none, done,
 * expired after 10 minutes); BAD_REQUEST for a wrong code; TOO_MANY_REQUESTS over the sign-in
 * limits (code-check.ts).
 */
export async function verifySecondFactor(
  db: Db,
  pending: { sessionId: string; userId: string },
  code: string,
  address: string,
): Promise<{ signedIn: true; factor: "totp" | "recovery" }> {
  const session = await pendingSession(db, pending.sessionId, pending.userId);
  if (!session) throw new AppError("UNAUTHORIZED", "no sign-in is waiting for a second factor (it may have expired); sign in again");
  if (!session.totp) throw new AppError("BAD_REQUEST", "this account has no authenticator app; use a passkey");
  const factor = await checkSecondFactorCode(db, { id: session.userId, username: session.username }, code, address, {
    allowRecovery: true,
  });
  if (!(await completeSecondFactor(db, session.sessionId, session.userId)))
    throw new AppError("UNAUTHORIZED", "the sign-in expired before the code arrived; sign in again");
  return { signedIn: true, factor };
}
