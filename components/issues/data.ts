/** Server-side loading for the issue pages through the tRPC server caller (never over HTTP). */
import { cache } from "react";
import { notFound, permanentRedirect } from "next/navigation";
import { loadRepo, orNull } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";

/** Repository (404 when hidden), the viewer and a caller, from the page's `owner`/`repo` params. */
export const loadIssuesContext = cache(async (owner: string, name: string) => {
  const repo = await loadRepo(decodeSegment(owner), decodeSegment(name));
  const [actor, caller] = await Promise.all([getCurrentActor(), getServerCaller()]);
  const canWrite = repo.permission === "write" || repo.permission === "admin";
  return { repo, caller, me: actor ? { id: actor.user.id, username: actor.user.username } : null, canWrite };
});

export type IssuesContext = Awaited<ReturnType<typeof loadIssuesContext>>;

/**
 * The issue `number` of the repository, or the 404 page. Memoized per request (layout, metadata
 * and page). Issues and pull requests share numbers: the number of a pull request redirects to
 * its page, as GitHub does, so `#N` links work for both.
 */
export const loadIssue = cache(async (ctx: IssuesContext, number: number) => {
  const issue = await orNull(ctx.caller.issues.get({ repoId: ctx.repo.id, number }));
  if (issue) return issue;
  const pull = await orNull(ctx.caller.pulls.get({ repoId: ctx.repo.id, number }));
  if (pull) permanentRedirect(`/${encodeURIComponent(ctx.repo.owner)}/${encodeURIComponent(ctx.repo.name)}/pulls/${pull.number}`);
  notFound();
});
