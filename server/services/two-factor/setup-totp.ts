/** users.twoFactor.setup: a new, unconfirmed TOTP secret (docs/security.md "Two-factor authentication"). */
import QRCode from "qrcode";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { sealTotpSecret } from "./secret";
import { newTotpSecret, totpUri } from "./totp";

export interface TotpSetup {
  /** Base32 secret, for typing into an app by hand. */
  secret: string;
  /** otpauth://totp/svc:<username>?secret=…&issuer=svc */
  uri: string;
  /** The URI as a QR code, an SVG document. */
  qrSvg: string;
}

/**
 * Makes a new TOTP secret for the user and stores it sealed (secret.ts), unconfirmed: TOTP is
 * enabled only by users.twoFactor.confirm with a code from it. Calling again replaces an
 * unconfirmed secret. Errors: CONFLICT when TOTP is already enabled (disable it first);
 * NOT_FOUND for an unknown user.
 */
export async function setupTotp(db: Db, userId: string): Promise<TotpSetup> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { username: true, totpEnabledAt: true } });
  if (!user) throw new AppError("NOT_FOUND", "user not found");
  if (user.totpEnabledAt) throw new AppError("CONFLICT", "two-factor authentication with an app is already enabled; disable it first");
  const secret = newTotpSecret();
  const { count } = await db.user.updateMany({
    where: { id: userId, totpEnabledAt: null },
    data: { totpSecret: sealTotpSecret(userId, secret), totpLastStep: null },
  });
  if (count !== 1) throw new AppError("CONFLICT", "two-factor authentication with an app is already enabled; disable it first");
  const uri = totpUri(user.username, secret);
  const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, uri, qrSvg };
}
