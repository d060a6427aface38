"use client";
import { Dialog as D } from "radix-ui";
import { cx } from "./styles";
import { XIcon } from "./icons";

/** Radix Dialog: focus trapped inside, returned to the trigger on close, Escape and outside click close it. */
export const Dialog = D.Root;
export const DialogTrigger = D.Trigger;
export const DialogClose = D.Close;

/**
 * The dialog panel with its overlay, a title (required for screen readers) and an optional
 * description; `footer` renders in a bar at the bottom.
 */
export function DialogContent({
  title,
  description,
  children,
  footer,
  className,
  testId,
  ...props
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  children?: React.ReactNode;
  footer?: React.ReactNode;
  className?: string;
  testId?: string;
} & Omit<React.ComponentProps<typeof D.Content>, "title">) {
  return (
    <D.Portal>
      <D.Overlay className="fixed inset-0 z-50 bg-black/50" />
      <D.Content
        className={cx(
          "fixed left-1/2 top-[10vh] z-50 max-h-[80vh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 overflow-y-auto rounded-lg border border-border bg-popover text-foreground shadow-xl focus:outline-none",
          className,
        )}
        data-testid={testId}
        {...props}
      >
        <div className="flex items-start gap-3 border-b border-border px-5 py-3">
          <div className="min-w-0 flex-1">
            <D.Title className="font-semibold">{title}</D.Title>
            {description ? (
              <D.Description className="mt-0.5 text-sm text-muted-foreground">{description}</D.Description>
            ) : (
              <D.Description className="sr-only">{title}</D.Description>
            )}
          </div>
          <D.Close
            className="rounded p-1 text-subtle-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            aria-label="Close"
          >
            <XIcon />
          </D.Close>
        </div>
        {children && <div className="px-5 py-4 text-sm">{children}</div>}
        {footer && <div className="flex justify-end gap-2 border-t border-border bg-muted px-5 py-3">{footer}</div>}
      </D.Content>
    </D.Portal>
  );
}
