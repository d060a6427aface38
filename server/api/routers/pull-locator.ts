/** How pull request procedures taking `prId` or a pull request `commentId` find their repository (repoProcedureBy). */
import type { RepoLocatorDef } from "../trpc";
import { pullCommentRepoId, pullRepoId } from "@/server/services/pulls/locate";

export const byPullId: RepoLocatorDef<"prId"> = { key: "prId", what: "pull request", repoIdOf: pullRepoId };

/** A pull request comment (issue #9): its pull request's target repository. */
export const byPullCommentId: RepoLocatorDef<"commentId"> = { key: "commentId", what: "comment", repoIdOf: pullCommentRepoId };
