/**
 * Signing in with a passkey (docs/security.md "Passkeys"): the options for the browser's
 * navigator.credentials.get and the verification of its assertion, for both uses —
 *
 *   passkey-sign-in        passwordless: discoverable credentials (allowCredentials empty, the
 *                          authenticator offers its passkeys for this RP), user verification
 *                          REQUIRED, so the passkey is both factors; the user is known from the
 *                          credential;
 *   passkey-second-factor  after a password (or GitHub / OpenID Connect) sign-in of a user with
 *                          two-factor authentication: only that user's passkeys are allowed, user
 *                          verification preferred (presence is enough: the password was the first
 *                          factor).
 *
 * Failed assertions count against the sign-in limit per address (server/rate-limit.ts
 * signInAddressFailures, 50 per 15 minutes, shared with password sign-ins): the point is taken
 * before verifying and given back by a success. The account levels do not apply — a passkey
 * cannot be guessed, and a passwordless attempt names no account before it verifies.
 */
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { inTransaction } from "@/server/db/transaction";
import { addressKey, consume, reward } from "@/server/rate-limit";
import {
  CEREMONY_TIMEOUT_MS,
  answeredChallenge,
  challengeBytes,
  consumeChallenge,
  issueChallenge,
  relyingParty,
  transportsOf,
  type AuthenticationResponse,
} from "./ceremony";

export type AssertionPurpose = "passkey-sign-in" | "passkey-second-factor";

/** Options for a passwordless sign-in: a challenge without a user, discoverable credentials, user verification required. */
export async function passkeySignInOptions(db: Db): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const challenge = await issueChallenge(db, "passkey-sign-in", null);
  return generateAuthenticationOptions({
    rpID: relyingParty().rpID,
    challenge: challengeBytes(challenge),
    allowCredentials: [],
    userVerification: "required",
    timeout: CEREMONY_TIMEOUT_MS,
  });
}

/**
 * Options for the second step of `userId`'s sign-in: a challenge for that user, their passkeys
 * allowed. BAD_REQUEST when the user has no passkey.
 */
export async function passkeySecondFactorOptions(db: Db, userId: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const passkeys = await db.passkey.findMany({ where: { userId }, select: { credentialId: true, transports: true } });
  if (!passkeys.length) throw new AppError("BAD_REQUEST", "you have no passkey; use another second factor");
  const challenge = await issueChallenge(db, "passkey-second-factor", userId);
  return generateAuthenticationOptions({
    rpID: relyingParty().rpID,
    challenge: challengeBytes(challenge),
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: transportsOf(p.transports) })),
    userVerification: "preferred",
    timeout: CEREMONY_TIMEOUT_MS,
  });
}

/**
 * Verifies an assertion for `purpose`: consumes its challenge (issued for `userId`; null for a
 * passwordless sign-in), finds the credential (for the second factor it must be `userId`'s),
 * checks signature, origin, RP ID, user verification (required for passkey-sign-in) and the
 * signature counter (it must grow when the authenticator counts; synced passkeys report 0), then
 * stores the new counter and lastUsedAt. `address` is the client address (clientAddress) for
 * the limit. Returns the user id and passkey id.
 * Errors: TOO_MANY_REQUESTS (retryAfter) over the address limit; BAD_REQUEST for an unknown,
 * used or expired challenge, a credential that is not registered (or not `userId`'s), or a
 * response that does not verify.
 */
export async function authenticatePasskey(
  db: Db,
  response: AuthenticationResponse,
  opts: { purpose: AssertionPurpose; userId: string | null; address: string },
): Promise<{ userId: string; passkeyId: string }> {
  const ip = addressKey(opts.address);
  await consume("signInAddressFailures", ip);
  const result = await verifyAssertion(db, response, opts);
  await reward("signInAddressFailures", ip);
  return result;
}

async function verifyAssertion(
  db: Db,
  response: AuthenticationResponse,
  { purpose, userId }: { purpose: AssertionPurpose; userId: string | null },
): Promise<{ userId: string; passkeyId: string }> {
  const expectedChallenge = await consumeChallenge(db, purpose, userId, answeredChallenge(response.response.clientDataJSON));
  const passkey = await db.passkey.findUnique({
    where: { credentialId: response.id },
    select: { id: true, userId: true, publicKey: true, counter: true, transports: true },
  });
  if (!passkey || (userId !== null && passkey.userId !== userId))
    throw new AppError("BAD_REQUEST", userId ? "that passkey is not one of yours" : "that passkey is not registered here");
  // a discoverable credential names its user (the userID of the registration options): it must agree
  const handle = response.response.userHandle;
  if (handle && Buffer.from(handle, "base64url").toString("utf8") !== passkey.userId)
    throw new AppError("BAD_REQUEST", "that passkey belongs to another account");
  const { origin, rpID } = relyingParty();
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: response.id,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
        counter: passkey.counter,
        transports: transportsOf(passkey.transports),
      },
      requireUserVerification: purpose === "passkey-sign-in",
    });
  } catch (e) {
    throw new AppError(
      "BAD_REQUEST",
      `the passkey could not be verified: ${e instanceof Error ? e.message.slice(0, 200) : "invalid response"}`,
    );
  }
  if (!verification.verified) throw new AppError("BAD_REQUEST", "the passkey could not be verified");
  const { newCounter, credentialBackedUp } = verification.authenticationInfo;
  // compare-and-set on the counter: of two assertions racing with the same counter, one counts
  const { count } = await inTransaction(db, (tx) =>
    tx.passkey.updateMany({
      where: { id: passkey.id, counter: passkey.counter },
      data: { counter: newCounter, backedUp: credentialBackedUp, lastUsedAt: new Date() },
    }),
  );
  if (count !== 1 && passkey.counter > 0) throw new AppError("BAD_REQUEST", "that passkey was used concurrently; try again");
  return { userId: passkey.userId, passkeyId: passkey.id };
}
