/**
 * users.passkeys router (docs/security.md "Passkeys"): the caller's passkeys (browser session or
 * service token only — personal access tokens are refused), and the public steps of signing in
 * with one: options for a passwordless sign-in (the assertion then goes to next-auth's "passkey"
 * provider, server/auth/next-auth.ts) and the second step of a pending sign-in (read from the
 * session cookie). Services: server/services/passkeys/.
 */
import { z } from "zod";
import { router, publicProcedure, authedProcedure } from "../trpc";
import { requireSession } from "@/server/auth/actor";
import { pendingSignIn } from "@/server/auth/pending";
import { clientAddress } from "@/server/http/client-address";
import { listPasskeys } from "@/server/services/passkeys/list-passkeys";
import { passkeyRegistrationOptions } from "@/server/services/passkeys/registration-options";
import { registerPasskey, registerPasskeyInput } from "@/server/services/passkeys/register-passkey";
import { renamePasskey, renamePasskeyInput } from "@/server/services/passkeys/rename-passkey";
import { deletePasskey, deletePasskeyInput } from "@/server/services/passkeys/delete-passkey";
import { passkeySignInOptions } from "@/server/services/passkeys/authenticate-passkey";
import { completeSignInWithPasskey, secondFactorPasskeyOptions } from "@/server/services/passkeys/second-factor";
import { authenticationResponseSchema } from "@/server/services/passkeys/ceremony";

const WHAT = "manage passkeys";

export const passkeysRouter = router({
  /** → [{id, name, createdAt, lastUsedAt, deviceType, backedUp}] of the caller, oldest first. */
  list: authedProcedure.query(({ ctx }) => {
    requireSession(ctx.actor, WHAT);
    return listPasskeys(ctx.db, ctx.actor.user.id);
  }),
  /** → PublicKeyCredentialCreationOptionsJSON for startRegistration (a challenge valid 5 minutes, single use). */
  registrationOptions: authedProcedure.mutation(({ ctx }) => {
    requireSession(ctx.actor, WHAT);
    return passkeyRegistrationOptions(ctx.db, ctx.actor.user.id);
  }),
  /** {name, response} → passkey as list. BAD_REQUEST (challenge used/expired, does not verify, limit); CONFLICT (registered). */
  register: authedProcedure.input(registerPasskeyInput).mutation(({ ctx, input }) => {
    requireSession(ctx.actor, WHAT);
    return registerPasskey(ctx.db, ctx.actor.user.id, input);
  }),
  /** {id, name} → passkey. NOT_FOUND unless the caller's. */
  rename: authedProcedure.input(renamePasskeyInput).mutation(({ ctx, input }) => {
    requireSession(ctx.actor, WHAT);
    return renamePasskey(ctx.db, ctx.actor.user.id, input);
  }),
  /** {id} → {deleted: true, twoFactorEnabled}. NOT_FOUND unless the caller's. Removing the last second factor is allowed. */
  delete: authedProcedure.input(deletePasskeyInput).mutation(({ ctx, input }) => {
    requireSession(ctx.actor, WHAT);
    return deletePasskey(ctx.db, ctx.actor.user.id, input.id);
  }),
  /** Public: → PublicKeyCredentialRequestOptionsJSON for a passwordless sign-in (discoverable credentials, user verification required). */
  signInOptions: publicProcedure.mutation(({ ctx }) => passkeySignInOptions(ctx.db)),
  /** Public (the pending sign-in's cookie): → options for its user's passkeys. UNAUTHORIZED without a pending sign-in. */
  secondFactorOptions: publicProcedure.mutation(async ({ ctx }) =>
    secondFactorPasskeyOptions(ctx.db, await pendingSignIn(ctx.db, ctx.headers)),
  ),
  /**
   * Public (the pending sign-in's cookie): {response} → {signedIn: true}; the session is complete.
   * UNAUTHORIZED without a pending sign-in; BAD_REQUEST when the assertion does not verify;
   * TOO_MANY_REQUESTS per address. (No Origin check is needed: the assertion itself is bound to
   * svc's origin.)
   */
  secondFactorVerify: publicProcedure
    .input(z.object({ response: authenticationResponseSchema }))
    .mutation(async ({ ctx, input }) =>
      completeSignInWithPasskey(ctx.db, await pendingSignIn(ctx.db, ctx.headers), input.response, clientAddress(ctx.headers)),
    ),
});
