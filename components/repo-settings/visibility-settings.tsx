"use client";
/** Settings → Visibility: switch between public and private, after a confirmation (repos.update). */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { badge, cx } from "@/components/ui/styles";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError } from "@/components/ui/form-error";
import { LockIcon, RepoIcon } from "@/components/ui/icons";
import { useRefresh } from "./use-refresh";

export function VisibilitySettings({ repoId, fullName, isPrivate }: { repoId: string; fullName: string; isPrivate: boolean }) {
  const trpc = useTRPC();
  const update = useMutation(trpc.repos.update.mutationOptions());
  const { refresh, refreshing } = useRefresh();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();

  async function confirm() {
    setError(undefined);
    try {
      await update.mutateAsync({ repoId, isPrivate: !isPrivate });
      setConfirming(false);
      refresh();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const busy = update.isPending || refreshing;
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-foreground">
          This repository is
          <span
            className={cx(badge, isPrivate ? "border-warning-border bg-warning-muted text-warning" : "border-input text-muted-foreground")}
            data-testid="current-visibility"
          >
            {isPrivate ? <LockIcon className="mr-1 h-3! w-3!" /> : <RepoIcon className="mr-1 h-3! w-3!" />}
            {isPrivate ? "Private" : "Public"}
          </span>
        </p>
        <p className="mt-1 text-sm text-muted-foreground">
          {isPrivate
            ? "Only you, collaborators and site administrators can see and clone it."
            : "Anyone, signed in or not, can see and clone it. Only you and collaborators with write access can push."}
        </p>
      </div>
      <Button
        className="shrink-0"
        disabled={busy}
        onClick={() => {
          setError(undefined);
          setConfirming(true);
        }}
        data-testid="toggle-visibility"
      >
        {isPrivate ? <RepoIcon /> : <LockIcon />}
        {isPrivate ? "Make public" : "Make private"}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={isPrivate ? "Make this repository public?" : "Make this repository private?"}
        confirmLabel={isPrivate ? "Make public" : "Make private"}
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void confirm()}
      >
        {isPrivate ? (
          <p>
            Everyone will be able to see <strong>{fullName}</strong>, browse its code and clone it, including people who are not signed in.
          </p>
        ) : (
          <p>
            <strong>{fullName}</strong> will be hidden from everyone except you, its collaborators and site administrators. Existing clones
            elsewhere are not affected.
          </p>
        )}
        {error && (
          <div className="mt-3">
            <FormError message={error} />
          </div>
        )}
      </ConfirmDialog>
    </div>
  );
}
