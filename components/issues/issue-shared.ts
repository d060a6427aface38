"use client";
/** Types and the mutation runner shared by the issue page's parts (issue-view.tsx and friends). */
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";

export type RepoRef = { id: string; owner: string; name: string };
export type Me = { id: string; username: string } | null;
export type Assignee = { id: string; username: string; name: string | null };
/** Runs a mutation; on success calls `after` and refreshes the server data; false on failure. */
export type Run = (fn: () => Promise<unknown>, after?: () => void) => Promise<boolean>;
/** Titles and statuses of the issues the page links to (parent, relations), by number. */
export type Titles = Record<number, { title: string; status: string }>;
export type Client = ReturnType<typeof useTRPCClient>;

/**
 * Runs a mutation, shows its error (the server's message, in the banner above the page),
 * refreshes the server-rendered data on success inside a transition.
 */
export function useRunner() {
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
      startTransition(() => router.refresh());
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { run, error, busy, clearError: () => setError(null) };
}
