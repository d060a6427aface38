"use client";
/** Settings → Danger zone: delete the repository after typing owner/name (repos.delete), then the dashboard. */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { TypeToConfirmField } from "./type-to-confirm";

export function DangerZone({ repoId, fullName }: { repoId: string; fullName: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const remove = useMutation(trpc.repos.delete.mutationOptions());
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string>();
  const [leaving, setLeaving] = useState(false);
  const matches = typed === fullName;
  const busy = remove.isPending || leaving;

  async function confirm() {
    if (!matches || busy) return;
    setError(undefined);
    try {
      await remove.mutateAsync({ repoId });
      setLeaving(true);
      router.push("/");
      router.refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium text-foreground">Delete this repository</p>
        <p className="mt-1 text-sm text-muted-foreground">Its git data, issues and collaborators are removed for good. There is no undo.</p>
      </div>
      <Button
        variant="dangerOutline"
        className="shrink-0"
        onClick={() => {
          setTyped("");
          setError(undefined);
          setOpen(true);
        }}
        data-testid="delete-repo"
      >
        Delete this repository
      </Button>
      <ConfirmDialog
        open={open}
        title={`Delete ${fullName}?`}
        confirmLabel="Delete this repository"
        busy={busy}
        confirmDisabled={!matches}
        onCancel={() => setOpen(false)}
        onConfirm={() => void confirm()}
      >
        <p>
          This permanently deletes <strong>{fullName}</strong>: every branch and commit on this server, its issues and its collaborators.
          Clones elsewhere are not affected.
        </p>
        <TypeToConfirmField
          id="delete-confirm"
          expected={fullName}
          value={typed}
          onChange={(v) => {
            setTyped(v);
            setError(undefined);
          }}
          onConfirm={() => void confirm()}
          busy={busy}
          error={error}
          testId="delete-confirm-input"
        />
      </ConfirmDialog>
    </div>
  );
}
