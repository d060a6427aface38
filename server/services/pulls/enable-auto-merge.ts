/**
 * pulls.enableAutoMerge {prId, strategy, message?} (write permission; docs/pulls.md "Auto-merge"):
 * the pull request merges by itself, as the caller, once every requirement is met (the
 * `pulls.autoMerge` job, run-auto-merge.ts, re-evaluates it on statuses, check runs, reviews and
 * pushes).
 *
 * A pull request that can merge now is merged now, as `gh pr merge --auto` does (GitHub's API
 * refuses auto-merge on a pull request that is already mergeable, "clean status"; its clients
 * then merge directly): the answer says `merged: true`. Enabling it again replaces the strategy
 * and message (a new `auto_merge_enabled` event). svc has no repository setting that disallows a
 * strategy, so every strategy of merge.ts is accepted; a rebase that will not apply waits like a
 * conflict.
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { AppError } from "@/server/errors";
import { inTransaction } from "@/server/db/transaction";
import { text } from "@/server/validation/strings";
import { atLeast, type AuthorizedRepo } from "@/server/services/repos/access";
import { emitPullRequestEvent } from "@/server/services/webhooks/domain-events";
import { autoMergeView, queueAutoMerge, type AutoMergeView } from "./auto-merge";
import { recordPullEvent } from "./events";
import { loadPull } from "./locate";
import { mergePullRequest, MERGE_STRATEGIES } from "./merge";
import { checkMergeability } from "./mergeability";

export const enableAutoMergeInput = z.object({
  strategy: z.enum(MERGE_STRATEGIES, { error: `strategy must be one of ${MERGE_STRATEGIES.join(", ")}` }),
  message: text("message").min(1, "message cannot be empty").max(65_536, "message is longer than 65536 characters").optional(),
});
export type EnableAutoMergeInput = z.input<typeof enableAutoMergeInput>;

/** pulls.enableAutoMerge's answer: merged now (with the merge commit), or waiting with auto-merge enabled. */
export interface EnableAutoMergeResult {
  merged: boolean;
  /** The target branch's new tip when merged now, else null. */
  mergeSha: string | null;
  /** The auto-merge now enabled; null when merged now. */
  autoMerge: AutoMergeView | null;
}

/**
 * Enables auto-merge of pull request `prId` of `repo` for `actor` (see the module comment).
 * Errors: FORBIDDEN (below write; a protection rule refusing the caller's merge now), NOT_FOUND,
 * BAD_REQUEST (the input), PRECONDITION_FAILED (merged, closed, a draft, the source branch
 * deleted, or it changed meanwhile), CONFLICT (merging now: the rebase stopped).
 */
export async function enableAutoMerge(
  db: Db,
  actor: Actor,
  repo: AuthorizedRepo,
  prId: string,
  raw: EnableAutoMergeInput,
): Promise<EnableAutoMergeResult> {
  const input = enableAutoMergeInput.parse(raw);
  if (!atLeast(repo.permission, "write")) throw new AppError("FORBIDDEN", "enabling auto-merge needs write permission on the repository");
  const pr = await loadPull(db, repo, prId);
  if (pr.state !== "open")
    throw new AppError("PRECONDITION_FAILED", `pull request #${pr.number} is ${pr.state}: auto-merge is only for open pull requests`);
  if (pr.isDraft)
    throw new AppError("PRECONDITION_FAILED", `pull request #${pr.number} is a draft; mark it ready for review before enabling auto-merge`);
  if (pr.sourceDeleted)
    throw new AppError(
      "PRECONDITION_FAILED",
      `the source branch "${pr.sourceBranch}" was deleted, so pull request #${pr.number} cannot merge`,
    );

  if ((await checkMergeability(db, repo, pr)).canMerge) {
    try {
      const merged = await mergePullRequest(db, actor, repo, prId, { strategy: input.strategy, message: input.message });
      return { merged: true, mergeSha: merged.mergeSha, autoMerge: null };
    } catch (e) {
      // it changed between the check and the merge (a push, a dismissed review): wait instead
      if (!(e instanceof AppError && (e.code === "PRECONDITION_FAILED" || e.code === "CONFLICT"))) throw e;
    }
  }

  const now = new Date();
  const data = {
    autoMergeStrategy: input.strategy,
    autoMergeMessage: input.message ?? null,
    autoMergeById: actor.user.id,
    autoMergeEnabledAt: now,
  };
  return inTransaction(db, async (tx) => {
    const r = await tx.pullRequest.updateMany({ where: { id: pr.id, state: "open", isDraft: false }, data });
    if (r.count === 0)
      throw new AppError(
        "PRECONDITION_FAILED",
        "the pull request changed meanwhile (merged, closed or made a draft); reload and try again",
      );
    await recordPullEvent(tx, pr.id, "auto_merge_enabled", { strategy: input.strategy }, actor.user.id);
    await emitPullRequestEvent(tx, repo.id, "auto_merge_enabled", actor.user, pr.id);
    // a requirement met between the check above and this commit is not missed
    queueAutoMerge(tx, [pr.id]);
    return { merged: false, mergeSha: null, autoMerge: await autoMergeView(tx, data) };
  });
}
