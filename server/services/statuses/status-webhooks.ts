/**
 * The `status` and `check_run` webhook events (docs/api.md "Webhooks"), GitHub's payloads: `status`
 * carries the status's fields at the top level (`id, sha, name, state, context, description,
 * target_url, commit {sha}, branches, created_at, updated_at`; no `action`), `check_run` the run as
 * the REST API returns it under `check_run` with action `created` or `completed`.
 */
import type { Tx } from "@/server/db/transaction";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { emitWebhookEvent } from "@/server/services/webhooks/emit-event";
import { checkRunJson, statusJson } from "./github-shapes";
import type { CheckRunRow, CommitStatusRow } from "./rows";

const refOf = (repo: AuthorizedRepo) => ({ owner: repo.owner, name: repo.name, id: repo.id, isPrivate: repo.isPrivate });

/** Emits `status` for the new status `row` of `repo`, inside the transaction `tx` that wrote it (sent only if it commits). */
export async function emitStatusEvent(tx: Tx, repo: AuthorizedRepo, actor: Actor, row: CommitStatusRow): Promise<void> {
  await emitWebhookEvent(tx, repo, "status", null, actor.user, () => {
    const s = statusJson(refOf(repo), row);
    return Promise.resolve({
      id: s.id,
      sha: row.sha,
      name: `${repo.owner}/${repo.name}`,
      target_url: s.target_url,
      context: s.context,
      description: s.description,
      state: s.state,
      commit: { sha: row.sha },
      branches: [],
      created_at: s.created_at,
      updated_at: s.updated_at,
    });
  });
}

/** Emits `check_run` with `action` ("created", or "completed" when an update completes it) for `row` of `repo`, inside `tx`. */
export async function emitCheckRunEvent(
  tx: Tx,
  repo: AuthorizedRepo,
  actor: Actor,
  action: "created" | "completed",
  row: CheckRunRow,
): Promise<void> {
  await emitWebhookEvent(tx, repo, "check_run", action, actor.user, () => Promise.resolve({ check_run: checkRunJson(refOf(repo), row) }));
}
