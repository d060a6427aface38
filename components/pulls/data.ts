/** Server-side loading for the pull request pages through the tRPC server caller (never over HTTP). */
import { cache } from "react";
import { orNotFound } from "@/components/code/data";
import { loadIssuesContext, type IssuesContext } from "@/components/issues/data";

/** Repository (404 when hidden), the viewer, a caller and canWrite: the issue pages' context. */
export const loadPullsContext = loadIssuesContext;
export type PullsContext = IssuesContext;

/** The pull request `number` of the repository, or the 404 page. Memoized per request (layout, metadata and pages). */
export const loadPull = cache(async (ctx: PullsContext, number: number) => orNotFound(ctx.caller.pulls.get({ repoId: ctx.repo.id, number })));

/** The pull request's commits (merge base..head, oldest first), memoized per request: the header counts them, the Commits tab lists them. */
export const loadPullCommits = cache(async (ctx: PullsContext, prId: string) => ctx.caller.pulls.getCommits({ prId }));
