"use client";
/**
 * Shortcuts available on every page (docs/ui.md "Keyboard shortcuts"), the document listener,
 * the shortcut sheet (`?`) and the command menu (⌘K / Ctrl+K, and its button in the top bar).
 * Mounted once, in the top bar. Pages add their own with `useShortcuts` (the code browser's `t`).
 *
 * `/` focuses the page's search: the element marked `data-shortcut="search"` — an input gets
 * focus (and its text selected), anything else (the code browser's "Go to file" button) is clicked.
 */
import { useState } from "react";
import { usePathname, useRouter } from "next/navigation";
import { CommandMenu, CommandMenuButton } from "./command-menu";
import { repoFromPath } from "./repo-path";
import { ShortcutSheet } from "./shortcut-sheet";
import { useReturnFocus } from "./return-focus";
import { useIsApplePlatform, useShortcutListener, useShortcuts } from "./use-shortcuts";

function searchTarget(): HTMLElement | null {
  return document.querySelector<HTMLElement>("[data-shortcut='search']");
}

/** Focuses (an input) or clicks (a button) the page's `data-shortcut="search"` element. */
export function focusSearch(): void {
  const el = searchTarget();
  if (!el) return;
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    el.focus();
    el.select();
  } else el.click();
}

export function GlobalShortcuts({ signedIn }: { signedIn: boolean }) {
  const router = useRouter();
  const pathname = usePathname() ?? "/";
  const here = repoFromPath(pathname);
  const [sheet, setSheet] = useState(false);
  const [menu, setMenu] = useState(false);
  const isMac = useIsApplePlatform();
  const sheetFocus = useReturnFocus();
  const menuFocus = useReturnFocus();
  const openSheet = () => {
    sheetFocus.remember();
    setSheet(true);
  };
  const toggleMenu = () => {
    if (!menu) menuFocus.remember();
    setMenu(!menu);
  };
  useShortcutListener();

  useShortcuts([
    { id: "help", keys: "?", label: "Show keyboard shortcuts", group: "General", run: openSheet },
    { id: "command-menu", keys: "k", mod: true, label: "Open the command menu", group: "General", run: toggleMenu },
    { id: "search", keys: "/", label: "Focus search", group: "General", run: focusSearch, when: () => searchTarget() !== null },
    { id: "go-dashboard", keys: "g d", label: "Go to dashboard", group: "Navigation", run: () => router.push("/"), when: () => signedIn },
    { id: "go-inbox", keys: "g n", label: "Go to inbox", group: "Navigation", run: () => router.push("/inbox"), when: () => signedIn },
  ]);
  useShortcuts(
    here
      ? [
          { id: "go-code", keys: "g c", label: "Go to code", group: "Repository", run: () => router.push(here.base) },
          { id: "go-issues", keys: "g i", label: "Go to issues", group: "Repository", run: () => router.push(`${here.base}/issues`) },
          { id: "go-board", keys: "g b", label: "Go to board", group: "Repository", run: () => router.push(`${here.base}/issues/board`) },
          { id: "new-issue", keys: "c", label: "New issue", group: "Repository", run: () => router.push(`${here.base}/issues/new`) },
        ]
      : [],
  );

  return (
    <>
      <CommandMenuButton onClick={toggleMenu} isMac={isMac} />
      <CommandMenu
        open={menu}
        onOpenChange={setMenu}
        signedIn={signedIn}
        onShowShortcuts={() => setSheet(true)}
        onCloseAutoFocus={menuFocus.onCloseAutoFocus}
      />
      <ShortcutSheet open={sheet} onOpenChange={setSheet} onCloseAutoFocus={sheetFocus.onCloseAutoFocus} />
    </>
  );
}
