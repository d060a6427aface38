"use client";
/** React glue for the shortcut registry (registry.ts): register while mounted, listen once, read for the sheet. */
import { useEffect, useLayoutEffect, useRef, useSyncExternalStore } from "react";
import { available, createMatcher, register, registryVersion, subscribe, type Shortcut } from "./registry";

/**
 * Registers `list` while the component is mounted. The latest `run`/`when` are always used
 * (held in a ref), so callers may pass fresh closures on every render; the registration itself
 * changes only when the ids, keys or labels do.
 */
export function useShortcuts(list: Shortcut[]): void {
  const latest = useRef(list);
  // updated at commit (not while rendering): a shortcut pressed afterwards runs this render's closures
  useLayoutEffect(() => {
    latest.current = list;
  });
  const signature = list.map((s) => `${s.id}\u0000${s.keys}\u0000${s.mod ? 1 : 0}\u0000${s.label}\u0000${s.group}`).join("\u0001");
  useEffect(() => {
    const stable = latest.current.map((s, i): Shortcut => ({
      ...s,
      run: () => latest.current[i]?.run(),
      when: s.when ? () => latest.current[i]?.when?.() ?? true : undefined,
    }));
    return register(stable);
  }, [signature]);
}

/** Installs the one document keydown listener that runs registered shortcuts, and sets `<html data-shortcuts="on">` while it is installed. Mount once. */
export function useShortcutListener(): void {
  useEffect(() => {
    const matcher = createMatcher(available);
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const hit = matcher.press(e);
      if (!hit) return;
      e.preventDefault();
      hit.run();
    };
    document.addEventListener("keydown", onKey);
    // a marker for tests and scripts: shortcuts work from now on (the page has hydrated)
    document.documentElement.dataset.shortcuts = "on";
    return () => {
      document.removeEventListener("keydown", onKey);
      delete document.documentElement.dataset.shortcuts;
    };
  }, []);
}

/** The shortcuts available now; re-renders when registrations change. */
export function useAvailableShortcuts(): Shortcut[] {
  useSyncExternalStore(subscribe, registryVersion, () => 0);
  return available();
}

/** "g i" → ["g", "i"]; `mod` keys get ⌘ or Ctrl by platform. For <kbd> rendering. */
export function keyLabels(s: Pick<Shortcut, "keys" | "mod">, isMac: boolean): string[] {
  if (s.mod) return [isMac ? "⌘" : "Ctrl", s.keys.toUpperCase()];
  return s.keys.split(" ");
}

/** True on Apple platforms (⌘ instead of Ctrl), read in the browser only. */
export function isApplePlatform(): boolean {
  return typeof navigator !== "undefined" && /Mac|iPhone|iPad|iPod/.test(navigator.platform || navigator.userAgent);
}

const noSubscription = () => () => {};

/**
 * isApplePlatform() for rendering: false on the server and while hydrating (so the markup
 * matches), the browser's answer after that. The platform never changes, so nothing subscribes.
 */
export function useIsApplePlatform(): boolean {
  return useSyncExternalStore(noSubscription, isApplePlatform, () => false);
}
