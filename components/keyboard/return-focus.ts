"use client";
import { useCallback, useMemo, useRef } from "react";

/**
 * Focus return for dialogs opened by a shortcut (no Radix Trigger to return to): `remember()`
 * when opening keeps the focused element, and `onCloseAutoFocus` (for Radix Dialog.Content)
 * focuses it again when the dialog closes, if it is still in the page. With nothing focused
 * before (the body), Radix's default applies.
 */
export function useReturnFocus() {
  const previous = useRef<HTMLElement | null>(null);
  const remember = useCallback(() => {
    const el = document.activeElement;
    previous.current = el instanceof HTMLElement && el !== document.body ? el : null;
  }, []);
  const onCloseAutoFocus = useCallback((e: Event) => {
    const el = previous.current;
    previous.current = null;
    if (el && el.isConnected) {
      e.preventDefault();
      el.focus();
    }
  }, []);
  return useMemo(() => ({ remember, onCloseAutoFocus }), [remember, onCloseAutoFocus]);
}
