"use client";
import { useCallback, useTransition } from "react";
import { useRouter } from "next/navigation";

/**
 * Re-renders the page's server components after a mutation (`router.refresh()` in a transition);
 * `refreshing` stays true until the new server data is on screen.
 */
export function useRefresh(): { refresh: () => void; refreshing: boolean } {
  const router = useRouter();
  const [refreshing, startTransition] = useTransition();
  const refresh = useCallback(() => startTransition(() => router.refresh()), [router]);
  return { refresh, refreshing };
}
