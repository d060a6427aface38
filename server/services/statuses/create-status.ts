/**
 * Creating a commit status (issue #23; GitHub's POST /repos/{owner}/{repo}/statuses/{sha}).
 */
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { inTransaction, lockKey } from "@/server/db/transaction";
import { afterCommit } from "@/server/db/after-commit";
import { MAX_PER_CONTEXT, ValidationFailed, createStatusInput, parseOrFail } from "./status-rules";
import { commitOfSha } from "./resolve-sha";
import { announceStatusChange } from "./announce";
import { statusSelect, type CommitStatusRow } from "./rows";
export { statusSelect } from "./rows";
import { emitStatusEvent } from "./status-webhooks";
import { enqueueCiFailure } from "@/server/services/notifications/enqueue";

export type { CommitStatusRow } from "./rows";

/**
 * Stores a status `body` ({state, target_url?, description?, context? = "default"}: status-rules.ts)
 * for commit `sha` of `repo`, created by `actor`. The caller has checked write permission (the
 * REST transport's `authorizeRepo(…, "write")`). Returns the row. Errors: ValidationFailed (422) for a
 * bad body, an unknown commit, or a sha and context that already have MAX_PER_CONTEXT (1,000) statuses
 * (GitHub's limit; the count and the insert share one transaction, serialised per sha and context).
 */
export async function createCommitStatus(db: Db, actor: Actor, repo: AuthorizedRepo, sha: string, body: unknown): Promise<CommitStatusRow> {
  const input = parseOrFail(createStatusInput, body, "Status");
  const commit = await commitOfSha(repo, sha);
  const context = input.context ?? "default";
  const row = await inTransaction(db, async (tx) => {
    await lockKey(tx, `status:${repo.id}:${commit}:${context}`); // concurrent posts cannot pass the limit together
    const count = await tx.commitStatus.count({ where: { repoId: repo.id, sha: commit, context } });
    if (count >= MAX_PER_CONTEXT)
      throw new ValidationFailed([
        {
          resource: "Status",
          field: "context",
          code: "custom",
          message: `This SHA and context has reached the maximum number of statuses (${MAX_PER_CONTEXT}).`,
        },
      ]);
    const created = await tx.commitStatus.create({
      data: {
        repoId: repo.id,
        sha: commit,
        state: input.state,
        context,
        description: input.description ?? null,
        targetUrl: input.target_url ?? null,
        creatorId: actor.user.id,
      },
      select: statusSelect,
    });
    afterCommit(tx, () => announceStatusChange(repo.id, commit));
    await emitStatusEvent(tx, repo, actor, created);
    await enqueueCiFailure(tx, repo.id, commit, created.state, actor.user.id, `${context}: ${created.description ?? created.state}`);
    return created;
  });
  return row;
}
