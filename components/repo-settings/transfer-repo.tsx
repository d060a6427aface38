"use client";
/**
 * Settings → Danger zone → Transfer (repos.transfer; docs/orgs.md "Transferring a repository"):
 * pick the new owner (the caller, or an organization where they may create repositories), type
 * the repository's name to confirm, then go to the repository at its new path.
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { TypeToConfirmField } from "./type-to-confirm";
import { NativeSelect } from "@/components/ui/input";

export function TransferRepo({ repoId, name, fullName, owners }: { repoId: string; name: string; fullName: string; owners: string[] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const transfer = useMutation(trpc.repos.transfer.mutationOptions());
  const [open, setOpen] = useState(false);
  const [newOwner, setNewOwner] = useState(owners[0] ?? "");
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string>();
  const [leaving, setLeaving] = useState(false);
  const matches = typed === name && newOwner !== "";
  const busy = transfer.isPending || leaving;

  async function confirm() {
    if (!matches || busy) return;
    setError(undefined);
    try {
      const moved = await transfer.mutateAsync({ repoId, newOwner });
      setLeaving(true);
      router.push(`/${encodeURIComponent(moved.owner)}/${encodeURIComponent(moved.name)}`);
      router.refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium text-foreground">Transfer ownership</p>
        <p className="mt-1 text-sm text-muted-foreground">
          {owners.length
            ? "Move this repository to yourself or to an organization where you may create repositories. Links, clones and API calls to the old path are redirected."
            : "You may not create repositories in any other account, so there is nowhere to transfer it to."}
        </p>
      </div>
      <Button
        variant="dangerOutline"
        className="shrink-0"
        disabled={!owners.length}
        onClick={() => {
          setTyped("");
          setError(undefined);
          setNewOwner(owners[0] ?? "");
          setOpen(true);
        }}
        data-testid="transfer-repo"
      >
        Transfer
      </Button>
      <ConfirmDialog
        open={open}
        title={`Transfer ${fullName}`}
        confirmLabel="Transfer this repository"
        busy={busy}
        confirmDisabled={!matches}
        onCancel={() => setOpen(false)}
        onConfirm={() => void confirm()}
      >
        <p>
          The new owner&apos;s members get access as its settings say; team access from the current organization is removed, collaborators
          stay.
        </p>
        <Field className="mt-4" id="transfer-owner" label="New owner">
          <NativeSelect value={newOwner} disabled={busy} onChange={(e) => setNewOwner(e.target.value)} data-testid="transfer-owner">
            {owners.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <TypeToConfirmField
          id="transfer-confirm"
          expected={name}
          value={typed}
          onChange={(v) => {
            setTyped(v);
            setError(undefined);
          }}
          onConfirm={() => void confirm()}
          busy={busy}
          error={error}
          testId="transfer-confirm-input"
        />
      </ConfirmDialog>
    </div>
  );
}
