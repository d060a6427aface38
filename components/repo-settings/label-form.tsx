"use client";
/**
 * The label dialog of Settings → Labels (docs/ui.md "Repository settings"): name, colour (preset
 * swatches, a native colour picker and a #rrggbb field, with a live preview chip) and description.
 * Creates through issues.createLabel or edits through issues.updateLabel; server messages (CONFLICT
 * "a label named … exists") are shown on the field they concern.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";
import { cx } from "@/components/ui/styles";
import { LabelChip } from "@/components/issues/ui";
import { labelColorFor } from "@/components/issues/pickers";

export interface LabelRecord {
  id: string;
  name: string;
  color: string;
  description: string | null;
}

/** Preset colours (GitHub's defaults and a few more), in a row of swatches. */
export const LABEL_PRESETS = [
  "#d73a4a",
  "#e99695",
  "#f9a825",
  "#e4e669",
  "#0e8a16",
  "#008672",
  "#a2eeef",
  "#0075ca",
  "#1d76db",
  "#5319e7",
  "#7057ff",
  "#d876e3",
  "#bfdadc",
  "#cfd3d7",
  "#6a737d",
  "#000000",
];

const HEX = /^#[0-9a-f]{6}$/i;

/** A #rrggbb colour from what was typed ("fff000" → "#fff000"), or null when it is not one. */
export function normalizeColor(value: string): string | null {
  const v = value.trim().startsWith("#") ? value.trim() : `#${value.trim()}`;
  return HEX.test(v) ? v.toLowerCase() : null;
}

export function LabelDialog({
  repoId,
  label,
  open,
  onOpenChange,
  onSaved,
}: {
  repoId: string;
  label: LabelRecord | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (label: LabelRecord, created: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && <LabelDialogBody repoId={repoId} label={label} onCancel={() => onOpenChange(false)} onSaved={onSaved} />}
    </Dialog>
  );
}

function LabelDialogBody({
  repoId,
  label,
  onCancel,
  onSaved,
}: {
  repoId: string;
  label: LabelRecord | null;
  onCancel: () => void;
  onSaved: (label: LabelRecord, created: boolean) => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.issues.createLabel.mutationOptions());
  const update = useMutation(trpc.issues.updateLabel.mutationOptions());
  const [name, setName] = useState(label?.name ?? "");
  const [colorText, setColorText] = useState(label?.color ?? LABEL_PRESETS[7]);
  const [description, setDescription] = useState(label?.description ?? "");
  const [error, setError] = useState<string>();
  const [touched, setTouched] = useState(false);
  const color = normalizeColor(colorText);
  const busy = create.isPending || update.isPending;
  const nameError = error && /label named|name/i.test(error) ? error : touched && !name.trim() ? "Name is required" : undefined;
  const colorError = error && /color/i.test(error) ? error : touched && !color ? "Use a colour like #1d76db" : undefined;
  const otherError = error && error !== nameError && error !== colorError ? error : undefined;

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setTouched(true);
    setError(undefined);
    if (!name.trim() || !color) return;
    const fields = { name: name.trim(), color, description: description.trim() };
    try {
      const saved = label
        ? await update.mutateAsync({ labelId: label.id, ...fields, description: fields.description || null })
        : await create.mutateAsync({ repoId, ...fields, description: fields.description || undefined });
      onSaved(saved as LabelRecord, !label);
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <DialogContent
      title={label ? `Edit label ${label.name}` : "New label"}
      description="Labels sort issues by kind, area or anything else; every issue page and list shows them."
      testId="label-dialog"
    >
      <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
        <FormError message={otherError} />
        <div
          className="flex min-h-8 items-center gap-2 rounded-md border border-dashed border-border bg-muted/50 px-3 py-2"
          data-testid="label-preview"
        >
          <span className="text-xs text-subtle-foreground">Preview</span>
          <LabelChip label={{ name: name.trim() || "Label preview", color: color ?? "#cfd3d7", description: null }} />
        </div>
        <Field label="Name" error={nameError} required>
          <Input value={name} maxLength={50} onChange={(e) => setName(e.target.value)} autoFocus data-testid="label-name" />
        </Field>
        <Field label="Colour" hint="Pick a preset, use the colour picker, or type a hex colour." error={colorError}>
          <div className="flex flex-wrap items-center gap-2">
            <input
              type="color"
              aria-label="Colour picker"
              value={color ?? "#cfd3d7"}
              onChange={(e) => setColorText(e.target.value)}
              className="h-8 w-10 cursor-pointer rounded-md border border-input bg-card p-0.5"
            />
            <Input
              value={colorText}
              maxLength={7}
              className="w-28! font-mono"
              onChange={(e) => setColorText(e.target.value)}
              data-testid="label-color"
            />
            <Button variant="ghost" size="sm" onClick={() => setColorText(labelColorFor(`${name}${Math.random()}`))}>
              Random
            </Button>
          </div>
        </Field>
        <div role="group" aria-label="Preset colours" className="flex flex-wrap gap-1.5" data-testid="label-presets">
          {LABEL_PRESETS.map((p) => (
            <button
              key={p}
              type="button"
              aria-label={`Use colour ${p}`}
              aria-pressed={color === p}
              onClick={() => setColorText(p)}
              className={cx(
                "h-6 w-6 rounded-md border border-border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1",
                color === p && "ring-2 ring-foreground ring-offset-1 ring-offset-background",
              )}
              style={{ backgroundColor: p }}
              data-testid={`label-preset-${p.slice(1)}`}
            />
          ))}
        </div>
        <Field label="Description" hint="Optional; shown when hovering the label. Up to 100 characters.">
          <Input value={description} maxLength={100} onChange={(e) => setDescription(e.target.value)} data-testid="label-description" />
        </Field>
        <div className="flex justify-end gap-2 border-t border-border pt-4">
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={busy} data-testid="label-save">
            {busy ? "Saving…" : label ? "Save changes" : "Create label"}
          </Button>
        </div>
      </form>
    </DialogContent>
  );
}
