/** users router: sign up (public) and the caller's profile (scope user:read). */
import { router, publicProcedure, authedProcedure } from "../trpc";
import { getProfile, signUp, signUpInput } from "@/server/services/users";

export const usersRouter = router({
  /** {username, password, name?, email?} → {id, username, name, email}. BAD_REQUEST / CONFLICT. */
  signUp: publicProcedure.input(signUpInput).mutation(({ ctx, input }) => signUp(ctx.db, input)),
  /** → {id, username, name, email} of the caller. */
  me: authedProcedure.query(({ ctx }) => getProfile(ctx.db, ctx.actor.user.id)),
});
