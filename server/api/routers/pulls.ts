/**
 * pulls router (spec "Pull request router"), merged from parts that each own one concern:
 * pulls-core (records and their timeline), pulls-diff (diff and commits), pulls-merge
 * (mergeability, merge, conflicts), pulls-counts (the list page's counts and the push banner), pulls-viewed (the caller's viewed files), pulls-review (reviews, comments, labels, reviewers),
 * pulls-suggestions (applying review suggestions), pulls-resolve (resolving conflicts in the browser), pulls-inbox (the inbox across repositories), pulls-ai (the AI review). Each procedure has its row in server/api/access.ts.
 */
import { mergeRouters } from "../trpc";
import { pullsCoreRouter } from "./pulls-core";
import { pullsDiffRouter } from "./pulls-diff";
import { pullsMergeRouter } from "./pulls-merge";
import { pullsCountsRouter } from "./pulls-counts";
import { pullsViewedRouter } from "./pulls-viewed";
import { pullsSuggestionsRouter } from "./pulls-suggestions";
import { pullsInboxRouter } from "./pulls-inbox";
import { pullsReviewRouter } from "./pulls-review";
import { pullsAiRouter } from "./pulls-ai";
import { pullsResolveRouter } from "./pulls-resolve";

export const pullsRouter = mergeRouters(
  pullsCoreRouter,
  pullsDiffRouter,
  pullsMergeRouter,
  pullsCountsRouter,
  pullsViewedRouter,
  pullsReviewRouter,
  pullsSuggestionsRouter,
  pullsInboxRouter,
  pullsAiRouter,
  pullsResolveRouter,
);
