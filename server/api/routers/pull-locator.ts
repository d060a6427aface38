/** How pull request procedures taking `prId` find their repository (repoProcedureBy). */
import type { RepoLocatorDef } from "../trpc";
import { pullRepoId } from "@/server/services/pulls/locate";

export const byPullId: RepoLocatorDef<"prId"> = { key: "prId", what: "pull request", repoIdOf: pullRepoId };
