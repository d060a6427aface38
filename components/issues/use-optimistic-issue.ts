"use client";
/**
 * Optimistic updates with rollback for the issue page's properties (issue #7): a change shows at
 * once (an override on top of the server-rendered issue); on success the page data is refreshed
 * (`router.refresh()` in a transition) and the override is dropped only when that transition has
 * committed, so the new server value replaces it without flashing the old one; on failure the
 * override is dropped at once (the old value returns) and `toast.error` shows the server's message.
 * Overlapping changes of one field: only the latest one's outcome touches the override.
 */
import { useEffect, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { errorMessage } from "@/components/trpc/provider";
import { toast } from "@/components/ui/toast";
import { stateForStatus } from "@/server/services/issues/model";
import type { IssueDetail } from "./model";

/** The fields a property picker changes. */
export type IssuePatch = Partial<Pick<IssueDetail, "status" | "state" | "priority" | "labels" | "assigneeId" | "assignee" | "dueDate" | "estimate">>;
type Key = keyof IssuePatch;

/**
 * `view`: the issue with pending changes applied. `change(patch, mutation, what)` applies `patch`
 * (a function of the current view for labels), runs `mutation`, and settles as described above;
 * `what` names the change in the error toast ("Could not change priority: …"). Resolves to success.
 */
export function useOptimisticIssue(issue: IssueDetail) {
  const router = useRouter();
  const [overrides, setOverrides] = useState<IssuePatch>({});
  const seq = useRef(0);
  const latest = useRef<Partial<Record<Key, number>>>({});
  const settled = useRef(new Set<Key>());
  const [refreshing, startTransition] = useTransition();

  useEffect(() => {
    if (refreshing || settled.current.size === 0) return;
    const done = [...settled.current];
    settled.current.clear();
    setOverrides((o) => {
      const next = { ...o };
      for (const k of done) delete next[k];
      return next;
    });
  }, [refreshing]);

  const view: IssueDetail = { ...issue, ...overrides };

  const drop = (keys: Key[]) =>
    setOverrides((o) => {
      const next = { ...o };
      for (const k of keys) delete next[k];
      return next;
    });

  async function change(patch: IssuePatch | ((current: IssueDetail) => IssuePatch), mutation: () => Promise<unknown>, what: string): Promise<boolean> {
    const p = typeof patch === "function" ? patch(view) : patch;
    if (p.status !== undefined) p.state = stateForStatus(p.status);
    const keys = Object.keys(p) as Key[];
    const mine = ++seq.current;
    for (const k of keys) latest.current[k] = mine;
    setOverrides((o) => ({ ...o, ...p }));
    const current = (k: Key) => latest.current[k] === mine;
    try {
      await mutation();
      for (const k of keys) if (current(k)) settled.current.add(k);
      startTransition(() => router.refresh());
      return true;
    } catch (e) {
      drop(keys.filter(current));
      toast.error(`Could not change ${what}: ${errorMessage(e)}`);
      return false;
    }
  }

  return { view, change };
}
