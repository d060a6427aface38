/**
 * Step two of adding a passkey (docs/security.md "Passkeys"): verify the browser's attestation
 * against the stored challenge and keep the credential.
 */
import { verifyRegistrationResponse } from "@simplewebauthn/server";
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { conflictOnDuplicate } from "@/server/db/prisma-errors";
import { inTransaction } from "@/server/db/transaction";
import { line } from "@/server/validation/strings";
import { refreshTwoFactorFlag } from "@/server/services/two-factor/two-factor-flag";
import { answeredChallenge, consumeChallenge, registrationResponseSchema, relyingParty } from "./ceremony";
import { MAX_PASSKEYS_PER_USER } from "./registration-options";
import { PASSKEY_VIEW_SELECT, passkeyView, type PasskeyView } from "./list-passkeys";

/** A passkey's name: 1–100 characters, one line. */
export const passkeyName = line("name").trim().min(1, "name the passkey").max(100, "name must be at most 100 characters");

export const registerPasskeyInput = z.object({ name: passkeyName, response: registrationResponseSchema });

/**
 * Verifies `input.response` (startRegistration's answer to passkeyRegistrationOptions) and stores
 * the credential as `input.name` for `userId`; User.twoFactorEnabled becomes true in the same
 * transaction (a passkey is a second factor). The challenge is consumed first, so a response
 * counts once. Errors: BAD_REQUEST when the challenge is unknown, used or expired, or the
 * response does not verify (wrong origin or RP ID, bad signature…), or at MAX_PASSKEYS_PER_USER;
 * CONFLICT when that credential is already registered (by anyone).
 */
export async function registerPasskey(db: Db, userId: string, input: z.infer<typeof registerPasskeyInput>): Promise<PasskeyView> {
  const expectedChallenge = await consumeChallenge(
    db,
    "passkey-register",
    userId,
    answeredChallenge(input.response.response.clientDataJSON),
  );
  const { origin, rpID } = relyingParty();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch (e) {
    throw new AppError(
      "BAD_REQUEST",
      `the passkey could not be verified: ${e instanceof Error ? e.message.slice(0, 200) : "invalid response"}`,
    );
  }
  if (!verification.verified) throw new AppError("BAD_REQUEST", "the passkey could not be verified");
  const info = verification.registrationInfo;
  return inTransaction(db, async (tx) => {
    if ((await tx.passkey.count({ where: { userId } })) >= MAX_PASSKEYS_PER_USER)
      throw new AppError(
        "BAD_REQUEST",
        `you already have ${MAX_PASSKEYS_PER_USER} passkeys, the most an account may have; remove one first`,
      );
    const row = await conflictOnDuplicate(
      tx.passkey.create({
        data: {
          userId,
          name: input.name,
          credentialId: info.credential.id,
          publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
          counter: info.credential.counter,
          transports: info.credential.transports?.join(",") || null,
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
        },
        select: PASSKEY_VIEW_SELECT,
      }),
      "this passkey is already registered",
    );
    await refreshTwoFactorFlag(tx, userId);
    return passkeyView(row);
  });
}
