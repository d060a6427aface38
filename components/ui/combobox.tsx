"use client";
import { useState } from "react";
import { Popover, PopoverContent, PopoverTrigger } from "./popover";
import { Command, CommandEmpty, CommandInput, CommandItem, CommandList } from "./command";
import { CheckIcon, ChevronDownIcon } from "./icons";
import { cx } from "./styles";

export type ComboboxOption = { value: string; label: string; keywords?: string[]; icon?: React.ReactNode; hint?: React.ReactNode };

/**
 * A searchable one-of-many picker: a trigger button opening a popover with a filter box and the
 * options (cmdk: arrow keys, Enter, typing filters). `value` null shows `placeholder`.
 * With `onSearch`, filtering is the caller's (server-side search): `options` are shown as given
 * and `loading` shows progress. `allowClear` adds a "None" item that picks null.
 */
export function Combobox({
  options,
  value,
  onChange,
  placeholder = "Select…",
  searchPlaceholder = "Search…",
  emptyText = "No results.",
  onSearch,
  loading,
  allowClear,
  clearLabel = "None",
  disabled,
  testId,
  triggerClassName,
  renderValue,
  ariaLabel,
}: {
  options: ComboboxOption[];
  value: string | null;
  onChange: (value: string | null) => void;
  placeholder?: string;
  searchPlaceholder?: string;
  emptyText?: string;
  onSearch?: (query: string) => void;
  loading?: boolean;
  allowClear?: boolean;
  clearLabel?: string;
  disabled?: boolean;
  testId?: string;
  triggerClassName?: string;
  renderValue?: (option: ComboboxOption) => React.ReactNode;
  ariaLabel?: string;
}) {
  const [open, setOpen] = useState(false);
  const current = options.find((o) => o.value === value) ?? null;
  const pick = (v: string | null) => {
    onChange(v);
    setOpen(false);
  };
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        disabled={disabled}
        aria-label={ariaLabel}
        className={cx(
          "flex w-full items-center gap-2 rounded-md px-2 py-1 text-left text-sm text-foreground hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-default disabled:hover:bg-transparent",
          triggerClassName,
        )}
        data-testid={testId}
      >
        <span className="min-w-0 flex-1 truncate">
          {current ? (
            renderValue ? (
              renderValue(current)
            ) : (
              <>
                {current.icon} {current.label}
              </>
            )
          ) : (
            <span className="text-subtle-foreground">{placeholder}</span>
          )}
        </span>
        <ChevronDownIcon className="text-subtle-foreground" />
      </PopoverTrigger>
      <PopoverContent className="w-72 p-0" data-testid={testId ? `${testId}-menu` : undefined}>
        <Command shouldFilter={!onSearch}>
          <CommandInput placeholder={searchPlaceholder} onValueChange={onSearch} aria-label={searchPlaceholder} />
          <CommandList>
            {loading ? (
              <div className="px-2 py-3 text-center text-sm text-subtle-foreground">Searching…</div>
            ) : (
              <CommandEmpty>{emptyText}</CommandEmpty>
            )}
            {allowClear && value !== null && (
              <CommandItem value={`__none__ ${clearLabel}`} onSelect={() => pick(null)}>
                <span className="text-muted-foreground">{clearLabel}</span>
              </CommandItem>
            )}
            {options.map((o) => (
              <CommandItem
                key={o.value}
                value={`${o.label} ${o.value}`}
                keywords={o.keywords}
                onSelect={() => pick(o.value)}
                data-testid={testId ? `${testId}-option` : undefined}
              >
                {o.icon}
                <span className="min-w-0 flex-1 truncate">{o.label}</span>
                {o.hint && <span className="text-xs text-subtle-foreground">{o.hint}</span>}
                {o.value === value && <CheckIcon className="text-primary" />}
              </CommandItem>
            ))}
          </CommandList>
        </Command>
      </PopoverContent>
    </Popover>
  );
}
