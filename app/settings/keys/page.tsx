import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { SshKeysManager } from "@/components/settings/ssh-keys-manager";

export const metadata: Metadata = { title: "SSH keys" };

/** /settings/keys: the signed-in user's SSH keys for git over SSH (docs/ssh.md), with add and delete. */
export default async function SshKeysPage() {
  const actor = await getCurrentActor();
  if (!actor) redirect("/signin?callbackUrl=%2Fsettings%2Fkeys");
  const keys = await (await getServerCaller()).sshKeys.list();
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">SSH keys</h1>
      <p className="mt-1 text-sm text-muted-foreground">
        Keys that may clone and push over SSH as you, with your permissions. Compare a fingerprint with{" "}
        <code className="font-mono text-xs">ssh-keygen -lf ~/.ssh/id_ed25519.pub</code>.
      </p>
      <div className="mt-6">
        <SshKeysManager initialKeys={keys} />
      </div>
    </div>
  );
}
