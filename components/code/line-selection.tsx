"use client";
/**
 * Line selection in the code view (docs/ui.md "Code view"), GitHub's behaviour: a click on a line
 * number sets the hash to `#L10`, a shift-click extends it to `#L10-L20` (from the last clicked
 * line); the selected lines get the `selected` class, on load and on every hash change, and the
 * first one is scrolled into view (centred) on load and hash changes. One delegated listener on the
 * code view, no React component per line: the lines are server-rendered HTML (highlight.ts).
 * ⌘/Ctrl-click keeps the browser's own behaviour (open the link in a new tab).
 */
import { useEffect } from "react";
import { lineHash, parseLineHash } from "./urls";

export { lineHash, parseLineHash };

/** Fired on `window` after every change of the selected lines (a click changes the hash without a hashchange event). */
export const LINE_SELECTION_EVENT = "svc:line-selection";

export function LineSelection({ containerId }: { containerId: string }) {
  useEffect(() => {
    const root = document.getElementById(containerId);
    if (!root) return;
    let selected: HTMLElement[] = [];
    let anchor: number | null = null;

    const apply = (scroll: boolean) => {
      for (const el of selected) el.classList.remove("selected");
      selected = [];
      const range = parseLineHash(window.location.hash);
      if (!range) return;
      anchor ??= range.start;
      for (let n = range.start; n <= range.end; n += 1) {
        const line = root.querySelector<HTMLElement>(`#L${n}`);
        if (!line) break;
        line.classList.add("selected");
        selected.push(line);
      }
      if (scroll && selected[0]) selected[0].scrollIntoView({ block: "center" });
    };

    const onClick = (e: MouseEvent) => {
      const link = (e.target as Element | null)?.closest?.(".line > a");
      if (!(link instanceof HTMLAnchorElement) || !root.contains(link) || e.metaKey || e.ctrlKey || e.button !== 0) return;
      const n = Number(/^#L(\d+)$/.exec(link.getAttribute("href") ?? "")?.[1]);
      if (!n) return;
      e.preventDefault();
      const hash = e.shiftKey && anchor !== null ? lineHash(anchor, n) : lineHash(n, n);
      if (!e.shiftKey || anchor === null) anchor = n;
      // keep Next's history state; replaceState fires no hashchange, so apply directly
      window.history.replaceState(window.history.state, "", `${window.location.pathname}${window.location.search}${hash}`);
      apply(false);
      window.dispatchEvent(new Event(LINE_SELECTION_EVENT));
    };
    // a shift-click would otherwise extend the text selection across the lines
    const onMouseDown = (e: MouseEvent) => {
      if (e.shiftKey && (e.target as Element | null)?.closest?.(".line > a")) e.preventDefault();
    };
    const onHash = () => apply(true);

    apply(true);
    root.addEventListener("click", onClick);
    root.addEventListener("mousedown", onMouseDown);
    window.addEventListener("hashchange", onHash);
    return () => {
      root.removeEventListener("click", onClick);
      root.removeEventListener("mousedown", onMouseDown);
      window.removeEventListener("hashchange", onHash);
      for (const el of selected) el.classList.remove("selected");
    };
  }, [containerId]);
  return null;
}
