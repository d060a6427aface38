"use client";
/**
 * Property pickers of the issue page and the new-issue form, on components/ui (Radix
 * DropdownMenu and Popover, cmdk Command): arrow keys, typeahead (menus) or type-to-filter
 * (lists), Enter picks, Escape closes and focus returns to the trigger. Test ids: the trigger is
 * `<name>-picker` with the current value in `current-<name>`; options are `<name>-option-<key>`.
 */
import { useState } from "react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Command, CommandEmpty, CommandInput, CommandItem, CommandList } from "@/components/ui/command";
import { Avatar } from "@/components/ui/avatar";
import { CheckIcon, ChevronDownIcon } from "@/components/ui/icons";
import { cx } from "@/components/ui/styles";
import type { Label } from "./model";
import { LabelChip } from "./ui";

/** Optional control of a picker's open state (the `s`/`p`/`a`/`l`/`e`/`d` shortcuts open pickers: components/issues/picker-keys.ts). */
export interface OpenControl {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/** A picker's open state: controlled by `ctl` when it passes `open`, else its own. */
export function useOpenState(ctl: OpenControl = {}): [boolean, (open: boolean) => void] {
  const [own, setOwn] = useState(false);
  const open = ctl.open ?? own;
  return [
    open,
    (o: boolean) => {
      setOwn(o);
      ctl.onOpenChange?.(o);
    },
  ];
}

/** The look of every picker trigger: a full-width, quiet button with a focus ring. */
export const triggerClass =
  "flex w-full min-w-0 items-center gap-2 rounded-md px-2 py-1 text-left text-sm text-foreground hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-default disabled:hover:bg-transparent data-[state=open]:bg-muted";

/** Colours offered to labels created from the picker, picked by name so a name keeps its colour. */
const LABEL_COLORS = ["#d73a4a", "#0075ca", "#a2eeef", "#7057ff", "#008672", "#e4e669", "#d876e3", "#f9a825", "#5319e7", "#0e8a16"];
/** A label colour for `name` (stable: the same name always gets the same colour). */
export function labelColorFor(name: string): string {
  let h = 0;
  for (const ch of name.toLowerCase()) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return LABEL_COLORS[h % LABEL_COLORS.length];
}

/**
 * A one-of-many menu (status, priority, estimate): Radix DropdownMenu with radio items, so arrow
 * keys and typeahead (first letters of an option) work. `onPick` gets the chosen key.
 */
export function OptionPicker<K extends string>({
  name,
  label,
  options,
  value,
  icon,
  disabled,
  onPick,
  placeholder,
  open,
  onOpenChange,
}: OpenControl & {
  name: string;
  /** Accessible name of the trigger, e.g. "Status". */
  label: string;
  options: readonly { key: K; label: string }[];
  value: K | null;
  icon?: (key: K) => React.ReactNode;
  disabled?: boolean;
  onPick: (key: K) => void;
  placeholder?: string;
}) {
  const current = options.find((o) => o.key === value);
  return (
    <DropdownMenu modal={false} open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger
        className={triggerClass}
        disabled={disabled}
        aria-label={`${label}: ${current?.label ?? placeholder ?? value ?? "none"}`}
        data-testid={`${name}-picker`}
      >
        {value !== null && icon?.(value)}
        <span className={cx("min-w-0 flex-1 truncate", !current && "text-subtle-foreground")} data-testid={`current-${name}`}>
          {current?.label ?? placeholder ?? value}
        </span>
        {!disabled && <ChevronDownIcon className="text-subtle-foreground" />}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-56" data-testid={`${name}-picker-menu`}>
        <DropdownMenuRadioGroup value={value ?? ""} onValueChange={(k) => onPick(k as K)}>
          {options.map((o) => (
            <DropdownMenuRadioItem key={o.key} value={o.key} textValue={o.label} data-testid={`${name}-option-${o.key}`}>
              {icon?.(o.key)} {o.label}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Story points offered by the estimate picker (Linear's exponential-ish scale); the API takes any number ≥ 0. */
export const ESTIMATE_POINTS = [0, 1, 2, 3, 5, 8, 13, 21] as const;

const points = (n: number) => `${n} point${n === 1 ? "" : "s"}`;

/** The estimate menu: the points scale plus "No estimate"; a value set elsewhere (e.g. 4 through the API) is listed too. */
export function EstimatePicker({
  value,
  disabled,
  onPick,
  ...ctl
}: OpenControl & {
  value: number | null;
  disabled?: boolean;
  onPick: (points: number | null) => void;
}) {
  const scale: number[] = [...ESTIMATE_POINTS];
  if (value !== null && !scale.includes(value)) {
    scale.push(value);
    scale.sort((a, b) => a - b);
  }
  const options = [
    ...scale.map((n) => ({ key: String(n), label: points(n) })),
    ...(value !== null ? [{ key: "none", label: "No estimate" }] : []),
  ];
  return (
    <OptionPicker
      name="estimate"
      label="Estimate"
      options={options}
      value={value === null ? null : String(value)}
      placeholder="No estimate"
      disabled={disabled}
      onPick={(k) => onPick(k === "none" ? null : Number(k))}
      {...ctl}
    />
  );
}

/**
 * Multi-select of labels: a popover with a filter box (cmdk: arrows, Enter toggles, the list stays
 * open). With `onCreate`, a typed name that matches no label can be created (writers).
 */
export function LabelPicker({
  labels,
  selected,
  onToggle,
  onCreate,
  testId = "label-picker",
  disabled,
  ...ctl
}: OpenControl & {
  labels: Label[];
  selected: string[];
  onToggle: (label: Label, on: boolean) => void;
  onCreate?: (name: string) => Promise<void>;
  testId?: string;
  disabled?: boolean;
}) {
  const [query, setQuery] = useState("");
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useOpenState(ctl);
  const chosen = labels.filter((l) => selected.includes(l.id));
  const q = query.trim();
  const exact = labels.some((l) => l.name.toLowerCase() === q.toLowerCase());
  const create = async () => {
    if (!onCreate || !q || exact) return;
    setCreating(true);
    try {
      await onCreate(q);
      setQuery("");
    } finally {
      setCreating(false);
    }
  };
  return (
    <Popover
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setQuery("");
      }}
    >
      <PopoverTrigger
        className={triggerClass}
        disabled={disabled}
        aria-label={`Labels: ${chosen.map((l) => l.name).join(", ") || "No labels"}`}
        data-testid={testId}
      >
        {chosen.length ? (
          <span className="flex min-w-0 flex-1 flex-wrap gap-1">
            {chosen.map((l) => (
              <LabelChip key={l.id} label={l} />
            ))}
          </span>
        ) : (
          <span className="flex-1 text-subtle-foreground">No labels</span>
        )}
        {!disabled && <ChevronDownIcon className="text-subtle-foreground" />}
      </PopoverTrigger>
      <PopoverContent className="w-64 p-0" data-testid={`${testId}-menu`}>
        <Command>
          <CommandInput
            value={query}
            onValueChange={setQuery}
            placeholder={onCreate ? "Filter or create…" : "Filter labels"}
            aria-label="Filter labels"
            data-testid="label-filter"
          />
          <CommandList>
            <CommandEmpty>{labels.length ? "No matching labels." : "This repository has no labels yet."}</CommandEmpty>
            {labels.map((l) => {
              const on = selected.includes(l.id);
              return (
                <CommandItem
                  key={l.id}
                  value={`${l.name} ${l.id}`}
                  onSelect={() => onToggle(l, !on)}
                  data-testid="label-option"
                  data-checked={on ? "true" : "false"}
                  aria-checked={on}
                >
                  <span
                    className={cx(
                      "flex h-4 w-4 shrink-0 items-center justify-center rounded border",
                      on ? "border-primary bg-primary text-primary-foreground" : "border-input",
                    )}
                  >
                    {on && <CheckIcon className="h-3! w-3!" />}
                  </span>
                  <span className="h-3 w-3 shrink-0 rounded-full" style={{ backgroundColor: l.color }} />
                  <span className="truncate">{l.name}</span>
                </CommandItem>
              );
            })}
            {onCreate && q && !exact && (
              <CommandItem
                value={`__create__ ${q}`}
                forceMount
                onSelect={() => void create()}
                disabled={creating}
                className="text-primary"
                data-testid="create-label"
              >
                <span className="h-3 w-3 shrink-0 rounded-full" style={{ backgroundColor: labelColorFor(q) }} />
                {creating ? "Creating…" : <>Create label “{q}”</>}
              </CommandItem>
            )}
          </CommandList>
        </Command>
      </PopoverContent>
    </Popover>
  );
}

export type Person = { id: string; username: string; name: string | null };

/** One person (or nobody) from `people` (the repository's assignees): type to filter by username or name. */
export function AssigneePicker({
  people,
  value,
  disabled,
  onPick,
  ...ctl
}: OpenControl & {
  people: Person[];
  value: { id: string; username: string } | null;
  disabled?: boolean;
  onPick: (person: Person | null) => void;
}) {
  const [open, setOpen] = useOpenState(ctl);
  const pick = (p: Person | null) => {
    setOpen(false);
    onPick(p);
  };
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        className={triggerClass}
        disabled={disabled}
        aria-label={`Assignee: ${value?.username ?? "no one"}`}
        data-testid="assignee-picker"
      >
        {value && <Avatar username={value.username} />}
        <span className={cx("min-w-0 flex-1 truncate", !value && "text-subtle-foreground")} data-testid="current-assignee">
          {value?.username ?? "No one"}
        </span>
        {!disabled && <ChevronDownIcon className="text-subtle-foreground" />}
      </PopoverTrigger>
      <PopoverContent className="w-64 p-0" data-testid="assignee-picker-menu">
        <Command>
          <CommandInput placeholder="Assign to…" aria-label="Filter people" />
          <CommandList>
            <CommandEmpty>No one matches.</CommandEmpty>
            {people.map((u) => (
              <CommandItem
                key={u.id}
                value={`${u.username} ${u.name ?? ""} ${u.id}`}
                onSelect={() => pick(u)}
                data-testid={`assignee-option-${u.username}`}
              >
                <Avatar username={u.username} />
                <span className="truncate">{u.username}</span>
                {u.name && <span className="truncate text-xs text-subtle-foreground">{u.name}</span>}
                {u.id === value?.id && <CheckIcon className="ml-auto text-primary" />}
              </CommandItem>
            ))}
            {value && (
              <CommandItem value="__none__ unassign no one" onSelect={() => pick(null)} data-testid="assignee-option-none">
                <span className="text-muted-foreground">Unassign</span>
              </CommandItem>
            )}
          </CommandList>
        </Command>
      </PopoverContent>
    </Popover>
  );
}
