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

/** Colours offered to labels created from the picker, picked by name so a name keeps its colour. */
const LABEL_COLORS = ["#d73a4a", "#0075ca", "#a2eeef", "#7057ff", "#008672", "#e4e669", "#d876e3", "#f9a825", "#5319e7", "#0e8a16"];
export function labelColorFor(name: string): string {
  let h = 0;
  for (const ch of name.toLowerCase()) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return LABEL_COLORS[h % LABEL_COLORS.length];
}

/**
 * Multi-select of labels (checkboxes) with a filter box; `onToggle` gets the label and whether it
 * is now selected. With `onCreate`, a typed name that matches no label can be created (writers).
 */
export function LabelPicker({
  labels, selected, onToggle, onCreate, testId = "label-picker", disabled,
}: { labels: Label[]; selected: string[]; onToggle: (label: Label, on: boolean) => void; onCreate?: (name: string) => Promise<void>; testId?: string; disabled?: boolean }) {
  const [query, setQuery] = useState("");
  const [creating, setCreating] = useState(false);
  const chosen = labels.filter((l) => selected.includes(l.id));
  const q = query.trim().toLowerCase();
  const shown = q ? labels.filter((l) => l.name.toLowerCase().includes(q)) : labels;
  const exact = labels.some((l) => l.name.toLowerCase() === q);
  const create = async () => {
    if (!onCreate || !q || exact) return;
    setCreating(true);
    try {
      await onCreate(query.trim());
      setQuery("");
    } finally {
      setCreating(false);
    }
  };
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
      {() => (
        <>
          {(labels.length > 6 || onCreate) && (
            <div className="border-b border-slate-100 px-2 pb-1.5 pt-0.5">
              <input
                className="w-full rounded border border-slate-200 px-2 py-1 text-sm focus:border-emerald-500 focus:outline-none"
                placeholder={onCreate ? "Filter or create…" : "Filter labels"}
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    void create();
                  }
                }}
                aria-label="Filter labels"
                autoFocus
                data-testid="label-filter"
              />
            </div>
          )}
          {shown.map((l) => {
            const on = selected.includes(l.id);
            return (
              <label key={l.id} className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm hover:bg-slate-100" data-testid="label-option">
                <input type="checkbox" className="accent-emerald-600" checked={on} onChange={() => onToggle(l, !on)} />
                <span className="h-3 w-3 shrink-0 rounded-full" style={{ backgroundColor: l.color }} />
                <span className="truncate">{l.name}</span>
              </label>
            );
          })}
          {onCreate && q && !exact && (
            <button type="button" className="flex w-full items-center gap-2 px-3 py-1.5 text-left text-sm text-emerald-800 hover:bg-emerald-50" onClick={() => void create()} disabled={creating} data-testid="create-label">
              <span className="h-3 w-3 shrink-0 rounded-full" style={{ backgroundColor: labelColorFor(query.trim()) }} />
              {creating ? "Creating…" : <>Create label “{query.trim()}”</>}
            </button>
          )}
          {shown.length === 0 && !(onCreate && q) && <p className="px-3 py-2 text-sm text-slate-500">{labels.length ? "No matching labels." : "This repository has no labels yet."}</p>}
        </>
      )}
    </Popover>
  );
}

/**
 * A one-of-many picker (status, priority): the trigger shows `icon(value)` and the label
 * (data-testid `current-<name>`), the menu lists every option (`<name>-option-<key>`).
 */
export function OptionPicker<K extends string>({
  name, options, value, icon, disabled, onPick,
}: { name: string; options: readonly { key: K; label: string }[]; value: K; icon: (key: K) => React.ReactNode; disabled?: boolean; onPick: (key: K) => void }) {
  const current = options.find((o) => o.key === value);
  return (
    <Popover
      testId={`${name}-picker`}
      disabled={disabled}
      trigger={
        <>
          {icon(value)} <span data-testid={`current-${name}`}>{current?.label ?? value}</span>
        </>
      }
    >
      {(close) =>
        options.map((o) => (
          <MenuItem key={o.key} selected={o.key === value} testId={`${name}-option-${o.key}`} onSelect={() => (close(), onPick(o.key))}>
            {icon(o.key)} {o.label}
          </MenuItem>
        ))
      }
    </Popover>
  );
}
