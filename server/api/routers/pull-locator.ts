/** How pull request procedures taking `prId` or a pull request `commentId` find their repository (repoProcedureBy). */
import type { RepoLocatorDef } from "../trpc";
import { pullRepoId } from "@/server/services/pulls/locate";
import { pullCommentRepoId } from "@/server/services/pulls/comment-locate";
import { PULL_HEAD_COLUMNS } from "@/server/services/pulls/list-comments";
import { reviewRepoId } from "@/server/services/pulls/dismiss-review";

export const byPullId: RepoLocatorDef<"prId"> = { key: "prId", what: "pull request", repoIdOf: pullRepoId };

/** A pull request comment's id (docs/pulls.md "Review"): its pull request's repository. */
export const byPullCommentId: RepoLocatorDef<"commentId"> = { key: "commentId", what: "comment", repoIdOf: pullCommentRepoId };

/**
 * `byPullId` that also reads the pull request's PULL_HEAD_COLUMNS with the authorization query
 * (one statement; ctx.entity), for the hot comment reads (pulls.comments, pulls.getFileComments).
 */
export const byPullIdWithHead: RepoLocatorDef<"prId"> = { ...byPullId, via: { table: "PullRequest", columns: PULL_HEAD_COLUMNS } };

/** A pull request review's id (pulls.dismissReview): its pull request's repository. */
export const byPullReviewId: RepoLocatorDef<"reviewId"> = { key: "reviewId", what: "review", repoIdOf: reviewRepoId };
