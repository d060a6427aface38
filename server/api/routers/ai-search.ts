/**
 * The semantic search part of the ai router (spec "AI router" ai.semanticSearch;
 * docs/ai.md "Semantic search"). Read access: a private repository answers NOT_FOUND to others.
 */
import { z } from "zod";
import { router, repoProcedure } from "../trpc";
import { line } from "@/server/validation/strings";
import { searchIndexStatus, semanticSearch, semanticSearchInput } from "@/server/services/search/semantic-search";

export const aiSearchRouter = router({
  /** POST as the spec lists it (no side effect beyond queueing an index refresh). {repoId, query, branch?, options?: {limit, minSimilarity, fileTypes, paths}} → {results, query, totalResults, searchTime, engine}. */
  semanticSearch: repoProcedure.input(semanticSearchInput).mutation(({ ctx, input }) => semanticSearch(ctx.db, ctx.actor, ctx.repo, input)),
  /** {repoId, branch?} → {branch, status, stale, commitSha, files, chunks, indexedAt, embeddingModel, embeddingError, embeddingFailedAt} (the search page's indexing state). */
  searchIndexStatus: repoProcedure
    .input(z.object({ branch: line("branch").min(1).max(255).optional() }))
    .query(({ ctx, input }) => searchIndexStatus(ctx.db, ctx.repo, input.branch)),
});
