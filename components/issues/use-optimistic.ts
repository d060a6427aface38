"use client";
/**
 * Optimistic updates with rollback for a server-rendered record (the issue page's properties,
 * the pull request sidebar's reviewers and labels): a change shows at once (an override on top of
 * the server value); on success the page data is refreshed (`router.refresh()` in a transition)
 * and the override is dropped only when that transition has committed, so the new server value
 * replaces it without flashing the old one; on failure the override is dropped at once (the old
 * value returns) and `toast.error` shows the server's message. Overlapping changes of one field:
 * only the latest one's outcome touches the override.
 */
import { useCallback, useEffect, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { errorMessage } from "@/components/trpc/provider";
import { toast } from "@/components/ui/toast";

/**
 * `view`: `value` with pending changes applied. `change(patch, mutation, what)` applies `patch`
 * (or a function of the current view), passed through `normalize` (derived fields), runs
 * `mutation`, and settles as described above; `what` names the change in the error toast
 * ("Could not change the labels: …"). Resolves to success.
 */
export function useOptimistic<T extends object>(value: T, normalize?: (patch: Partial<T>) => Partial<T>) {
  type Key = keyof T;
  const router = useRouter();
  const [overrides, setOverrides] = useState<Partial<T>>({});
  const seq = useRef(0);
  const latest = useRef(new Map<Key, number>());
  const settled = useRef(new Set<Key>());
  const [refreshing, startTransition] = useTransition();

  const drop = useCallback(
    (keys: Key[]) =>
      setOverrides((o) => {
        const next = { ...o };
        for (const k of keys) delete next[k];
        return next;
      }),
    [],
  );

  useEffect(() => {
    if (refreshing || settled.current.size === 0) return;
    const done = [...settled.current];
    settled.current.clear();
    drop(done);
  }, [refreshing, drop]);

  const view: T = { ...value, ...overrides };

  async function change(
    patch: Partial<T> | ((current: T) => Partial<T>),
    mutation: () => Promise<unknown>,
    what: string,
  ): Promise<boolean> {
    const raw = typeof patch === "function" ? patch(view) : patch;
    const p = normalize ? normalize(raw) : raw;
    const keys = Object.keys(p) as Key[];
    const mine = ++seq.current;
    for (const k of keys) latest.current.set(k, mine);
    setOverrides((o) => ({ ...o, ...p }));
    const current = (k: Key) => latest.current.get(k) === mine;
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
