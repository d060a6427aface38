/** Server-side loading for the issue pages through the tRPC server caller (never over HTTP). */
import { cache } from "react";
import { loadRepo, orNotFound } from "@/components/code/data";
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

/** The issue `number` of the repository, or the 404 page. Memoized per request (layout, metadata and page). */
export const loadIssue = cache(async (ctx: IssuesContext, number: number) => orNotFound(ctx.caller.issues.get({ repoId: ctx.repo.id, number })));
