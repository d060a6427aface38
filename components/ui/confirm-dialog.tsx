"use client";
import { useRef } from "react";
import { Button } from "./button";
import { Dialog, DialogContent } from "./dialog";
import { FormError } from "./form-error";

/**
 * A modal confirmation (Radix Dialog: focus trapped, returned to the trigger, Escape cancels)
 * with Cancel and a destructive confirm button. Focus starts on the first input in `children`
 * (e.g. a "type the name to confirm" field), else on Cancel; `confirmDisabled` keeps the confirm
 * button off until such a field is filled in correctly. While `busy`, it cannot be dismissed.
 * `error` (the last attempt's failure) shows under `children`.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busy,
  confirmDisabled,
  error,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: React.ReactNode;
  confirmLabel: string;
  busy?: boolean;
  confirmDisabled?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  return (
    <Dialog open={open} onOpenChange={(o) => !o && !busy && onCancel()}>
      <DialogContent
        title={title}
        testId="confirm-dialog"
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          (bodyRef.current?.querySelector("input") ?? cancelRef.current)?.focus();
        }}
        onEscapeKeyDown={(e) => busy && e.preventDefault()}
        onPointerDownOutside={(e) => busy && e.preventDefault()}
        footer={
          <>
            <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button variant="danger" onClick={onConfirm} disabled={busy || confirmDisabled} data-testid="confirm-button">
              {busy ? "Working…" : confirmLabel}
            </Button>
          </>
        }
      >
        <div ref={bodyRef} className="text-muted-foreground">
          {children}
        </div>
        {error && (
          <div className="mt-3">
            <FormError message={error} />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
