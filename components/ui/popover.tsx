"use client";
import { Popover as P } from "radix-ui";
import { keepMovedFocus } from "./close-auto-focus";
import { cx } from "./styles";

/** Radix Popover: positioned next to its trigger, Escape / outside click close it, focus returns to the trigger. */
export const Popover = P.Root;
export const PopoverTrigger = P.Trigger;
export const PopoverAnchor = P.Anchor;
export const PopoverClose = P.Close;

export function PopoverContent({
  className,
  align = "start",
  sideOffset = 4,
  onCloseAutoFocus,
  ...props
}: React.ComponentProps<typeof P.Content>) {
  return (
    <P.Portal>
      <P.Content
        align={align}
        sideOffset={sideOffset}
        collisionPadding={8}
        className={cx(
          "z-50 max-h-[var(--radix-popover-content-available-height)] w-64 overflow-y-auto rounded-md border border-border bg-popover p-1 text-foreground shadow-lg focus:outline-none",
          className,
        )}
        onCloseAutoFocus={keepMovedFocus(onCloseAutoFocus)}
        {...props}
      />
    </P.Portal>
  );
}
