/**
 * pulls router (spec "Pull request router"), merged from parts that each own one concern:
 * pulls-core (records and their timeline), pulls-diff (diff and commits), pulls-merge
 * (mergeability, merge, conflicts), pulls-counts (the per-state counts of the list page). Each procedure has its row in server/api/access.ts.
 */
import { mergeRouters } from "../trpc";
import { pullsCoreRouter } from "./pulls-core";
import { pullsDiffRouter } from "./pulls-diff";
import { pullsMergeRouter } from "./pulls-merge";
import { pullsCountsRouter } from "./pulls-counts";

export const pullsRouter = mergeRouters(pullsCoreRouter, pullsDiffRouter, pullsMergeRouter, pullsCountsRouter);
