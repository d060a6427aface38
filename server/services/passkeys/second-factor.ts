/**
 * A passkey as the second step of a sign-in (docs/security.md "Two-factor", "Passkeys"): the
 * pending session (server/auth/pending.ts) gets options for its user's passkeys, and a
 * verified assertion completes it (services/two-factor/pending-session.ts completeSecondFactor).
 */
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { completeSecondFactor, type PendingSession } from "@/server/services/two-factor/pending-session";
import { authenticatePasskey, passkeySecondFactorOptions } from "./authenticate-passkey";
import type { AuthenticationResponse } from "./ceremony";

function requirePending(pending: PendingSession | null): PendingSession {
  if (!pending)
    throw new AppError("UNAUTHORIZED", "no sign-in is waiting for a second factor (it expired after 10 minutes?); sign in again");
  return pending;
}

/** Options for the pending sign-in's passkeys. UNAUTHORIZED without a pending sign-in; BAD_REQUEST without passkeys. */
export async function secondFactorPasskeyOptions(db: Db, pending: PendingSession | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return passkeySecondFactorOptions(db, requirePending(pending).userId);
}

/**
 * Verifies `response` against the pending sign-in's user and completes the session: from then on
 * its cookie signs the user in. `address` is the client address (the limit per address). Errors:
 * UNAUTHORIZED without a pending sign-in (or when it ended meanwhile); as authenticatePasskey.
 */
export async function completeSignInWithPasskey(
  db: Db,
  pending: PendingSession | null,
  response: AuthenticationResponse,
  address: string,
): Promise<{ signedIn: true }> {
  const { sessionId, userId } = requirePending(pending);
  await authenticatePasskey(db, response, { purpose: "passkey-second-factor", userId, address });
  if (!(await completeSecondFactor(db, sessionId, userId)))
    throw new AppError("UNAUTHORIZED", "this sign-in expired or was signed out meanwhile; sign in again");
  return { signedIn: true };
}
