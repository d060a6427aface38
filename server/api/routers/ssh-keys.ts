/**
 * SSH key routers (docs/ssh.md "Keys"): `sshKeys` — the caller's own keys (user:read to list,
 * user:write to change) — and `deployKeys`, mounted as `repos.deployKeys` — a repository's
 * deploy keys (repository admins). Services: server/services/ssh-keys/manage-keys.ts.
 */
import { router, authedProcedure, repoProcedure } from "../trpc";
import {
  addDeployKey,
  addDeployKeyInput,
  addSshKey,
  addSshKeyInput,
  deleteDeployKey,
  deleteKeyInput,
  deleteSshKey,
  listDeployKeys,
  listSshKeys,
} from "@/server/services/ssh-keys/manage-keys";

export const sshKeysRouter = router({
  /** → [{id, title, publicKey, fingerprint (SHA256:…), createdAt, lastUsedAt}] of the caller, newest first. */
  list: authedProcedure.query(({ ctx }) => listSshKeys(ctx.db, ctx.actor.user.id)),
  /** {title, publicKey} → key. BAD_REQUEST for a bad or refused key; CONFLICT when the key is in use anywhere. */
  add: authedProcedure.input(addSshKeyInput).mutation(({ ctx, input }) => addSshKey(ctx.db, ctx.actor.user.id, input)),
  /** {id} → {deleted: true}. NOT_FOUND unless the caller's key. */
  delete: authedProcedure.input(deleteKeyInput).mutation(({ ctx, input }) => deleteSshKey(ctx.db, ctx.actor.user.id, input.id)),
});

export const deployKeysRouter = router({
  /** {repoId} → [{id, title, publicKey, fingerprint, readOnly, createdAt, lastUsedAt}], newest first. */
  list: repoProcedure.query(({ ctx }) => listDeployKeys(ctx.db, ctx.repo.id)),
  /** {repoId, title, publicKey, readOnly (true)} → key. BAD_REQUEST / CONFLICT as sshKeys.add. */
  add: repoProcedure.input(addDeployKeyInput).mutation(({ ctx, input }) => addDeployKey(ctx.db, ctx.repo.id, input)),
  /** {repoId, id} → {deleted: true}. NOT_FOUND unless this repository's key. */
  delete: repoProcedure.input(deleteKeyInput).mutation(({ ctx, input }) => deleteDeployKey(ctx.db, ctx.repo.id, input.id)),
});
