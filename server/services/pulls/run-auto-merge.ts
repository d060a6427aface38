/**
 * The `pulls.autoMerge` job (server/jobs/handlers.ts; docs/pulls.md "Auto-merge"): queued after
 * the commit of anything that can satisfy a requirement of a pull request with auto-merge — a
 * status or check run on its head (statuses/announce.ts), a review submitted or dismissed, a push
 * to its head or base (refresh-after-push.ts), enabling it. It merges the pull request with the
 * existing merge (merge.ts `mergePullRequest`) as the user who enabled it, so the merge, its
 * timeline event, its webhooks and its push events are those of any merge by that user.
 *
 * Idempotent (jobs are delivered at least once): it reads the current state; a pull request no
 * longer open or without auto-merge is left alone, and merge.ts's guarded claim lets one merge
 * through.
 */
import type { Db } from "@/server/db";
import { inTransaction } from "@/server/db/transaction";
import { AppError } from "@/server/errors";
import { atLeast } from "@/server/services/repos/access";
import { actAs, clearAutoMerge } from "./auto-merge";
import { mergePullRequest, type MergeStrategy } from "./merge";

/** What one run did: merged, still waiting for a requirement (or a conflict to be resolved), disabled, or nothing to do. */
export type AutoMergeOutcome = "merged" | "waiting" | "disabled" | "none";

/**
 * Runs the job for pull request `prId`:
 *   - not open, or auto-merge not enabled → "none";
 *   - the user who enabled it is gone or no longer has write permission → auto-merge disabled
 *     (event by svc, with the reason) → "disabled";
 *   - otherwise mergePullRequest as that user with the stored strategy and message: merged →
 *     "merged"; PRECONDITION_FAILED (a requirement unmet, conflicts, changed meanwhile) or CONFLICT
 *     (the target moved, a rebase stopped) → "waiting", auto-merge stays enabled and nothing is
 *     recorded (the next event tries again); FORBIDDEN (a protection rule refuses that user's
 *     merge, e.g. a push allowlist) → disabled with the rule's message as the reason.
 * Other errors propagate (the queue retries).
 */
export async function runAutoMerge(db: Db, prId: string): Promise<AutoMergeOutcome> {
  const pr = await db.pullRequest.findUnique({
    where: { id: prId },
    select: { id: true, repoId: true, state: true, autoMergeStrategy: true, autoMergeMessage: true, autoMergeById: true },
  });
  if (!pr || pr.state !== "open" || !pr.autoMergeStrategy) return "none";
  const as = pr.autoMergeById ? await actAs(db, pr.autoMergeById, pr.repoId) : null;
  if (!as || !atLeast(as.repo.permission, "write")) {
    const reason = as
      ? `@${as.actor.user.username} who enabled it no longer has write permission`
      : "the user who enabled it no longer has access to the repository";
    await inTransaction(db, (tx) => clearAutoMerge(tx, pr.repoId, pr.id, reason, null));
    return "disabled";
  }
  try {
    await mergePullRequest(db, as.actor, as.repo, pr.id, {
      strategy: pr.autoMergeStrategy as MergeStrategy,
      message: pr.autoMergeMessage ?? undefined,
    });
    return "merged";
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (e.code === "NOT_FOUND") return "none";
    if (e.code === "PRECONDITION_FAILED" || e.code === "CONFLICT") return "waiting";
    if (e.code === "FORBIDDEN") {
      const reason = `@${as.actor.user.username} cannot merge it: ${e.message}`;
      await inTransaction(db, (tx) => clearAutoMerge(tx, pr.repoId, pr.id, reason, null));
      return "disabled";
    }
    throw e;
  }
}
