/**
 * pulls.disableAutoMerge {prId} (write permission; docs/pulls.md "Auto-merge"): the pull request
 * no longer merges by itself. Timeline event `auto_merge_disabled` {reason: "disabled manually"}
 * by the caller and the webhook `pull_request` "auto_merge_disabled", in one transaction.
 */
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { AppError } from "@/server/errors";
import { inTransaction } from "@/server/db/transaction";
import { atLeast, type AuthorizedRepo } from "@/server/services/repos/access";
import { clearAutoMerge } from "./auto-merge";
import { loadPull } from "./locate";

/** The reason recorded when someone disables auto-merge themselves. */
export const MANUAL_REASON = "disabled manually";

/**
 * Disables auto-merge of pull request `prId` of `repo` → {autoMerge: null}. Errors: FORBIDDEN
 * (below write), NOT_FOUND, PRECONDITION_FAILED (auto-merge is not enabled).
 */
export async function disableAutoMerge(db: Db, actor: Actor, repo: AuthorizedRepo, prId: string): Promise<{ autoMerge: null }> {
  if (!atLeast(repo.permission, "write")) throw new AppError("FORBIDDEN", "disabling auto-merge needs write permission on the repository");
  const pr = await loadPull(db, repo, prId);
  const cleared = await inTransaction(db, (tx) => clearAutoMerge(tx, repo.id, pr.id, MANUAL_REASON, actor.user.id));
  if (!cleared) throw new AppError("PRECONDITION_FAILED", `auto-merge is not enabled on pull request #${pr.number}`);
  return { autoMerge: null };
}
