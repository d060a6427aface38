"use client";
/**
 * The one mutation runner of the client components (issue pages, pull request pages, review
 * threads): a busy flag, the last error's message (the server's AppError message, for a
 * FormError or a banner) and `run`. With `{ refresh: true }` a success also re-renders the
 * server components of the page (router.refresh inside a transition) — for parts whose data comes
 * from the server; parts that keep their own state (the Files tab's threads) refetch instead.
 */
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { errorMessage } from "./provider";

/** Runs a mutation; on success calls `after` (then refreshes, when asked); false on failure. */
export type Run = (fn: () => Promise<unknown>, after?: () => void) => Promise<boolean>;

export interface Action {
  /** true while a `run` is under way. */
  busy: boolean;
  /** The last failure's message; null after a success or `clearError`. */
  error: string | null;
  run: Run;
  clearError: () => void;
}

/** `refresh`: router.refresh() after each success (default false). */
export function useAction({ refresh = false }: { refresh?: boolean } = {}): Action {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [, startTransition] = useTransition();
  const run: Run = async (fn, after) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      after?.();
      if (refresh) startTransition(() => router.refresh());
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clearError: () => setError(null) };
}
