/**
 * Step one of adding a passkey (docs/security.md "Passkeys"): the options for the browser's
 * navigator.credentials.create, with a fresh stored challenge.
 */
import { generateRegistrationOptions, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { CEREMONY_TIMEOUT_MS, challengeBytes, issueChallenge, relyingParty, transportsOf } from "./ceremony";

/** Most passkeys one user may register. */
export const MAX_PASSKEYS_PER_USER = 50;

/**
 * Registration options for `userId`: a challenge stored with purpose "passkey-register" (single
 * use, 5 minutes), the user's existing credentials excluded (an authenticator cannot be added
 * twice), residentKey "preferred" (a discoverable credential, usable for passwordless sign-in,
 * where the authenticator can store one) and userVerification "preferred". No attestation.
 * Errors: NOT_FOUND for an unknown user; BAD_REQUEST at MAX_PASSKEYS_PER_USER passkeys.
 */
export async function passkeyRegistrationOptions(db: Db, userId: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, username: true, name: true, passkeys: { select: { credentialId: true, transports: true } } },
  });
  if (!user) throw new AppError("NOT_FOUND", "user not found");
  if (user.passkeys.length >= MAX_PASSKEYS_PER_USER)
    throw new AppError("BAD_REQUEST", `you already have ${MAX_PASSKEYS_PER_USER} passkeys, the most an account may have; remove one first`);
  const { rpID, rpName } = relyingParty();
  const challenge = await issueChallenge(db, "passkey-register", userId);
  return generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.username,
    userDisplayName: user.name ?? user.username,
    userID: new TextEncoder().encode(user.id),
    challenge: challengeBytes(challenge),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: user.passkeys.map((p) => ({ id: p.credentialId, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
}
