"use client";
/** Dropdown pickers shared by the new-issue form and the issue sidebar. */
import { useRef, useState } from "react";
import { useDismiss } from "@/components/ui/use-dismiss";
import { cx } from "@/components/ui/styles";
import { CheckIcon } from "@/components/ui/icons";
import type { Label } from "./model";
import { LabelChip } from "./ui";

/** A button that opens a small menu; the menu closes on Escape or an outside click. */
export function Popover({
  trigger, children, testId, align = "left", disabled, className,
}: { trigger: React.ReactNode; children: (close: () => void) => React.ReactNode; testId?: string; align?: "left" | "right"; disabled?: boolean; className?: string }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useDismiss(ref, open, () => setOpen(false));
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        disabled={disabled}
        className={cx("flex w-full items-center gap-2 rounded-md px-2 py-1 text-left text-sm text-slate-800 hover:bg-slate-100 disabled:cursor-default disabled:hover:bg-transparent", className)}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid={testId}
      >
        {trigger}
      </button>
      {open && (
        <div role="menu" className={cx("absolute z-20 mt-1 max-h-72 w-56 overflow-y-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg", align === "right" ? "right-0" : "left-0")} data-testid={testId ? `${testId}-menu` : undefined}>
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}

export function MenuItem({ onSelect, selected, children, testId }: { onSelect: () => void; selected?: boolean; children: React.ReactNode; testId?: string }) {
  return (
    <button type="button" role="menuitem" className="flex w-full items-center gap-2 px-3 py-1.5 text-left text-sm text-slate-800 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none" onClick={onSelect} data-testid={testId}>
      {children}
      {selected && <CheckIcon className="ml-auto text-emerald-600" />}
    </button>
  );
}

/** Multi-select of labels (checkboxes); `onToggle` gets the label and whether it is now selected. */
export function LabelPicker({ labels, selected, onToggle, testId = "label-picker", disabled }: { labels: Label[]; selected: string[]; onToggle: (label: Label, on: boolean) => void; testId?: string; disabled?: boolean }) {
  const chosen = labels.filter((l) => selected.includes(l.id));
  return (
    <Popover
      testId={testId}
      disabled={disabled}
      trigger={
        chosen.length ? (
          <span className="flex flex-wrap gap-1">
            {chosen.map((l) => (
              <LabelChip key={l.id} label={l} />
            ))}
          </span>
        ) : (
          <span className="text-slate-500">No labels</span>
        )
      }
    >
      {() =>
        labels.length === 0 ? (
          <p className="px-3 py-2 text-sm text-slate-500">This repository has no labels yet.</p>
        ) : (
          labels.map((l) => {
            const on = selected.includes(l.id);
            return (
              <label key={l.id} className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm hover:bg-slate-100" data-testid="label-option">
                <input type="checkbox" className="accent-emerald-600" checked={on} onChange={() => onToggle(l, !on)} />
                <span className="h-3 w-3 shrink-0 rounded-full" style={{ backgroundColor: l.color }} />
                <span className="truncate">{l.name}</span>
              </label>
            );
          })
        )
      }
    </Popover>
  );
}
