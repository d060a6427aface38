/**
 * Passwordless sign-in with a passkey (docs/security.md "Passkeys"): what next-auth's "passkey"
 * credentials provider (server/auth/next-auth.ts) calls with the form's `response` field.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { authenticatePasskey } from "./authenticate-passkey";
import { authenticationResponseSchema } from "./ceremony";

/** Longest `response` field accepted (characters of JSON). */
const MAX_RESPONSE_CHARS = 64 * 1024;

/**
 * The user a passwordless assertion signs in — `responseJson` is the JSON text of
 * startAuthentication's answer to users.passkeys.signInOptions — or null when it is missing or
 * not such JSON. Errors: as authenticatePasskey (BAD_REQUEST, TOO_MANY_REQUESTS per address).
 */
export async function signInWithPasskey(
  db: Db,
  responseJson: string | undefined,
  address: string,
): Promise<{ id: string; name: string; email: string | null } | null> {
  if (!responseJson || responseJson.length > MAX_RESPONSE_CHARS) return null;
  let parsed;
  try {
    parsed = authenticationResponseSchema.safeParse(JSON.parse(responseJson));
  } catch {
    return null;
  }
  if (!parsed.success) return null;
  const { userId } = await authenticatePasskey(db, parsed.data, { purpose: "passkey-sign-in", userId: null, address });
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, username: true, name: true, email: true } });
  if (!user) throw new AppError("BAD_REQUEST", "that passkey's account no longer exists");
  return { id: user.id, name: user.name ?? user.username, email: user.email };
}
