"use client";
import { useEffect, useRef } from "react";
import { button, cx } from "./styles";

/**
 * A modal confirmation with Cancel and a (destructive) confirm button. Escape or the backdrop cancels.
 * Focus starts on the first input in `children` (e.g. a "type the name to confirm" field), else on Cancel;
 * `confirmDisabled` keeps the confirm button off until such a field is filled in correctly.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busy,
  confirmDisabled,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: React.ReactNode;
  confirmLabel: string;
  busy?: boolean;
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) (bodyRef.current?.querySelector("input") ?? cancelRef.current)?.focus();
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && !busy && onCancel();
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, busy, onCancel]);
  if (!open) return null;
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center p-4">
      <div className="absolute inset-0 bg-slate-900/50" onClick={() => !busy && onCancel()} aria-hidden="true" />
      <div role="dialog" aria-modal="true" aria-labelledby="confirm-title" className="relative w-full max-w-md rounded-lg bg-white shadow-xl" data-testid="confirm-dialog">
        <div className="border-b border-slate-200 px-5 py-3">
          <h2 id="confirm-title" className="font-semibold">
            {title}
          </h2>
        </div>
        <div ref={bodyRef} className="px-5 py-4 text-sm text-slate-700">
          {children}
        </div>
        <div className="flex justify-end gap-2 border-t border-slate-200 bg-slate-50 px-5 py-3">
          <button ref={cancelRef} type="button" className={button.secondary} onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" className={cx(button.danger)} onClick={onConfirm} disabled={busy || confirmDisabled} data-testid="confirm-button">
            {busy ? "Working…" : confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
