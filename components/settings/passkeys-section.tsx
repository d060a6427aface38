"use client";
/**
 * Passkeys on Settings → Security (docs/security.md "Passkeys"): the signed-in user's passkeys
 * (users.passkeys.list) with name, when added and last used; "Add a passkey" (a name, then the
 * browser ceremony: registrationOptions → startRegistration → register), rename in place, and
 * remove after a confirmation (removing the last second factor turns two-factor off).
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { browserSupportsWebAuthn, startRegistration } from "@simplewebauthn/browser";
import { useTRPC } from "@/components/trpc/provider";
import { ceremonyError } from "@/components/auth/passkey-errors";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError } from "@/components/ui/form-error";
import { Input } from "@/components/ui/input";
import { button, card, cx, hint, label } from "@/components/ui/styles";
import { fullDate, relativeTime } from "@/components/ui/format";
import type { PasskeyView } from "@/server/services/passkeys/list-passkeys";

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={fullDate(iso)}>
      {relativeTime(iso)}
    </time>
  );
}

function PasskeyRow({
  passkey,
  busy,
  onRename,
  onRemove,
}: {
  passkey: PasskeyView;
  busy: boolean;
  onRename: (name: string, done: () => void) => void;
  onRemove: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const inputId = `passkey-name-${passkey.id}`;
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3" data-testid="passkey-row">
      {editing ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            onRename(name, () => setEditing(false));
          }}
        >
          <div>
            <label className={label} htmlFor={inputId}>
              Passkey name
            </label>
            <Input id={inputId} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required autoFocus />
          </div>
          <button type="submit" className={button.primary} disabled={busy}>
            Save
          </button>
          <button type="button" className={button.secondary} onClick={() => (setName(passkey.name), setEditing(false))}>
            Cancel
          </button>
        </form>
      ) : (
        <div className="min-w-0">
          <div className="font-medium text-foreground" data-testid="passkey-name">
            {passkey.name}
            {passkey.backedUp && (
              <span className="ml-2 rounded-full bg-primary-muted px-2 py-0.5 text-xs font-medium text-primary">synced</span>
            )}
          </div>
          <div className="text-xs text-subtle-foreground">
            Added <When iso={passkey.createdAt} />
            {" · "}
            {passkey.lastUsedAt ? (
              <>
                last used <When iso={passkey.lastUsedAt} />
              </>
            ) : (
              "never used"
            )}
          </div>
        </div>
      )}
      {!editing && (
        <div className="flex gap-2">
          <button type="button" className={button.secondary} disabled={busy} onClick={() => setEditing(true)}>
            Rename<span className="sr-only"> {passkey.name}</span>
          </button>
          <button type="button" className={button.dangerOutline} disabled={busy} onClick={onRemove}>
            Remove<span className="sr-only"> {passkey.name}</span>
          </button>
        </div>
      )}
    </li>
  );
}

/** The signed-in user's passkeys, `initialPasskeys` as the server rendered them. */
export function PasskeysSection({ initialPasskeys }: { initialPasskeys: PasskeyView[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const passkeys = useQuery({ ...trpc.users.passkeys.list.queryOptions(), initialData: initialPasskeys });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.users.passkeys.list.queryKey() });
  const [error, setError] = useState<string>();
  const [name, setName] = useState("");
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PasskeyView | null>(null);
  const options = useMutation(trpc.users.passkeys.registrationOptions.mutationOptions());
  const register = useMutation(trpc.users.passkeys.register.mutationOptions());
  const rename = useMutation({ ...trpc.users.passkeys.rename.mutationOptions(), onSuccess: refresh, onError: (e) => setError(e.message) });
  const remove = useMutation({
    ...trpc.users.passkeys.delete.mutationOptions(),
    onSuccess: () => (setRemoving(null), void refresh()),
    onError: (e) => (setRemoving(null), setError(e.message)),
  });

  async function add(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!name.trim()) return setError("name the passkey, e.g. the device it is on");
    if (!browserSupportsWebAuthn()) return setError("this browser does not support passkeys");
    setAdding(true);
    try {
      const optionsJSON = await options.mutateAsync();
      const response = await startRegistration({ optionsJSON });
      await register.mutateAsync({ name: name.trim(), response });
      setName("");
      await refresh();
    } catch (err) {
      setError(ceremonyError(err));
    } finally {
      setAdding(false);
    }
  }

  return (
    <section aria-labelledby="passkeys-heading" className="space-y-4" data-testid="passkeys-section">
      <div>
        <h2 id="passkeys-heading" className="text-lg font-semibold">
          Passkeys
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Passkeys and security keys sign you in without a password, and count as your second factor after a password sign-in.
        </p>
      </div>
      <FormError message={error} />
      <ul className={cx(card, "divide-y divide-border")} data-testid="passkeys">
        {passkeys.data.map((p) => (
          <PasskeyRow
            key={p.id}
            passkey={p}
            busy={rename.isPending || remove.isPending}
            onRename={(newName, done) => {
              setError(undefined);
              rename.mutate({ id: p.id, name: newName }, { onSuccess: done });
            }}
            onRemove={() => setRemoving(p)}
          />
        ))}
        {passkeys.data.length === 0 && <li className="px-4 py-3 text-sm text-subtle-foreground">No passkeys yet.</li>}
      </ul>
      <form className="flex flex-wrap items-end gap-2" onSubmit={add}>
        <div className="min-w-64 flex-1">
          <label className={label} htmlFor="new-passkey-name">
            New passkey name
          </label>
          <Input id="new-passkey-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} placeholder="e.g. Laptop" />
          <p className={hint}>Your browser then asks for the passkey or security key.</p>
        </div>
        <button type="submit" className={button.primary} disabled={adding} data-testid="add-passkey">
          {adding ? "Waiting for your passkey…" : "Add a passkey"}
        </button>
      </form>
      <ConfirmDialog
        open={removing !== null}
        title="Remove passkey"
        confirmLabel="Remove"
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ id: removing.id })}
      >
        <p>
          Remove <strong>{removing?.name}</strong>? It can no longer sign you in. If it is your last second factor, two-factor
          authentication turns off.
        </p>
      </ConfirmDialog>
    </section>
  );
}
