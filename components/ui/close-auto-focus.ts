/**
 * `onCloseAutoFocus` for Radix popovers and menus (./popover.tsx, ./dropdown-menu.tsx): Radix
 * returns focus to the trigger a task after the content closes (FocusScope's unmount timer). When
 * something else took focus in that gap (a shortcut pressed right after Escape that opened a form
 * with an autofocused button, as on the triage page), focus stays there instead of being pulled
 * back. With focus lost to the body (the focused item was removed with the content), Radix's
 * return to the trigger applies. `own` runs first; its preventDefault wins.
 */
export function keepMovedFocus(own?: (e: Event) => void): (e: Event) => void {
  return (e) => {
    own?.(e);
    if (e.defaultPrevented) return;
    const active = document.activeElement;
    if (active && active !== document.body) e.preventDefault();
  };
}
