/**
 * The "Compare & pull request" banner (GitHub's "had recent pushes"; docs/pulls.md "Pages"):
 * branches of the repository pushed in the last hour that are not the default branch, still exist,
 * and have no open pull request from them. Shown to callers who can write (they could have pushed).
 * Two git reads (reflog stats, branch list) and one query.
 */
import type { Db } from "@/server/db";
import { branchesUpdatedSince } from "@/server/git/reflog";
import { listBranches } from "@/server/git/repository";
import type { AuthorizedRepo } from "@/server/services/repos/access";

/** How long after a push the banner offers a branch: 1 hour, in ms (GitHub's window). */
export const RECENT_PUSH_MS = 60 * 60 * 1000;

export interface RecentBranch {
  name: string;
  /** ISO time of the push */
  pushedAt: string;
}

/** Up to `limit` (3) recently pushed branches without an open pull request, newest first; [] below write permission. */
export async function recentlyPushedBranches(db: Db, repo: AuthorizedRepo, now = Date.now(), limit = 3): Promise<RecentBranch[]> {
  if (repo.permission !== "write" && repo.permission !== "admin") return [];
  const updated = (await branchesUpdatedSince(repo.gitDir, now - RECENT_PUSH_MS)).filter((b) => b.name !== repo.defaultBranch);
  if (updated.length === 0) return [];
  const existing = new Set((await listBranches(repo.gitDir)).map((b) => b.name));
  const candidates = updated.filter((b) => existing.has(b.name)).slice(0, 50);
  if (candidates.length === 0) return [];
  const open = await db.pullRequest.findMany({
    where: { sourceRepoId: repo.id, sourceBranch: { in: candidates.map((b) => b.name) }, state: "open" },
    select: { sourceBranch: true },
  });
  const taken = new Set(open.map((p) => p.sourceBranch));
  return candidates
    .filter((b) => !taken.has(b.name))
    .slice(0, limit)
    .map((b) => ({ name: b.name, pushedAt: new Date(b.updatedAt).toISOString() }));
}
