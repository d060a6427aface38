/** The after-push warm-up of a pull request's diff (docs/pulls.md "Git processes and caches"). */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { warmThreeDot } from "@/server/git/diff";
import { repoGitDir } from "@/server/git/paths";
import { pullBase } from "./pull-range";

/** Most time the after-push warm-up may keep its git process (ms): past it git is stopped and nothing is cached. */
export const WARM_TIMEOUT_MS = 30_000;

/**
 * The after-push warm-up of a pull request's diff (the `pulls.refreshMergeability` job, after
 * its mergeability check; docs/pulls.md "Git processes and caches"): caches the merge base and
 * the per-file counts of the range the Files changed tab will ask for (`pullBase`…headSha), so
 * its first request stops git at the line budget instead of reading the whole patch. Bounded:
 * open pull requests only (the job runs for those a push moved), nothing when the range is
 * already cached, one `git diff --numstat` (no patch reaches node) stopped after
 * WARM_TIMEOUT_MS. The caches are per process: this helps when the job runs in the process that
 * serves the page (the default single-process server). Returns whether git ran. Errors: a plain
 * Error when git fails or times out; a pull request that is gone or not open, or whose
 * histories are unrelated, is not an error (false).
 */
export async function warmPullDiff(db: Db, prId: string): Promise<boolean> {
  const pr = await db.pullRequest.findUnique({
    where: { id: prId },
    select: {
      state: true,
      targetBranch: true,
      baseSha: true,
      headSha: true,
      repo: { select: { name: true, owner: { select: { username: true } } } },
    },
  });
  if (!pr || pr.state !== "open") return false;
  const gitDir = repoGitDir(pr.repo.owner.username, pr.repo.name);
  const base = await pullBase({ gitDir }, pr);
  return warmThreeDot(gitDir, base, pr.headSha, { timeoutMs: WARM_TIMEOUT_MS }).catch((e) => {
    if (e instanceof AppError) return false; // unrelated histories: the page answers BAD_REQUEST itself, nothing to cache
    throw e;
  });
}
