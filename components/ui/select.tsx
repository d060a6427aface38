"use client";
import { Select as S } from "radix-ui";
import { useField } from "./field";
import { CheckIcon, ChevronDownIcon } from "./icons";
import { cx } from "./styles";

export type SelectOption = { value: string; label: React.ReactNode; disabled?: boolean };

/**
 * A one-of-many select (Radix Select: arrow keys, typeahead, Escape). Inside a <Field> the
 * trigger takes the field's id and ARIA wiring. Radix forbids "" as an item value.
 */
export function Select({
  value,
  onValueChange,
  options,
  placeholder,
  disabled,
  className,
  testId,
  ariaLabel,
  name,
}: {
  value: string | undefined;
  onValueChange: (value: string) => void;
  options: SelectOption[];
  placeholder?: string;
  disabled?: boolean;
  className?: string;
  testId?: string;
  ariaLabel?: string;
  name?: string;
}) {
  const field = useField();
  return (
    <S.Root value={value} onValueChange={onValueChange} disabled={disabled} name={name}>
      <S.Trigger
        id={field?.id}
        aria-describedby={field?.describedBy}
        aria-invalid={field?.invalid || undefined}
        aria-label={ariaLabel}
        data-testid={testId}
        className={cx(
          "flex h-8 w-full items-center justify-between gap-2 rounded-md border border-input bg-card px-3 text-sm text-foreground shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-ring/40 disabled:opacity-60 data-[placeholder]:text-subtle-foreground",
          className,
        )}
      >
        <S.Value placeholder={placeholder} />
        <S.Icon>
          <ChevronDownIcon className="text-subtle-foreground" />
        </S.Icon>
      </S.Trigger>
      <S.Portal>
        <S.Content
          position="popper"
          sideOffset={4}
          className="z-50 max-h-[var(--radix-select-content-available-height)] min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-md border border-border bg-popover text-foreground shadow-lg"
        >
          <S.Viewport className="p-1">
            {options.map((o) => (
              <S.Item
                key={o.value}
                value={o.value}
                disabled={o.disabled}
                className="relative flex cursor-default select-none items-center rounded py-1.5 pl-7 pr-2 text-sm outline-none data-[disabled]:opacity-50 data-[highlighted]:bg-accent"
                data-testid={testId ? `${testId}-option-${o.value}` : undefined}
              >
                <S.ItemIndicator className="absolute left-2 inline-flex">
                  <CheckIcon className="text-primary" />
                </S.ItemIndicator>
                <S.ItemText>{o.label}</S.ItemText>
              </S.Item>
            ))}
          </S.Viewport>
        </S.Content>
      </S.Portal>
    </S.Root>
  );
}
