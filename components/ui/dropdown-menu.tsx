"use client";
import { DropdownMenu as M } from "radix-ui";
import { keepMovedFocus } from "./close-auto-focus";
import { cx } from "./styles";
import { CheckIcon } from "./icons";

/** Radix DropdownMenu: arrow keys, typeahead, Escape, focus return; items are `role=menuitem…`. */
export const DropdownMenu = M.Root;
export const DropdownMenuTrigger = M.Trigger;
export const DropdownMenuGroup = M.Group;
export const DropdownMenuRadioGroup = M.RadioGroup;

const item =
  "relative flex cursor-default select-none items-center gap-2 rounded px-2 py-1.5 text-sm text-foreground outline-none data-[disabled]:pointer-events-none data-[disabled]:opacity-50 data-[highlighted]:bg-accent";

export function DropdownMenuContent({
  className,
  align = "end",
  sideOffset = 4,
  onCloseAutoFocus,
  ...props
}: React.ComponentProps<typeof M.Content>) {
  return (
    <M.Portal>
      <M.Content
        align={align}
        sideOffset={sideOffset}
        collisionPadding={8}
        className={cx(
          "z-50 min-w-44 max-h-[var(--radix-dropdown-menu-content-available-height)] overflow-y-auto rounded-md border border-border bg-popover p-1 text-foreground shadow-lg",
          className,
        )}
        onCloseAutoFocus={keepMovedFocus(onCloseAutoFocus)}
        {...props}
      />
    </M.Portal>
  );
}

export function DropdownMenuItem({ className, ...props }: React.ComponentProps<typeof M.Item>) {
  return <M.Item className={cx(item, className)} {...props} />;
}

/** A menu item with a check mark (multi-select filters). */
export function DropdownMenuCheckboxItem({ className, children, ...props }: React.ComponentProps<typeof M.CheckboxItem>) {
  return (
    <M.CheckboxItem className={cx(item, "pl-7", className)} {...props}>
      <M.ItemIndicator className="absolute left-2 inline-flex">
        <CheckIcon className="text-primary" />
      </M.ItemIndicator>
      {children}
    </M.CheckboxItem>
  );
}

/** One choice of a DropdownMenuRadioGroup (sort order, theme). */
export function DropdownMenuRadioItem({ className, children, ...props }: React.ComponentProps<typeof M.RadioItem>) {
  return (
    <M.RadioItem className={cx(item, "pl-7", className)} {...props}>
      <M.ItemIndicator className="absolute left-2 inline-flex">
        <CheckIcon className="text-primary" />
      </M.ItemIndicator>
      {children}
    </M.RadioItem>
  );
}

export function DropdownMenuLabel({ className, ...props }: React.ComponentProps<typeof M.Label>) {
  return <M.Label className={cx("px-2 py-1.5 text-xs font-semibold text-subtle-foreground", className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: React.ComponentProps<typeof M.Separator>) {
  return <M.Separator className={cx("my-1 h-px bg-border", className)} {...props} />;
}
