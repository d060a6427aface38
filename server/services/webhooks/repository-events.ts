/**
 * GitHub's `repository` webhook event for the changes a repository's own hooks can see
 * (docs/api.md "Webhooks"): `edited` (description, default branch), `privatized`, `publicized`
 * and `transferred`. Called by repos/update-repository.ts and repos/transfer-repository.ts inside
 * their transactions, so a refused or rolled-back change sends nothing. (`created` and `deleted`
 * go to organization hooks on GitHub; a repository's hooks do not exist yet, or go with it.)
 */
import type { Db } from "@/server/db";
import type { Tx } from "@/server/db/transaction";
import { emitWebhookEvent, type Sender } from "./emit-event";
import { userPayload } from "./payloads";

/** The repository actions svc sends. */
export type RepositoryAction = "edited" | "privatized" | "publicized" | "transferred";

/**
 * `repository` with `action` for `repoId`, `{action, changes?, repository, sender}`; `changes`
 * as GitHub sends it: edited → `{description?: {from}, default_branch?: {from}}`, transferred →
 * `{owner: {from: {user | organization: {login, id, type, html_url}}}}`. Returns the number of
 * deliveries written. Errors: emitWebhookEvent's.
 */
export function emitRepositoryEvent(
  client: Db | Tx,
  repoId: string,
  action: RepositoryAction,
  sender: Sender,
  changes?: Record<string, unknown>,
): Promise<number> {
  return emitWebhookEvent(client, { id: repoId }, "repository", action, sender, changes ? { changes } : {});
}

/** transferred's `changes` for the former owner `from` (a user, or an organization when `isOrg`). */
export function transferredFrom(from: { id: string; username: string; isOrg: boolean }): Record<string, unknown> {
  const owner = { ...userPayload(from), type: from.isOrg ? "Organization" : "User" };
  return { owner: { from: from.isOrg ? { organization: owner } : { user: owner } } };
}
