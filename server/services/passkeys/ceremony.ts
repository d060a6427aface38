/**
 * What every passkey (WebAuthn) ceremony shares (docs/security.md "Passkeys"): the relying party
 * (svc's public URL), the challenges stored in AuthChallenge, and the zod schemas of the browser's
 * responses.
 *
 * Challenges live in the database, not in memory or a cookie, so any svc process can finish a
 * ceremony another began. Each is single use: it is deleted by a compare-and-delete before the
 * response is verified (two concurrent uses of one challenge cannot both count), and expires after
 * CHALLENGE_TTL_MS. The browser's response names its challenge (clientDataJSON.challenge), so the
 * client never sends a challenge id.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { inTransaction } from "@/server/db/transaction";
import { AppError } from "@/server/errors";
import { line } from "@/server/validation/strings";

/** How long a challenge may be answered: 5 minutes, in ms (the browser's own timeout is 60 s). */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/** The browser's timeout for a ceremony, in ms (handed to the options). */
export const CEREMONY_TIMEOUT_MS = 60_000;

export type ChallengePurpose = "passkey-register" | "passkey-sign-in" | "passkey-second-factor";

/** The relying party: `rpID` the public URL's host name, `origin` its origin (scheme, host, port). */
export interface RelyingParty {
  rpID: string;
  rpName: string;
  origin: string;
}

/**
 * The relying party from getConfig().publicUrl (NEXTAUTH_URL, default http://localhost:<PORT>).
 * Passkeys are bound to the host name: changing it makes every registered passkey unusable.
 */
export function relyingParty(): RelyingParty {
  const url = new URL(getConfig().publicUrl);
  return { rpID: url.hostname, rpName: "svc", origin: url.origin };
}

/**
 * Stores a new random challenge (32 bytes, base64url) for `purpose` and `userId` (null: a
 * passwordless sign-in, whose user is known only from the answer) and returns it. Expired
 * challenges (anyone's) are deleted on the way, so the table holds only live ones.
 */
export async function issueChallenge(db: Db, purpose: ChallengePurpose, userId: string | null): Promise<string> {
  const challenge = randomBytes(32).toString("base64url");
  const now = Date.now();
  await inTransaction(db, async (tx) => {
    await tx.authChallenge.deleteMany({ where: { expiresAt: { lte: new Date(now) } } });
    await tx.authChallenge.create({ data: { purpose, userId, challenge, expiresAt: new Date(now + CHALLENGE_TTL_MS) } });
  });
  return challenge;
}

/**
 * The bytes of a stored challenge, for the options: the options carry them base64url-encoded,
 * which is the stored text again, and so is the clientDataJSON.challenge the browser answers with.
 */
export function challengeBytes(challenge: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(challenge, "base64url"));
}

/**
 * The challenge a browser response answers (clientDataJSON.challenge, base64url), or null when
 * clientDataJSON is not a JSON object with a string challenge.
 */
export function answeredChallenge(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown };
    return typeof data?.challenge === "string" && data.challenge.length <= 200 ? data.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Consumes the live challenge `challenge` of `purpose` and `userId` (null: one issued without a
 * user): deletes it and returns it. Throws AppError BAD_REQUEST when there is none — unknown,
 * already used, expired, or issued for another purpose or user.
 */
export async function consumeChallenge(
  db: Db,
  purpose: ChallengePurpose,
  userId: string | null,
  challenge: string | null,
): Promise<string> {
  if (challenge) {
    const { count } = await inTransaction(db, (tx) =>
      tx.authChallenge.deleteMany({ where: { challenge, purpose, userId, expiresAt: { gt: new Date() } } }),
    );
    if (count === 1) return challenge;
  }
  throw new AppError("BAD_REQUEST", "this passkey request expired or was already used; start again");
}

const b64url = (field: string) =>
  line(field)
    .max(16_384)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, `${field} must be base64url`);

/** The extension outputs svc reads none of; known ones kept, others dropped. */
const clientExtensionResults = z
  .object({
    appid: z.boolean().optional(),
    credProps: z.object({ rk: z.boolean().optional() }).optional(),
    hmacCreateSecret: z.boolean().optional(),
  })
  .default({});

const KNOWN_TRANSPORTS = ["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"] as const;
type Transport = (typeof KNOWN_TRANSPORTS)[number];
const isTransport = (t: string): t is Transport => (KNOWN_TRANSPORTS as readonly string[]).includes(t);

/** A RegistrationResponseJSON from @simplewebauthn/browser startRegistration (sizes bounded). */
export const registrationResponseSchema = z.object({
  id: b64url("id").max(1_400),
  rawId: b64url("rawId").max(1_400),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults,
  response: z.object({
    clientDataJSON: b64url("clientDataJSON"),
    attestationObject: b64url("attestationObject"),
    authenticatorData: b64url("authenticatorData").optional(),
    // transports svc does not know (a newer browser's) are dropped, not refused
    transports: z
      .array(line("transport").max(20))
      .max(10)
      .optional()
      .transform((ts) => ts?.filter(isTransport)),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url("publicKey").optional(),
  }),
});

/** An AuthenticationResponseJSON from @simplewebauthn/browser startAuthentication (sizes bounded). */
export const authenticationResponseSchema = z.object({
  id: b64url("id").max(1_400),
  rawId: b64url("rawId").max(1_400),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults,
  response: z.object({
    clientDataJSON: b64url("clientDataJSON"),
    authenticatorData: b64url("authenticatorData"),
    signature: b64url("signature"),
    userHandle: b64url("userHandle").max(200).optional(),
  }),
});

export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;
export type AuthenticationResponse = z.infer<typeof authenticationResponseSchema>;

/** The Passkey.transports column as AuthenticatorTransport values (unknown ones dropped). */
export function transportsOf(column: string | null): Transport[] {
  return (column ?? "").split(",").filter(isTransport);
}
