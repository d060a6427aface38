/**
 * users router: sign up (public), public profiles (public), the caller's profile (scope user:read;
 * updateProfile user:write), password change (user:write, session or service token only, current
 * password required), browser sessions (user:read / user:write; sessions only) and notification
 * email settings (user:read / user:write; docs/notifications-email.md "Settings"). The extensions
 * beyond the spec: docs/api.md "Accounts".
 */
import { z } from "zod";
import { uuid } from "@/server/validation/ids";
import { router, publicProcedure, authedProcedure } from "../trpc";
import { requireSession } from "@/server/auth/actor";
import { listSessions, revokeAllSessions, revokeSession } from "@/server/services/users/sessions";
import { getProfile } from "@/server/services/users/profile";
import { signUp, signUpInput } from "@/server/services/users/sign-up";
import {
  changePassword,
  changePasswordInput,
  profileInput,
  publicProfile,
  updateProfile,
  updateProfileInput,
} from "@/server/services/users/account";
import { clientAddress } from "@/server/http/client-address";
import { twoFactorRouter } from "./two-factor";
import { getConfig } from "@/server/config";
import { AppError } from "@/server/errors";
import { listExternalIdentities, unlinkExternalIdentity, unlinkExternalIdentityInput } from "@/server/services/oidc/identities";
import {
  getNotificationSettings,
  updateNotificationSettings,
  updateNotificationSettingsInput,
} from "@/server/services/users/notification-settings";
import { passkeysRouter } from "./passkeys";

/** users.externalIdentities: the caller's linked OpenID Connect identities (sessions only; docs/security.md "Single sign-on (OpenID Connect)"). */
const externalIdentitiesRouter = router({
  /** → [{id, provider, issuer, subject, createdAt, lastUsedAt}], oldest first. */
  list: authedProcedure.query(({ ctx }) => {
    requireSession(ctx.actor, "manage linked identities");
    return listExternalIdentities(ctx.db, ctx.actor.user.id);
  }),
  /** {id} → {id, unlinked: true}. NOT_FOUND unless the caller's; PRECONDITION_FAILED when it is the last way to sign in. */
  unlink: authedProcedure.input(unlinkExternalIdentityInput).mutation(({ ctx, input }) => {
    requireSession(ctx.actor, "manage linked identities");
    return unlinkExternalIdentity(ctx.db, ctx.actor.user.id, input.id);
  }),
});

export const usersRouter = router({
  /**
   * {username, password, name?, email?} → {id, username, name, email}. BAD_REQUEST / CONFLICT /
   * TOO_MANY_REQUESTS (per address); FORBIDDEN under OIDC_ONLY=1 (accounts come from single sign-on).
   */
  signUp: publicProcedure.input(signUpInput).mutation(({ ctx, input }) => {
    if (getConfig().oidcOnly)
      throw new AppError("FORBIDDEN", "sign-up is turned off: accounts are created by signing in with single sign-on");
    return signUp(ctx.db, input, { address: clientAddress(ctx.headers) });
  }),
  externalIdentities: externalIdentitiesRouter,
  /** Extension: {username} → {id, username, name, createdAt} of any user (never the email). NOT_FOUND. */
  profile: publicProcedure.input(profileInput).query(({ ctx, input }) => publicProfile(ctx.db, input.username)),
  /** → {id, username, name, email} of the caller. */
  me: authedProcedure.query(({ ctx }) => getProfile(ctx.db, ctx.actor.user.id)),
  /** Extension: {name?, email?} ("" or null removes) → {id, username, name, email}. CONFLICT for an email in use. */
  updateProfile: authedProcedure.input(updateProfileInput).mutation(({ ctx, input }) => updateProfile(ctx.db, ctx.actor.user.id, input)),
  /**
   * Extension: {currentPassword, newPassword} → {changed: true, signedOut: n}; the
   * caller's other sessions end. Session or service token only. BAD_REQUEST for a wrong current
   * password (nothing changes) or a short new one; TOO_MANY_REQUESTS after 10 wrong ones in 15 min.
   */
  changePassword: authedProcedure.input(changePasswordInput).mutation(({ ctx, input }) => {
    requireSession(ctx.actor, "change the password");
    return changePassword(ctx.db, ctx.actor.user.id, input, ctx.actor.sessionId);
  }),
  /** → [{id, createdAt, userAgent, current}] the caller's browser sessions. Session or service token only. */
  sessions: authedProcedure.query(({ ctx }) => {
    requireSession(ctx.actor, "manage sessions");
    return listSessions(ctx.db, ctx.actor.user.id, ctx.actor.sessionId);
  }),
  /** {sessionId} → {id, revoked: true}; that browser is signed out and its JWT stops working. NOT_FOUND. */
  revokeSession: authedProcedure.input(z.object({ sessionId: uuid("sessionId") })).mutation(({ ctx, input }) => {
    requireSession(ctx.actor, "manage sessions");
    return revokeSession(ctx.db, ctx.actor.user.id, input.sessionId);
  }),
  /** → {revoked: n}: every session of the caller ends, this one included (personal access tokens are kept). */
  signOutEverywhere: authedProcedure.mutation(({ ctx }) => {
    requireSession(ctx.actor, "manage sessions");
    return revokeAllSessions(ctx.db, ctx.actor.user.id);
  }),
  /**
   * → {email, mutedReasons, dailyDigest, emailConfigured, address, reasons[{id, label, description}]}:
   * the caller's notification email settings (docs/notifications-email.md "Settings").
   */
  notificationSettings: authedProcedure.query(({ ctx }) => getNotificationSettings(ctx.db, ctx.actor.user.id)),
  /** {email?, mutedReasons?, dailyDigest?} → the settings as notificationSettings. BAD_REQUEST for an unknown reason. */
  updateNotificationSettings: authedProcedure
    .input(updateNotificationSettingsInput)
    .mutation(({ ctx, input }) => updateNotificationSettings(ctx.db, ctx.actor.user.id, input)),
  /** Two-factor authentication (TOTP, recovery codes, the sign-in second step): ./two-factor.ts. */
  twoFactor: twoFactorRouter,
  /** Passkeys: users.passkeys.* (routers/passkeys.ts, docs/security.md "Passkeys"). */
  passkeys: passkeysRouter,
});
