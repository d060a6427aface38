"use client";
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False during server rendering and hydration, true once React runs in the browser. Forms keep
 * their submit button disabled until then, so a submit before hydration can never fall back to
 * a native GET that would put the fields (a password) in the URL.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
