/** Server-side loading for the pull request pages through the tRPC server caller (never over HTTP). */
import { cache } from "react";
import { notFound, permanentRedirect } from "next/navigation";
import { orNull } from "@/components/code/data";
import { loadIssuesContext, type IssuesContext } from "@/components/issues/data";

/** Repository (404 when hidden), the viewer, a caller and canWrite: the issue pages' context. */
export const loadPullsContext = loadIssuesContext;
export type PullsContext = IssuesContext;

/**
 * The pull request `number` of the repository, or the 404 page. Memoized per request (layout,
 * metadata and pages). An issue's number redirects to the issue (shared numbers, as on GitHub).
 */
export const loadPull = cache(async (ctx: PullsContext, number: number) => {
  const pull = await orNull(ctx.caller.pulls.get({ repoId: ctx.repo.id, number }));
  if (pull) return pull;
  const issue = await orNull(ctx.caller.issues.get({ repoId: ctx.repo.id, number }));
  if (issue) permanentRedirect(`/${encodeURIComponent(ctx.repo.owner)}/${encodeURIComponent(ctx.repo.name)}/issues/${issue.number}`);
  notFound();
});

/** The pull request's commits (merge base..head, oldest first), memoized per request: the header counts them, the Commits tab lists them. */
export const loadPullCommits = cache(async (ctx: PullsContext, prId: string) => ctx.caller.pulls.getCommits({ prId }));
