/**
 * Data loading for the code browser pages through the tRPC server caller (never over HTTP).
 * NOT_FOUND and BAD_REQUEST from the API (unknown repository, ref or path; a private repository
 * the viewer cannot read; malformed names) become Next's notFound() page.
 */
import { cache } from "react";
import { headers } from "next/headers";
import { notFound, permanentRedirect } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { getServerCaller } from "@/server/auth/session";

/** True for API errors that mean "there is nothing to show here". */
export function isMissing(e: unknown): boolean {
  return e instanceof TRPCError && (e.code === "NOT_FOUND" || e.code === "BAD_REQUEST");
}

/** Awaits `p`; a missing-resource error renders the 404 page instead. */
export async function orNotFound<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (isMissing(e)) notFound();
    throw e;
  }
}

/** Awaits `p`; a missing-resource error gives null. */
export async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (isMissing(e)) return null;
    throw e;
  }
}

/**
 * The repository (with isEmpty) or the 404 page. Memoized per request (metadata + page). A former
 * path of a transferred repository the viewer can read answers a permanent redirect (308) to the
 * same page under its current path (docs/orgs.md "Transferring a repository").
 */
export const loadRepo = cache(async (owner: string, name: string) => {
  const caller = await getServerCaller();
  try {
    return await caller.repos.get({ owner, name });
  } catch (e) {
    if (!isMissing(e)) throw e;
    const to = await caller.repos.redirect({ owner, name }).catch(() => null);
    if (to) permanentRedirect(await movedPath(owner, name, to));
    notFound();
  }
});

/** The page being shown (proxy.ts's x-svc-path), moved from `owner/name` to `to`. */
async function movedPath(owner: string, name: string, to: { owner: string; name: string }): Promise<string> {
  const here = (await headers()).get("x-svc-path") ?? `/${owner}/${name}`;
  const [pathname, ...query] = here.split("?");
  const parts = pathname.split("/");
  parts[1] = encodeURIComponent(to.owner);
  parts[2] = encodeURIComponent(to.name);
  return `${parts.join("/")}${query.length ? `?${query.join("?")}` : ""}`;
}

export type RepoData = Awaited<ReturnType<typeof loadRepo>>;

export const loadBranches = cache(async (repoId: string) => {
  const caller = await getServerCaller();
  return caller.repos.branches({ repoId });
});

export type BranchData = Awaited<ReturnType<typeof loadBranches>>;
