/**
 * ai router, part: the writing helpers (spec "AI router"; docs/ai.md): generatePRDescription and
 * summarizeForSquash. Read access to the repository (private → NOT_FOUND; token scope
 * repo:read) and a signed-in caller: a model call may spend the repository's provider key, so
 * anonymous visitors of a public repository are refused (UNAUTHORIZED). Rate limits apply by
 * procedure path (server/rate-limit.ts). Each procedure has its row in server/api/access.ts.
 */
import { TRPCError } from "@trpc/server";
import { authorizeRepo } from "@/server/services/repos/access";
import { generatePRDescription } from "@/server/services/ai/generate-pr-description";
import { summarizeForSquash } from "@/server/services/ai/summarize-for-squash";
import { prDescriptionInput, squashInput } from "@/server/services/ai/writing-schemas";
import { middleware, repoProcedure, router } from "../trpc";

/** Refuses anonymous callers before the input is read (a model call may spend a provider key). */
export const signedIn = middleware(({ ctx, next }) => {
  if (!(ctx as { actor?: unknown }).actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in to use the AI helpers" });
  return next();
});

export const aiWritingRouter = router({
  /**
   * {repoId, sourceBranch, targetBranch, existingTitle?, existingBody?, style? (concise |
   * detailed | conventional; default detailed), sourceRepoId? (the source branch's repository in
   * the fork network, as pulls.create)} → {title, body, summary, changes: [{category,
   * description}], breakingChanges, engine}. NOT_FOUND for unknown branches or an unreadable
   * source repository; BAD_REQUEST when there is nothing to describe; SERVICE_UNAVAILABLE when
   * the model fails.
   */
  generatePRDescription: repoProcedure
    .use(signedIn)
    .input(prDescriptionInput)
    .mutation(async ({ ctx, input }) => {
      const sourceRepo =
        input.sourceRepoId && input.sourceRepoId !== ctx.repo.id
          ? await authorizeRepo(ctx.db, ctx.actor, { repoId: input.sourceRepoId }, "read")
          : undefined;
      return generatePRDescription(ctx.db, ctx.actor, ctx.repo, input, { sourceRepo });
    }),

  /**
   * {repoId, commits: [{sha, message, author ("Name <email>")}] (1–250), prTitle?, prBody?,
   * style? (conventional | simple; default: conventional when the title or most commits are),
   * prId? (the pull request: its author is not a co-author, " (#N)" ends the title)} →
   * {message, title, body, coAuthors, engine}. NOT_FOUND for a prId of another repository.
   */
  summarizeForSquash: repoProcedure
    .use(signedIn)
    .input(squashInput)
    .mutation(({ ctx, input }) => summarizeForSquash(ctx.db, ctx.actor, ctx.repo, input)),
});
