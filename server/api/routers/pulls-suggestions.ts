/**
 * pulls router, part: applying review suggestions (docs/pulls.md "Suggestions").
 * applySuggestion is a read-level row located through the comment; the service then needs write
 * permission on the repository holding the source branch (a fork for cross-repository pull
 * requests), as GitHub lets whoever can push to the head branch commit suggestions.
 * applySuggestions names several comments, so it is a user-tier row whose service authorizes.
 */
import { z } from "zod";
import { router, repoProcedureBy, authedProcedure } from "../trpc";
import { byPullCommentId } from "./pull-locator";
import { uuid } from "@/server/validation/ids";
import { applySuggestion, applySuggestions, MAX_BATCH_SUGGESTIONS } from "@/server/services/pulls/apply-suggestion";

export const pullsSuggestionsRouter = router({
  /** {commentId} → {success, commitSha, message} (spec): the suggestion committed to the source branch. */
  applySuggestion: repoProcedureBy(byPullCommentId).mutation(({ ctx }) => applySuggestion(ctx.db, ctx.actor, ctx.repo, ctx.entityId)),
  /** {commentIds[] (1–100)} → {success, commitSha, message} (extension, GitHub's batch): one commit for all. */
  applySuggestions: authedProcedure
    .input(
      z.object({
        commentIds: z
          .array(uuid("commentIds[]"), { error: "commentIds must be a list of comment ids" })
          .min(1, "commentIds names at least one comment")
          .max(MAX_BATCH_SUGGESTIONS, `commentIds names at most ${MAX_BATCH_SUGGESTIONS} comments`),
      }),
    )
    .mutation(({ ctx, input }) => applySuggestions(ctx.db, ctx.actor, input.commentIds)),
});
