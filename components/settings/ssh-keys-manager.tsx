"use client";
/**
 * SSH keys (docs/ssh.md "Keys"): the signed-in user's keys on /settings/keys (sshKeys.*) and a
 * repository's deploy keys in its settings (repos.deployKeys.*) — a list with each key's title,
 * SHA256 fingerprint (as `ssh-keygen -lf` prints it), when it was added and last used, a delete
 * button that asks first, and a form to add a key (title, the public key line; deploy keys: allow write).
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/provider";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError } from "@/components/ui/form-error";
import { Input, Textarea } from "@/components/ui/input";
import { button, card, cx, hint, label } from "@/components/ui/styles";
import { fullDate, relativeTime } from "@/components/ui/format";
import { useConfirmRemove } from "@/components/repo-settings/use-confirm-remove";
import type { DeployKeyRecord, KeyRecord } from "@/server/services/ssh-keys/manage-keys";

type KeyRow = KeyRecord & { readOnly?: boolean };

/**
 * The keys with a Delete button each, which asks first (as GitHub does: a deleted key stops
 * working at once for every clone and script that uses it); `remove` deletes on confirm.
 */
function KeyRows({
  keys,
  remove,
  empty,
  what,
}: {
  keys: KeyRow[];
  remove: (key: KeyRow) => Promise<unknown>;
  empty: string;
  what: string;
}) {
  const removal = useConfirmRemove(remove);
  return (
    <>
      <KeyList keys={keys} busy={removal.busy} onDelete={removal.ask} empty={empty} />
      <ConfirmDialog {...removal.dialog} title={`Delete this ${what}?`} confirmLabel="Delete key">
        <p>
          <strong>{removal.target?.title}</strong> (<code className="font-mono text-xs">{removal.target?.fingerprint}</code>) will stop
          working at once: git over SSH with it is refused from then on. This cannot be undone; you can add the key again.
        </p>
      </ConfirmDialog>
    </>
  );
}

function KeyList({ keys, busy, onDelete, empty }: { keys: KeyRow[]; busy: boolean; onDelete: (key: KeyRow) => void; empty: string }) {
  return (
    <ul className={cx(card, "divide-y divide-border")} data-testid="ssh-keys">
      {keys.map((k) => (
        <li key={k.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3" data-testid="ssh-key-row">
          <div className="min-w-0">
            <div className="font-medium text-foreground">
              {k.title}
              {k.readOnly !== undefined && (
                <span className="ml-2 rounded-full bg-primary-muted px-2 py-0.5 text-xs font-medium text-primary">
                  {k.readOnly ? "read-only" : "read/write"}
                </span>
              )}
            </div>
            <code className="block truncate font-mono text-xs text-muted-foreground" data-testid="ssh-key-fingerprint">
              {k.fingerprint}
            </code>
            <div className="text-xs text-subtle-foreground">
              Added{" "}
              <time dateTime={k.createdAt} title={fullDate(k.createdAt)}>
                {relativeTime(k.createdAt)}
              </time>
              {" · "}
              {k.lastUsedAt ? (
                <>
                  last used{" "}
                  <time dateTime={k.lastUsedAt} title={fullDate(k.lastUsedAt)}>
                    {relativeTime(k.lastUsedAt)}
                  </time>
                </>
              ) : (
                "never used"
              )}
            </div>
          </div>
          <button type="button" className={button.dangerOutline} disabled={busy} onClick={() => onDelete(k)}>
            Delete
          </button>
        </li>
      ))}
      {keys.length === 0 && <li className="px-4 py-3 text-sm text-subtle-foreground">{empty}</li>}
    </ul>
  );
}

function AddKeyForm({
  busy,
  withWrite,
  onAdd,
}: {
  busy: boolean;
  withWrite?: boolean;
  onAdd: (v: { title: string; publicKey: string; readOnly: boolean }, reset: () => void) => void;
}) {
  const [title, setTitle] = useState("");
  const [publicKey, setPublicKey] = useState("");
  const [write, setWrite] = useState(false);
  const reset = () => {
    setTitle("");
    setPublicKey("");
    setWrite(false);
  };
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        onAdd({ title, publicKey, readOnly: !write }, reset);
      }}
    >
      <div>
        <label className={label} htmlFor="ssh-key-title">
          Title
        </label>
        <Input id="ssh-key-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={100} required />
      </div>
      <div>
        <label className={label} htmlFor="ssh-key-public">
          Public key
        </label>
        <Textarea
          id="ssh-key-public"
          value={publicKey}
          onChange={(e) => setPublicKey(e.target.value)}
          rows={3}
          className="font-mono text-xs"
          placeholder="ssh-ed25519 AAAA… you@example.com"
          required
        />
        <p className={hint}>The contents of your .pub file: ed25519, ECDSA, or RSA of at least 2048 bits.</p>
      </div>
      {withWrite && (
        <label className="flex items-center gap-2 text-sm text-foreground">
          <input type="checkbox" checked={write} onChange={(e) => setWrite(e.target.checked)} /> Allow write access (push)
        </label>
      )}
      <button type="submit" className={button.primary} disabled={busy} data-testid="add-ssh-key">
        Add key
      </button>
    </form>
  );
}

/** The signed-in user's SSH keys (/settings/keys). */
export function SshKeysManager({ initialKeys }: { initialKeys: KeyRecord[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery({ ...trpc.sshKeys.list.queryOptions(), initialData: initialKeys });
  const [error, setError] = useState<string>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.sshKeys.list.queryKey() });
  const add = useMutation({ ...trpc.sshKeys.add.mutationOptions(), onError: (e) => setError(e.message) });
  const del = useMutation(trpc.sshKeys.delete.mutationOptions());
  return (
    <div className="space-y-6">
      <FormError message={error} />
      <KeyRows keys={keys.data} remove={(k) => del.mutateAsync({ id: k.id }).then(refresh)} empty="No SSH keys yet." what="SSH key" />
      <AddKeyForm
        busy={add.isPending}
        onAdd={(v, reset) => {
          setError(undefined);
          add.mutate({ title: v.title, publicKey: v.publicKey }, { onSuccess: () => (reset(), void refresh()) });
        }}
      />
    </div>
  );
}

/** A repository's deploy keys (repository settings → Deploy keys; admins). */
export function DeployKeysManager({ repoId, initialKeys }: { repoId: string; initialKeys: DeployKeyRecord[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery({ ...trpc.repos.deployKeys.list.queryOptions({ repoId }), initialData: initialKeys });
  const [error, setError] = useState<string>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.repos.deployKeys.list.queryKey({ repoId }) });
  const add = useMutation({ ...trpc.repos.deployKeys.add.mutationOptions(), onError: (e) => setError(e.message) });
  const del = useMutation(trpc.repos.deployKeys.delete.mutationOptions());
  return (
    <div className="space-y-6">
      <FormError message={error} />
      <KeyRows
        keys={keys.data}
        remove={(k) => del.mutateAsync({ repoId, id: k.id }).then(refresh)}
        empty="No deploy keys."
        what="deploy key"
      />
      <AddKeyForm
        busy={add.isPending}
        withWrite
        onAdd={(v, reset) => {
          setError(undefined);
          add.mutate({ repoId, ...v }, { onSuccess: () => (reset(), void refresh()) });
        }}
      />
    </div>
  );
}
