/**
 * Input schemas of the review procedures (spec "Pull request router" rows addReview …
 * reviewers; docs/pulls.md "Review"). Bodies are at most 65,536 characters (GitHub's limit for
 * comments and review bodies); suggestions the same.
 */
import { z } from "zod";
import { line, text } from "@/server/validation/strings";
import { objectId, uuid } from "@/server/validation/ids";

/** Longest comment, review body or suggestion (characters), as GitHub. */
export const MAX_BODY = 65_536;

const lineNo = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be an integer`)
    .min(1, `${field} is at least 1`)
    .max(10_000_000, `${field} is too large`);

export const reviewState = z.enum(["approved", "changes_requested", "commented"], {
  error: "state must be one of approved, changes_requested, commented",
});
export type ReviewState = z.infer<typeof reviewState>;

export const side = z.enum(["LEFT", "RIGHT"], { error: "side must be LEFT or RIGHT" });
export type Side = z.infer<typeof side>;

export const commentBody = text("body").max(MAX_BODY, `body is at most ${MAX_BODY} characters`);
const requiredBody = commentBody.refine((b) => b.trim().length > 0, "body must not be empty");

export const addReviewInput = z.object({
  state: reviewState,
  body: commentBody.optional(),
  commitSha: objectId("commitSha"),
});
export type AddReviewInput = z.input<typeof addReviewInput>;

/** Position fields shared by inline comments and suggestions. */
const position = {
  path: text("path").min(1, "path must not be empty").max(4096, "path is at most 4096 characters"),
  line: lineNo("line"),
  side: side.optional(),
  startLine: lineNo("startLine").optional(),
  endLine: lineNo("endLine").optional(),
  commitSha: objectId("commitSha").optional(),
  reviewId: uuid("reviewId").optional(),
};

export const addCommentInput = z.object({
  body: requiredBody,
  path: position.path.optional(),
  line: position.line.optional(),
  side: position.side,
  startLine: position.startLine,
  endLine: position.endLine,
  commitSha: position.commitSha,
  reviewId: position.reviewId,
  replyToId: uuid("replyToId").optional(),
  /** Extension: a pending review comment, visible only to its author until pulls.addReview. */
  pending: z.boolean({ error: "pending must be a boolean" }).optional(),
});
export type AddCommentInput = z.input<typeof addCommentInput>;

export const addSuggestionInput = z.object({
  ...position,
  /** The comment's text beside the suggested change (may be empty). */
  body: commentBody,
  suggestion: text("suggestion").max(MAX_BODY, `suggestion is at most ${MAX_BODY} characters`),
  pending: z.boolean({ error: "pending must be a boolean" }).optional(),
});
export type AddSuggestionInput = z.input<typeof addSuggestionInput>;

export const updateCommentInput = z.object({ body: requiredBody });

export const fileCommentsInput = z.object({ path: position.path });

export const labelInput = z.object({ labelId: uuid("labelId") });
export const reviewerInput = z.object({ reviewerId: uuid("reviewerId") });
/**
 * pulls.requestReview / removeReviewRequest input: a reviewer (reviewerId) and/or teams (slugs of
 * the organization owning the repository, "slug" or "org/slug"; at most 10) — at least one.
 */
export const reviewRequestInput = z
  .object({
    reviewerId: uuid("reviewerId").optional(),
    teams: z
      .array(line("teams").trim().min(1, "a team slug is required").max(200), { error: "teams must be a list of team slugs" })
      .max(10, "at most 10 teams at once")
      .optional(),
  })
  .refine((v) => v.reviewerId !== undefined || (v.teams?.length ?? 0) > 0, { message: "name a reviewerId or teams" });
