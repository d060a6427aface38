"use client";
/**
 * Saved views on the issue list (editable views; docs/ui.md "Issues"): save the current search as a
 * new view; on an open view, its query stays in the search box and the menus, and once refined it
 * can be saved back (issues.updateView), saved as a new view, reset, or the view deleted. Views
 * store the query as `filters.q` plus the spec fields it expresses (query-state.ts viewFromQuery).
 */
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError } from "@/components/ui/form-error";
import { listHref, viewFromQuery } from "./query-state";

/** A name box and Save / Cancel; `onSave(name)`. */
function NameForm({
  busy,
  error,
  onSave,
  onCancel,
  submitLabel,
}: {
  busy: boolean;
  error: string | null;
  onSave: (name: string) => void;
  onCancel: () => void;
  submitLabel: string;
}) {
  const [name, setName] = useState("");
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) onSave(name.trim());
      }}
    >
      <Input
        className="w-48! py-1!"
        placeholder="View name"
        value={name}
        maxLength={100}
        onChange={(e) => setName(e.target.value)}
        autoFocus
        aria-label="View name"
        data-testid="view-name-input"
      />
      <Button type="submit" variant="primary" size="sm" disabled={!name.trim() || busy} data-testid="view-save-submit">
        {submitLabel}
      </Button>
      <Button variant="ghost" size="sm" onClick={onCancel}>
        Cancel
      </Button>
      {error && <FormError message={error} />}
    </form>
  );
}

/** "Save as view": creates a view from the search query `q` and opens it. */
export function SaveViewButton({
  repoId,
  q,
  base,
  label = "+ Save as view",
  testId = "save-view",
}: {
  repoId: string;
  q: string;
  base: string;
  label?: string;
  testId?: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const create = useMutation(
    trpc.issues.createView.mutationOptions({
      onSuccess: (view) => {
        setOpen(false);
        router.push(listHref(base, { view: view.id }));
        router.refresh();
      },
    }),
  );
  if (!open) {
    return (
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)} data-testid={testId}>
        {label}
      </Button>
    );
  }
  return (
    <NameForm
      submitLabel="Save view"
      busy={create.isPending}
      error={create.error ? errorMessage(create.error) : null}
      onCancel={() => setOpen(false)}
      onSave={(name) => create.mutate({ repoId, name, ...viewFromQuery(q) })}
    />
  );
}

/**
 * The open view's actions. `modified`: the box differs from the saved query, so Save (back into
 * this view) and Reset appear.
 */
export function ViewActions({
  repoId,
  viewId,
  name,
  q,
  base,
  modified,
}: {
  repoId: string;
  viewId: string;
  name: string;
  q: string;
  base: string;
  modified: boolean;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const update = useMutation(
    trpc.issues.updateView.mutationOptions({
      onSuccess: () => {
        router.push(listHref(base, { view: viewId }));
        router.refresh();
      },
    }),
  );
  const del = useMutation(
    trpc.issues.deleteView.mutationOptions({
      onSuccess: () => {
        router.push(base);
        router.refresh();
      },
    }),
  );
  return (
    <div className="ml-auto flex flex-wrap items-center gap-2">
      {modified && (
        <>
          <Button
            variant="primary"
            size="sm"
            disabled={update.isPending}
            onClick={() => update.mutate({ viewId, ...viewFromQuery(q) })}
            data-testid="view-update"
          >
            Save changes
          </Button>
          <Button variant="ghost" size="sm" onClick={() => router.push(listHref(base, { view: viewId }))} data-testid="view-reset">
            Reset
          </Button>
        </>
      )}
      <SaveViewButton repoId={repoId} q={q} base={base} label="Save as new view" testId="view-save-as" />
      <Button
        variant="ghost"
        size="sm"
        className="text-muted-foreground hover:text-danger"
        onClick={() => setConfirming(true)}
        data-testid="delete-view"
      >
        Delete view
      </Button>
      {update.error && <FormError message={errorMessage(update.error)} />}
      <ConfirmDialog
        open={confirming}
        title="Delete view"
        confirmLabel="Delete view"
        busy={del.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => del.mutate({ viewId })}
      >
        <p>
          Delete the view <strong>{name}</strong>? Its issues are not affected.
        </p>
        {del.error && <FormError message={errorMessage(del.error)} />}
      </ConfirmDialog>
    </div>
  );
}
