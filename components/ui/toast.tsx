"use client";
import { Toaster as Sonner, toast } from "sonner";

/**
 * The app's one toast region (app/layout.tsx): sonner, bottom right, an `aria-live` region so
 * screen readers hear each toast. Call `toast("Moved #3 to Done", { action: { label: "Undo", onClick } })`
 * from any client component; `toast.error(message)` for failures.
 */
export function Toaster() {
  return (
    <Sonner
      position="bottom-right"
      closeButton
      toastOptions={{
        classNames: {
          toast: "!bg-popover !text-foreground !border-border",
          description: "!text-muted-foreground",
          actionButton: "!bg-primary !text-primary-foreground",
          cancelButton: "!bg-muted !text-foreground",
          closeButton: "!bg-popover !text-foreground !border-border",
        },
      }}
    />
  );
}

export { toast };
