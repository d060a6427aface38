/**
 * The "Compare & pull request" banner (GitHub's "had recent pushes"; docs/pulls.md "Pages"):
 * branches of the repository pushed in the last hour that are not the default branch, still exist,
 * and whose last push has no pull request yet: a branch with an open pull request gets no banner,
 * nor one whose tip is the head of a pull request, nor one whose latest closed or merged pull
 * request was closed or merged at or after the last push (a squash or rebase merge leaves the
 * branch unmerged in git's eyes; issue #22 item 5). As on GitHub, a push after that merge or close
 * brings the banner back. Shown to callers who can write (they could have pushed).
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

/** Up to `limit` (3) recently pushed branches whose last push no pull request covers (above), newest first; [] below write permission. */
export async function recentlyPushedBranches(db: Db, repo: AuthorizedRepo, now = Date.now(), limit = 3): Promise<RecentBranch[]> {
  if (repo.permission !== "write" && repo.permission !== "admin") return [];
  const updated = (await branchesUpdatedSince(repo.gitDir, now - RECENT_PUSH_MS)).filter((b) => b.name !== repo.defaultBranch);
  if (updated.length === 0) return [];
  const tips = new Map((await listBranches(repo.gitDir)).map((b) => [b.name, b.sha]));
  const candidates = updated.filter((b) => tips.has(b.name)).slice(0, 50);
  if (candidates.length === 0) return [];
  const pulls = await db.pullRequest.findMany({
    where: { sourceRepoId: repo.id, sourceBranch: { in: candidates.map((b) => b.name) } },
    select: { sourceBranch: true, state: true, headSha: true, mergedAt: true, closedAt: true, updatedAt: true },
  });
  const proposed = (b: { name: string; updatedAt: number }) =>
    pulls.some(
      (p) =>
        p.sourceBranch === b.name &&
        (p.state === "open" || p.headSha === tips.get(b.name) || (p.mergedAt ?? p.closedAt ?? p.updatedAt).getTime() >= b.updatedAt),
    );
  return candidates
    .filter((b) => !proposed(b))
    .slice(0, limit)
    .map((b) => ({ name: b.name, pushedAt: new Date(b.updatedAt).toISOString() }));
}
