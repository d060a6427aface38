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
import { text } from "@/server/validation/strings";
import { applySuggestion, applySuggestions, MAX_BATCH_SUGGESTIONS, MAX_SUGGESTION_MESSAGE } from "@/server/services/pulls/apply-suggestion";

/** The commit message a caller may choose (extension; GitHub's dialog): trimmed, 1–65536 characters, co-author trailers appended. */
const messageInput = text("message")
  .trim()
  .min(1, "message cannot be empty")
  .max(MAX_SUGGESTION_MESSAGE, `message is longer than ${MAX_SUGGESTION_MESSAGE} characters`)
  .optional();

export const pullsSuggestionsRouter = router({
  /** {commentId, message?} → {success, commitSha, message} (spec; `message` an extension): the suggestion committed to the source branch. */
  applySuggestion: repoProcedureBy(byPullCommentId)
    .input(z.object({ message: messageInput }))
    .mutation(({ ctx, input }) => applySuggestion(ctx.db, ctx.actor, ctx.repo, ctx.entityId, input.message)),
  /** {commentIds[] (1–100), message?} → {success, commitSha, message} (extension, GitHub's batch): one commit for all. */
  applySuggestions: authedProcedure
    .input(
      z.object({
        commentIds: z
          .array(uuid("commentIds[]"), { error: "commentIds must be a list of comment ids" })
          .min(1, "commentIds names at least one comment")
          .max(MAX_BATCH_SUGGESTIONS, `commentIds names at most ${MAX_BATCH_SUGGESTIONS} comments`),
        message: messageInput,
      }),
    )
    .mutation(({ ctx, input }) => applySuggestions(ctx.db, ctx.actor, input.commentIds, input.message)),
});
