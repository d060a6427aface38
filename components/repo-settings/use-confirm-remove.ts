"use client";
import { useState } from "react";
import { errorMessage } from "@/components/trpc/provider";
import { useRefresh } from "./use-refresh";

/** What a settings list needs to delete one of its rows through a ConfirmDialog. */
export interface ConfirmRemove<T> {
  /** The row waiting for confirmation (the dialog is open), or null. */
  target: T | null;
  /** Opens the dialog for `row` (clearing the last error). */
  ask: (row: T) => void;
  /** The last failure's message (the server's AppError message). */
  error?: string;
  /** The delete or the refresh after it is under way. */
  busy: boolean;
  /** Spread onto ConfirmDialog: open, busy, error, onCancel, onConfirm. */
  dialog: { open: boolean; busy: boolean; error?: string; onCancel: () => void; onConfirm: () => void };
}

/**
 * The confirm-then-delete flow of the repository settings lists (collaborators, AI keys): `remove`
 * runs on confirm; success closes the dialog and re-renders the page's server data
 * (useRefresh); failure keeps it open with the message.
 */
export function useConfirmRemove<T>(remove: (row: T) => Promise<unknown>): ConfirmRemove<T> {
  const { refresh, refreshing } = useRefresh();
  const [target, setTarget] = useState<T | null>(null);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  async function confirm() {
    if (target === null) return;
    setError(undefined);
    setPending(true);
    try {
      await remove(target);
      setTarget(null);
      refresh();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  }
  const busy = pending || refreshing;
  return {
    target,
    ask: (row) => (setError(undefined), setTarget(row)),
    error,
    busy,
    dialog: { open: target !== null, busy, error, onCancel: () => setTarget(null), onConfirm: () => void confirm() },
  };
}
