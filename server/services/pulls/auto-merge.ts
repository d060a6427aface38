/**
 * Auto-merge (docs/pulls.md "Auto-merge"): what enabling, disabling and the `pulls.autoMerge`
 * job share — the view of a pull request's auto-merge, clearing it with its timeline event and
 * webhook, queueing the job after a commit, and a user's permission on a repository outside a
 * request (the job acts as the user who enabled it).
 *
 * A pull request has auto-merge when `autoMergeStrategy` is set; `autoMergeById` is the user the
 * merge is made as, `autoMergeMessage` the commit message (null: the strategy's default). The
 * fields stay on a merged pull request (GitHub's `auto_merge` stays too); closing, a push to the
 * head by someone without write permission, converting to a draft and pulls.disableAutoMerge
 * clear them.
 */
import type { Db } from "@/server/db";
import type { Tx } from "@/server/db/transaction";
import { afterCommit } from "@/server/db/after-commit";
import type { Actor } from "@/server/auth/actor";
import { SCOPES } from "@/server/auth/scopes";
import { AppError } from "@/server/errors";
import { enqueue } from "@/server/jobs";
import { AUTO_MERGE } from "@/server/jobs/names";
import { authorizeRepo, type AuthorizedRepo } from "@/server/services/repos/access";
import { emitPullRequestEvent } from "@/server/services/webhooks/domain-events";
import { recordPullEvent } from "./events";
import { pullUserSelect, type PullUser } from "./view";

/** A pull request's auto-merge as pulls.checkMergeability and pulls.enableAutoMerge return it. */
export interface AutoMergeView {
  /** merge | squash | rebase (merge.ts MERGE_STRATEGIES). */
  strategy: "merge" | "squash" | "rebase";
  /** The commit message it merges with; null: the strategy's default message. */
  message: string | null;
  /** Who enabled it (the merge is made as them); null when that account was deleted. */
  enabledBy: PullUser | null;
  /** ISO 8601. */
  enabledAt: string;
}

/** The auto-merge columns of a pull request row. */
export interface AutoMergeColumns {
  autoMergeStrategy: string | null;
  autoMergeMessage: string | null;
  autoMergeById: string | null;
  autoMergeEnabledAt: Date | null;
}

/** The columns cleared when auto-merge is disabled. */
export const AUTO_MERGE_OFF = { autoMergeStrategy: null, autoMergeMessage: null, autoMergeById: null, autoMergeEnabledAt: null } as const;

/** The view of `pr`'s auto-merge (one query for the enabler when it is enabled), or null when it is not enabled. */
export async function autoMergeView(db: Db | Tx, pr: AutoMergeColumns): Promise<AutoMergeView | null> {
  if (!pr.autoMergeStrategy) return null;
  const enabledBy = pr.autoMergeById
    ? await db.user
        .findUnique({ where: { id: pr.autoMergeById }, select: pullUserSelect })
        .then((u) => (u ? { id: u.id, username: u.username, name: u.name } : null))
    : null;
  return {
    strategy: pr.autoMergeStrategy as AutoMergeView["strategy"],
    message: pr.autoMergeMessage,
    enabledBy,
    enabledAt: (pr.autoMergeEnabledAt ?? new Date(0)).toISOString(),
  };
}

/**
 * Disables the auto-merge of pull request `prId` (of repository `repoId`) inside `tx`, when it is
 * enabled: the fields cleared, the timeline event `auto_merge_disabled` {reason} by `actorId`
 * (null: svc itself) and the webhook `pull_request` "auto_merge_disabled" with GitHub's `reason`.
 * Returns whether it was enabled (false: nothing written).
 */
export async function clearAutoMerge(tx: Tx, repoId: string, prId: string, reason: string, actorId: string | null): Promise<boolean> {
  const r = await tx.pullRequest.updateMany({ where: { id: prId, autoMergeStrategy: { not: null } }, data: AUTO_MERGE_OFF });
  if (r.count === 0) return false;
  await recordPullEvent(tx, prId, "auto_merge_disabled", { reason }, actorId);
  await emitPullRequestEvent(tx, repoId, "auto_merge_disabled", actorId ? { id: actorId } : null, prId, { reason });
  return true;
}

/**
 * Queues the `pulls.autoMerge` job of each of `prIds` once `client`'s transaction commits (at once
 * on the root client): one pending job per pull request (singleton key), so a burst of statuses
 * re-evaluates once. A failed enqueue is logged: the next event queues it again.
 */
export function queueAutoMerge(client: Db | Tx, prIds: readonly string[]): void {
  for (const prId of new Set(prIds))
    afterCommit(client, () => {
      void enqueue(AUTO_MERGE, { prId }, { singletonKey: prId }).catch((e: unknown) =>
        console.error(`queueing the auto-merge of pull request ${prId} failed`, e),
      );
    });
}

/**
 * User `userId` as an actor with every scope (their role decides, as in the browser), and
 * repository `repoId` authorized for them at read: the identity the auto-merge job merges with.
 * Null when the user is gone or cannot read the repository.
 */
export async function actAs(db: Db, userId: string, repoId: string): Promise<{ actor: Actor; repo: AuthorizedRepo } | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, username: true, name: true, email: true, isAdmin: true },
  });
  if (!user) return null;
  const actor: Actor = { user, via: "session", scopes: SCOPES };
  try {
    return { actor, repo: await authorizeRepo(db, actor, { repoId }, "read") };
  } catch (e) {
    if (e instanceof AppError && e.code === "NOT_FOUND") return null;
    throw e;
  }
}
