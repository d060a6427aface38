/**
 * Who an SSH public key is (docs/ssh.md "Keys"): a user key names its user, who then acts with
 * their full repository permission (as a browser session); a deploy key names its repository.
 * Looked up by the key's SHA256 fingerprint (a fingerprint names at most one principal:
 * server/services/ssh-keys/manage-keys.ts).
 */
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { SCOPES } from "@/server/auth/scopes";
import { fingerprintOf } from "@/server/services/ssh-keys/parse-key";

export type SshPrincipal =
  | { kind: "user"; keyId: string; publicKey: string; actor: Actor }
  | { kind: "deploy"; keyId: string; publicKey: string; repoId: string; readOnly: boolean; title: string };

/** The principal of a key blob (wire format), or null for an unknown key. */
export async function principalOfKey(db: Db, blob: Buffer): Promise<SshPrincipal | null> {
  const fingerprint = fingerprintOf(blob);
  const key = await db.sshKey.findUnique({
    where: { fingerprint },
    include: { user: { select: { id: true, username: true, name: true, email: true, isAdmin: true } } },
  });
  if (key) {
    const actor: Actor = { user: key.user, via: "session", scopes: SCOPES };
    return { kind: "user", keyId: key.id, publicKey: key.publicKey, actor };
  }
  const deploy = await db.deployKey.findFirst({ where: { fingerprint } });
  if (deploy)
    return {
      kind: "deploy",
      keyId: deploy.id,
      publicKey: deploy.publicKey,
      repoId: deploy.repoId,
      readOnly: deploy.readOnly,
      title: deploy.title,
    };
  return null;
}

/** Records that a key was used now (best effort: a failure is logged). */
export async function touchKey(db: Db, principal: SshPrincipal): Promise<void> {
  try {
    const data = { lastUsedAt: new Date() };
    if (principal.kind === "user") await db.sshKey.update({ where: { id: principal.keyId }, data });
    else await db.deployKey.update({ where: { id: principal.keyId }, data });
  } catch (e) {
    console.error("recording an SSH key's last use failed", e);
  }
}
