"use client";
/**
 * The issue template dialog of Settings → Templates (docs/ui.md "Repository settings"): name, the
 * title and body a new issue starts with, its labels (checkboxes of the repository's labels) and
 * priority. Saved with the spec's issues.createTemplate / issues.updateTemplate; server messages
 * are shown as written.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input, Textarea } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { FormError } from "@/components/ui/form-error";
import { cx } from "@/components/ui/styles";
import { PRIORITIES, type Label, type Template } from "@/components/issues/model";
import { LabelChip } from "@/components/issues/ui";

type PriorityKey = (typeof PRIORITIES)[number]["key"];
/** Radix Select forbids "" as a value: this one means "no default priority". */
const UNSET = "unset";

export function TemplateDialog({
  repoId,
  template,
  labels,
  open,
  onOpenChange,
  onSaved,
}: {
  repoId: string;
  template: Template | null;
  labels: Label[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (t: Template, created: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && (
        <TemplateDialogBody repoId={repoId} template={template} labels={labels} onCancel={() => onOpenChange(false)} onSaved={onSaved} />
      )}
    </Dialog>
  );
}

function TemplateDialogBody({
  repoId,
  template,
  labels,
  onCancel,
  onSaved,
}: {
  repoId: string;
  template: Template | null;
  labels: Label[];
  onCancel: () => void;
  onSaved: (t: Template, created: boolean) => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.issues.createTemplate.mutationOptions());
  const update = useMutation(trpc.issues.updateTemplate.mutationOptions());
  const [name, setName] = useState(template?.name ?? "");
  const [title, setTitle] = useState(template?.title ?? "");
  const [body, setBody] = useState(template?.body ?? "");
  const [chosen, setChosen] = useState<string[]>(template?.labels ?? []);
  const [priority, setPriority] = useState<string>(template?.priority ?? UNSET);
  const [error, setError] = useState<string>();
  const [touched, setTouched] = useState(false);
  const busy = create.isPending || update.isPending;
  const nameError = touched && !name.trim() ? "Name is required" : undefined;

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setTouched(true);
    setError(undefined);
    if (!name.trim()) return;
    const fields = {
      name: name.trim(),
      title: title.trim() || null,
      body: body.trim() ? body : null,
      labels: chosen,
      priority: priority === UNSET ? null : (priority as PriorityKey),
    };
    try {
      const saved = template
        ? await update.mutateAsync({ templateId: template.id, ...fields })
        : await create.mutateAsync({ repoId, ...fields });
      onSaved(saved as Template, !template);
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const toggle = (labelName: string) => setChosen((c) => (c.includes(labelName) ? c.filter((n) => n !== labelName) : [...c, labelName]));
  return (
    <DialogContent
      title={template ? `Edit template ${template.name}` : "New issue template"}
      description="Choosing the template on the New issue page fills these fields in."
      testId="template-dialog"
      className="max-w-2xl!"
    >
      <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
        <FormError message={error} />
        <Field label="Template name" hint='Shown in the template menu, e.g. "Bug report".' error={nameError} required>
          <Input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} autoFocus data-testid="template-name" />
        </Field>
        <Field label="Issue title" hint="Optional starting title, e.g. [Bug]: ">
          <Input value={title} maxLength={256} onChange={(e) => setTitle(e.target.value)} data-testid="template-title" />
        </Field>
        <Field label="Body" hint="Markdown. Optional.">
          <Textarea
            value={body}
            rows={8}
            className="font-mono text-xs"
            onChange={(e) => setBody(e.target.value)}
            data-testid="template-body"
          />
        </Field>
        <fieldset>
          <legend className="text-sm font-medium text-foreground">Labels</legend>
          {labels.length === 0 ? (
            <p className="mt-1 text-xs text-subtle-foreground">This repository has no labels yet; create them under Labels.</p>
          ) : (
            <div className="mt-2 flex flex-wrap gap-2" data-testid="template-labels">
              {labels.map((l) => (
                <label
                  key={l.id}
                  className={cx(
                    "inline-flex cursor-pointer items-center gap-1.5 rounded-md border px-2 py-1 text-sm",
                    chosen.includes(l.name) ? "border-primary-border bg-primary-muted" : "border-border",
                  )}
                >
                  <input
                    type="checkbox"
                    checked={chosen.includes(l.name)}
                    onChange={() => toggle(l.name)}
                    className="accent-primary"
                    data-testid="template-label-option"
                  />
                  <LabelChip label={l} />
                </label>
              ))}
            </div>
          )}
        </fieldset>
        <Field label="Priority" className="max-w-xs">
          <Select
            value={priority}
            onValueChange={setPriority}
            testId="template-priority"
            options={[{ value: UNSET, label: "No default" }, ...PRIORITIES.map((p) => ({ value: p.key, label: p.label }))]}
          />
        </Field>
        <div className="flex justify-end gap-2 border-t border-border pt-4">
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={busy} data-testid="template-save">
            {busy ? "Saving…" : template ? "Save changes" : "Create template"}
          </Button>
        </div>
      </form>
    </DialogContent>
  );
}
