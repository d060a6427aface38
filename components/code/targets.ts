/**
 * What a /tree/ or /blob/ URL names, resolved once per request (React cache) by the route's
 * layout and reused by its page. The layout decides 404s and redirects *before* the page's
 * loading.tsx boundary streams a skeleton: once streaming has started the status is already
 * 200, so every "not found" must be known first (docs/ui.md "Loading states").
 */
import { cache } from "react";
import { notFound, redirect } from "next/navigation";
import { getServerCaller } from "@/server/auth/session";
import { loadBranches, loadRepo, orNull } from "./data";
import { splitRefAndPath } from "./resolve";
import { codeUrl } from "./urls";

/** Segments are decoded path segments (never containing "/"), passed joined by "/" so the cache key is a string. */
export const resolveTree = cache(async (owner: string, name: string, joined: string) => {
  const repo = await loadRepo(owner, name);
  if (repo.isEmpty) notFound();
  const branches = await loadBranches(repo.id);
  const { ref, path } = splitRefAndPath(
    branches.map((b) => b.name),
    joined.split("/"),
  );
  if (!ref) notFound();
  const caller = await getServerCaller();
  const tree = await orNull(caller.repos.tree({ repoId: repo.id, ref, path }));
  if (!tree) {
    // a file path under /tree/ goes to the file view, like GitHub
    if (path && (await orNull(caller.repos.blob({ repoId: repo.id, ref, path }))))
      redirect(codeUrl(repo.owner, repo.name, "blob", ref, path));
    notFound();
  }
  return { repo, branches, ref, path, tree };
});

/** The file a /blob/ URL names (text up to the API's limit), or a redirect to /tree/ for a directory, or 404. */
export const resolveBlob = cache(async (owner: string, name: string, joined: string) => {
  const repo = await loadRepo(owner, name);
  if (repo.isEmpty) notFound();
  const branches = await loadBranches(repo.id);
  const { ref, path } = splitRefAndPath(
    branches.map((b) => b.name),
    joined.split("/"),
  );
  if (!ref || !path) notFound();
  const caller = await getServerCaller();
  const blob = await orNull(caller.repos.blob({ repoId: repo.id, ref, path }));
  if (!blob) {
    if (await orNull(caller.repos.tree({ repoId: repo.id, ref, path }))) redirect(codeUrl(repo.owner, repo.name, "tree", ref, path));
    notFound();
  }
  return { repo, branches, ref, path, blob };
});
