"use client";
/** Types and the mutation runner shared by the issue page's parts (issue-view.tsx and friends). */
import type { useTRPCClient } from "@/components/trpc/provider";
import { useAction, type Run } from "@/components/trpc/use-action";

export type RepoRef = { id: string; owner: string; name: string };
export type Me = { id: string; username: string } | null;
export type Assignee = { id: string; username: string; name: string | null };
export type { Run };
/** Titles and statuses of the issues the page links to (parent, relations), by number. */
export type Titles = Record<number, { title: string; status: string }>;
export type Client = ReturnType<typeof useTRPCClient>;

/**
 * Runs a mutation, shows its error (the server's message, in the banner above the page),
 * refreshes the server-rendered data on success inside a transition (the shared runner,
 * components/trpc/use-action.ts, with `refresh`).
 */
export function useRunner() {
  return useAction({ refresh: true });
}
