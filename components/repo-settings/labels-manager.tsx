"use client";
/**
 * Settings → Labels (docs/ui.md "Repository settings"): the repository's labels with Edit and
 * Delete (confirmation), and New label — all through the spec's issues.createLabel / updateLabel /
 * deleteLabel. After a change the page's server data is refreshed (router.refresh) and a toast
 * confirms it.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toast";
import { card, cx } from "@/components/ui/styles";
import { TagIcon } from "@/components/ui/icons-planning";
import { LabelChip } from "@/components/issues/ui";
import { LabelDialog, type LabelRecord } from "./label-form";
import { useRefresh } from "./use-refresh";
import { RowActions } from "./row-actions";

export function LabelsManager({ repoId, labels, issuesHref }: { repoId: string; labels: LabelRecord[]; issuesHref: string }) {
  const trpc = useTRPC();
  const remove = useMutation(trpc.issues.deleteLabel.mutationOptions());
  const { refresh } = useRefresh();
  const [editing, setEditing] = useState<LabelRecord | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<LabelRecord | null>(null);

  const openNew = () => {
    setEditing(null);
    setDialogOpen(true);
  };

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync({ labelId: deleting.id });
      toast.success(`Label "${deleting.name}" deleted`);
      setDeleting(null);
      refresh();
    } catch (err) {
      toast.error(`Could not delete "${deleting.name}": ${errorMessage(err)}`);
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground" data-testid="labels-count">
          {labels.length} label{labels.length === 1 ? "" : "s"}
        </p>
        <Button variant="primary" onClick={openNew} data-testid="new-label">
          New label
        </Button>
      </div>
      {labels.length === 0 ? (
        <div className={cx(card, "px-6 py-10 text-center")} data-testid="no-labels">
          <TagIcon className="h-8! w-8! text-subtle-foreground" />
          <h3 className="mt-3 font-semibold">No labels yet</h3>
          <p className="mt-1 text-sm text-muted-foreground">Create labels such as bug, enhancement or docs to sort issues.</p>
        </div>
      ) : (
        <ul className={cx(card, "divide-y divide-border")} data-testid="labels-list">
          {labels.map((l) => (
            <li key={l.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3" data-testid="label-row" data-name={l.name}>
              <div className="w-full min-w-0 sm:w-48">
                <a
                  href={`${issuesHref}?label=${encodeURIComponent(l.name)}`}
                  className="inline-flex max-w-full rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  aria-label={`Issues labelled ${l.name}`}
                >
                  <LabelChip label={l} />
                </a>
              </div>
              <p className="min-w-0 flex-1 break-words text-sm text-muted-foreground" data-testid="label-row-description">
                {l.description || <span className="text-subtle-foreground">No description</span>}
              </p>
              <span className="font-mono text-xs text-subtle-foreground">{l.color}</span>
              <div className="ml-auto flex items-center gap-1">
                <RowActions
                  noun="label"
                  name={l.name}
                  onEdit={() => {
                    setEditing(l);
                    setDialogOpen(true);
                  }}
                  onDelete={() => setDeleting(l)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      <LabelDialog
        repoId={repoId}
        label={editing}
        open={dialogOpen}
        onOpenChange={setDialogOpen}
        onSaved={(saved, created) => {
          setDialogOpen(false);
          toast.success(created ? `Label "${saved.name}" created` : `Label "${saved.name}" saved`);
          refresh();
        }}
      />
      <ConfirmDialog
        open={!!deleting}
        title={`Delete label "${deleting?.name ?? ""}"?`}
        confirmLabel="Delete label"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        The label is removed from every issue that carries it (each issue&apos;s timeline records it). This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}
