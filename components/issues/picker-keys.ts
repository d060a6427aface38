"use client";
/**
 * The single-key property shortcuts of the issue page and the issue list (docs/ui.md "Keyboard
 * shortcuts", Linear's keys): `s` status, `p` priority, `a` assignee, `l` labels, `e` estimate,
 * `d` due date — each opens that picker (on the issue page: the sidebar's; on the list: the
 * bulk-edit bar's, for the selection or the focused row).
 */
import { useState } from "react";
import { useShortcuts } from "@/components/keyboard/use-shortcuts";
import type { OpenControl } from "./pickers";

export const PICKER_KEYS = [
  { key: "s", picker: "status", label: "Set status" },
  { key: "p", picker: "priority", label: "Set priority" },
  { key: "a", picker: "assignee", label: "Set assignee" },
  { key: "l", picker: "labels", label: "Set labels" },
  { key: "e", picker: "estimate", label: "Set estimate" },
  { key: "d", picker: "due", label: "Set due date" },
] as const;
export type PickerName = (typeof PICKER_KEYS)[number]["picker"];

/** One shortcut that opens a picker. */
export type PickerKey = { key: string; picker: PickerName; label: string };

/**
 * Which picker is open, the shortcuts that open them (while `enabled()` says so; `beforeOpen`
 * runs first, e.g. to show the bulk-edit bar), and `control(name)`: the open/onOpenChange
 * props for that picker. `keys` replaces PICKER_KEYS where a page gives some letters other
 * meanings (the triage queue, whose `a` accepts and `d` marks a duplicate).
 */
export function usePickerKeys(opts: {
  idPrefix: string;
  group: string;
  enabled: () => boolean;
  beforeOpen?: (name: PickerName) => void;
  keys?: readonly PickerKey[];
}) {
  const [open, setOpen] = useState<PickerName | null>(null);
  useShortcuts(
    (opts.keys ?? PICKER_KEYS).map((k) => ({
      id: `${opts.idPrefix}-${k.picker}`,
      keys: k.key,
      label: k.label,
      group: opts.group,
      when: opts.enabled,
      run: () => {
        opts.beforeOpen?.(k.picker);
        setOpen(k.picker);
      },
    })),
  );
  const control = (name: PickerName): Required<OpenControl> => ({
    open: open === name,
    onOpenChange: (o) => setOpen(o ? name : open === name ? null : open),
  });
  return { open, setOpen, control };
}
