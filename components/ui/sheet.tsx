"use client";
/**
 * A sheet: a Radix Dialog that slides over the page from the left edge, the full width of a phone
 * (at most 24rem from `sm` up) and the full height, for panels that sit beside the content on wide
 * screens (the diff's file tree). Focus is trapped inside, Escape and a click outside close it,
 * focus returns to the trigger. The body is a flex column: give the scrolling child `min-h-0 flex-1`.
 */
import { Dialog as D } from "radix-ui";
import { cx } from "./styles";
import { XIcon } from "./icons";

export const Sheet = D.Root;
export const SheetTrigger = D.Trigger;
export const SheetClose = D.Close;

/** The sheet's panel with its overlay and title bar (a close button); `children` fill the rest. */
export function SheetContent({
  title,
  children,
  className,
  testId,
  ...props
}: {
  title: React.ReactNode;
  children?: React.ReactNode;
  className?: string;
  testId?: string;
} & Omit<React.ComponentProps<typeof D.Content>, "title">) {
  return (
    <D.Portal>
      <D.Overlay className="fixed inset-0 z-50 bg-black/50" />
      <D.Content
        className={cx(
          "fixed inset-y-0 left-0 z-50 flex w-full flex-col border-r border-border bg-popover text-foreground shadow-xl focus:outline-none sm:max-w-sm",
          className,
        )}
        data-testid={testId}
        aria-describedby={undefined}
        {...props}
      >
        <div className="flex items-center gap-3 border-b border-border px-4 py-3">
          <D.Title className="min-w-0 flex-1 font-semibold">{title}</D.Title>
          <D.Close
            className="rounded p-1 text-subtle-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            aria-label="Close"
          >
            <XIcon />
          </D.Close>
        </div>
        {children}
      </D.Content>
    </D.Portal>
  );
}
