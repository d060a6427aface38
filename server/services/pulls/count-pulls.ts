/**
 * Pull request counts per state for the list page's tabs and the repository header's badge
 * (docs/pulls.md "Pages"). Not in the spec; an extension like
 * issues.counts. One grouped COUNT over the (repoId, state, number) or (repoId, authorId, state,
 * number) index.
 */
import type { Db } from "@/server/db";

export interface PullCounts {
  open: number;
  closed: number;
  merged: number;
}

/** {open, closed, merged} pull requests of `repoId`, optionally only `authorId`'s. */
export async function countPulls(db: Db, repoId: string, authorId?: string): Promise<PullCounts> {
  const rows = await db.pullRequest.groupBy({
    by: ["state"],
    where: { repoId, ...(authorId ? { authorId } : {}) },
    _count: { _all: true },
  });
  const counts: PullCounts = { open: 0, closed: 0, merged: 0 };
  for (const r of rows) if (r.state in counts) counts[r.state as keyof PullCounts] = r._count._all;
  return counts;
}
