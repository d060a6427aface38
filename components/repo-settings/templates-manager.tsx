"use client";
/**
 * Settings → Templates (docs/ui.md "Repository settings"): the repository's issue templates with
 * what each fills in, Edit, Delete (confirmation) and New template — through the spec's
 * issues.createTemplate / updateTemplate / deleteTemplate; then a toast and a refresh of the server
 * data.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toast";
import { card, cx } from "@/components/ui/styles";
import { NoteIcon } from "@/components/ui/icons-planning";
import { LabelChip, PriorityIcon, priorityLabel } from "@/components/issues/ui";
import type { Label, Template } from "@/components/issues/model";
import { TemplateDialog } from "./template-form";
import { useRefresh } from "./use-refresh";
import { RowActions } from "./row-actions";

export function TemplatesManager({
  repoId,
  templates,
  labels,
  newIssueHref,
}: {
  repoId: string;
  templates: Template[];
  labels: Label[];
  newIssueHref: string;
}) {
  const trpc = useTRPC();
  const remove = useMutation(trpc.issues.deleteTemplate.mutationOptions());
  const { refresh } = useRefresh();
  const [editing, setEditing] = useState<Template | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const byName = new Map(labels.map((l) => [l.name.toLowerCase(), l]));

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync({ templateId: deleting.id });
      toast.success(`Template "${deleting.name}" deleted`);
      setDeleting(null);
      refresh();
    } catch (err) {
      toast.error(`Could not delete "${deleting.name}": ${errorMessage(err)}`);
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          {templates.length} template{templates.length === 1 ? "" : "s"} ·{" "}
          <a href={newIssueHref} className="font-medium text-primary hover:underline">
            Try them on the New issue page
          </a>
        </p>
        <Button
          variant="primary"
          onClick={() => {
            setEditing(null);
            setDialogOpen(true);
          }}
          data-testid="new-template"
        >
          New template
        </Button>
      </div>
      {templates.length === 0 ? (
        <div className={cx(card, "px-6 py-10 text-center")} data-testid="no-templates">
          <NoteIcon className="h-8! w-8! text-subtle-foreground" />
          <h3 className="mt-3 font-semibold">No issue templates yet</h3>
          <p className="mt-1 text-sm text-muted-foreground">
            A template pre-fills a new issue&apos;s title, body, labels and priority, e.g. for bug reports.
          </p>
        </div>
      ) : (
        <ul className={cx(card, "divide-y divide-border")} data-testid="templates-list">
          {templates.map((t) => (
            <li key={t.id} className="flex flex-wrap items-start gap-3 px-4 py-3" data-testid="template-row" data-name={t.name}>
              <div className="min-w-0 flex-1">
                <div className="break-words font-medium text-foreground" data-testid="template-row-name">
                  {t.name}
                </div>
                <div className="mt-0.5 break-words text-sm text-muted-foreground">
                  {t.title ? (
                    <>
                      Title: <span className="text-foreground">{t.title}</span>
                    </>
                  ) : (
                    "No title"
                  )}
                  {t.body ? ` · body of ${t.body.length} characters` : ""}
                </div>
                {(t.labels.length > 0 || t.priority) && (
                  <div className="mt-1.5 flex flex-wrap items-center gap-1.5">
                    {t.labels.map((n) => {
                      const l = byName.get(n.toLowerCase());
                      return l ? (
                        <LabelChip key={n} label={l} />
                      ) : (
                        <span key={n} className="text-xs text-subtle-foreground line-through" title="This label was deleted">
                          {n}
                        </span>
                      );
                    })}
                    {t.priority && (
                      <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
                        <PriorityIcon priority={t.priority} /> {priorityLabel(t.priority)}
                      </span>
                    )}
                  </div>
                )}
              </div>
              <div className="flex items-center gap-1">
                <RowActions
                  noun="template"
                  name={t.name}
                  onEdit={() => {
                    setEditing(t);
                    setDialogOpen(true);
                  }}
                  onDelete={() => setDeleting(t)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      <TemplateDialog
        repoId={repoId}
        template={editing}
        labels={labels}
        open={dialogOpen}
        onOpenChange={setDialogOpen}
        onSaved={(saved, created) => {
          setDialogOpen(false);
          toast.success(created ? `Template "${saved.name}" created` : `Template "${saved.name}" saved`);
          refresh();
        }}
      />
      <ConfirmDialog
        open={!!deleting}
        title={`Delete template "${deleting?.name ?? ""}"?`}
        confirmLabel="Delete template"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        Issues already created from it are not changed. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}
