/**
 * users.twoFactor: TOTP two-factor authentication and the sign-in second step (docs/security.md
 * "Two-factor authentication"). Managing it needs a session or service token (never a PAT:
 * requireSession); status user:read, changes user:write. verifySignIn is public: its caller is
 * not signed in yet — it completes the pending session named by the session cookie.
 */
import { z } from "zod";
import { router, publicProcedure, authedProcedure } from "../trpc";
import { requireSession, type Actor } from "@/server/auth/actor";
import { assertSameOrigin } from "@/server/auth/csrf";
import { sessionCookieIds } from "@/server/auth/pending";
import { AppError } from "@/server/errors";
import { clientAddress } from "@/server/http/client-address";
import { line } from "@/server/validation/strings";
import { setupTotp } from "@/server/services/two-factor/setup-totp";
import { confirmTotp } from "@/server/services/two-factor/confirm-totp";
import { disableTotp, disableTotpInput } from "@/server/services/two-factor/disable-totp";
import { regenerateRecoveryCodes } from "@/server/services/two-factor/regenerate-recovery-codes";
import { twoFactorStatus } from "@/server/services/two-factor/two-factor-status";
import { verifySecondFactor } from "@/server/services/two-factor/verify-second-factor";

const codeInput = z.object({ code: line("code").max(64) });

export const twoFactorRouter = router({
  /** → {totp, totpEnabledAt, recoveryCodesLeft, passkeys, enabled}. Session only. */
  status: authedProcedure.query(({ ctx }) => {
    requireSession(ctx.actor, "manage two-factor authentication");
    return twoFactorStatus(ctx.db, ctx.actor.user.id);
  }),
  /** → {secret, uri, qrSvg}: a new unconfirmed TOTP secret (replaces an unconfirmed one). CONFLICT when enabled. */
  setup: authedProcedure.mutation(({ ctx }) => {
    requireSession(ctx.actor, "manage two-factor authentication");
    return setupTotp(ctx.db, ctx.actor.user.id);
  }),
  /** {code} → {enabled: true, recoveryCodes[10]} (shown once). BAD_REQUEST for a wrong code; CONFLICT when enabled. */
  confirm: authedProcedure.input(codeInput).mutation(({ ctx, input }) => {
    requireSession(ctx.actor, "manage two-factor authentication");
    return confirmTotp(ctx.db, ctx.actor.user.id, input.code);
  }),
  /** {code} or {password} → {disabled: true, twoFactorEnabled}. BAD_REQUEST; TOO_MANY_REQUESTS. */
  disable: authedProcedure.input(disableTotpInput).mutation(({ ctx, input }) => {
    requireSession(ctx.actor, "manage two-factor authentication");
    return disableTotp(ctx.db, ctx.actor.user.id, input, clientAddress(ctx.headers));
  }),
  /** {code} (a current TOTP code) → {recoveryCodes[10]}; the old codes stop working. BAD_REQUEST; TOO_MANY_REQUESTS. */
  regenerateRecoveryCodes: authedProcedure.input(codeInput).mutation(({ ctx, input }) => {
    requireSession(ctx.actor, "manage two-factor authentication");
    return regenerateRecoveryCodes(ctx.db, ctx.actor.user.id, input.code, clientAddress(ctx.headers));
  }),
  /**
   * {code} (six digits, or a recovery code) → {signedIn: true, factor}: completes the sign-in
   * waiting in this browser's session cookie. Same-origin only (like cookie mutations).
   * UNAUTHORIZED when nothing is pending; BAD_REQUEST for a wrong code; TOO_MANY_REQUESTS.
   */
  verifySignIn: publicProcedure.input(codeInput).mutation(async ({ ctx, input }) => {
    assertSameOrigin({ fromCookie: true } as Actor, "POST", ctx.headers, ctx.publicUrl);
    const ids = await sessionCookieIds(ctx.headers);
    if (!ids) throw new AppError("UNAUTHORIZED", "no sign-in is waiting for a second factor; sign in again");
    return verifySecondFactor(ctx.db, ids, input.code, clientAddress(ctx.headers));
  }),
});
