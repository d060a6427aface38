/** A pull request's commits (pulls.getCommits): the range its diff runs over. */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { listRangeCommits, type RangeCommit } from "@/server/git/commits";
import { onPullRange } from "./pull-range";

/** pulls.getCommits: {commits (oldest first, at most 250), totalCommits} of merge-base..head. Errors: as `onPullRange`. */
export async function pullCommits(db: Db, repo: AuthorizedRepo, prId: string): Promise<{ commits: RangeCommit[]; totalCommits: number }> {
  return onPullRange(db, repo, prId, (base, head) => listRangeCommits(repo.gitDir, base, head));
}
