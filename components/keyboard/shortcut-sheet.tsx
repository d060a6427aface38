"use client";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { useIsApplePlatform, keyLabels, useAvailableShortcuts } from "./use-shortcuts";
import type { Shortcut } from "./registry";

/** Keys of a shortcut as <kbd> chips ("g" "then" "i"; "Ctrl" "K"). */
export function Keys({ shortcut, isMac }: { shortcut: Pick<Shortcut, "keys" | "mod">; isMac: boolean }) {
  const keys = keyLabels(shortcut, isMac);
  return (
    <span className="flex shrink-0 items-center gap-1 text-xs text-subtle-foreground">
      {keys.map((k, i) => (
        <span key={i} className="flex items-center gap-1">
          {i > 0 && !shortcut.mod && <span>then</span>}
          <kbd className="min-w-[1.5rem] rounded border border-border bg-muted px-1.5 py-0.5 text-center font-mono text-xs text-foreground">
            {k}
          </kbd>
        </span>
      ))}
    </span>
  );
}

/**
 * The shortcut sheet (`?`): every shortcut registered on the current page, grouped, in a Radix
 * dialog (focus trapped, Escape closes, focus returns to where it was).
 */
export function ShortcutSheet({
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const shortcuts = useAvailableShortcuts();
  const isMac = useIsApplePlatform();
  const groups = new Map<string, Shortcut[]>();
  for (const s of shortcuts) groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Keyboard shortcuts"
        description="Shortcuts available on this page. They do not fire while you type in a field."
        testId="shortcut-sheet"
        className="max-w-xl"
        onCloseAutoFocus={onCloseAutoFocus}
      >
        <div className="grid gap-5 sm:grid-cols-2">
          {[...groups].map(([group, list]) => (
            <section key={group} aria-label={group}>
              <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-subtle-foreground">{group}</h3>
              <ul className="space-y-1.5">
                {list.map((s) => (
                  <li
                    key={s.id}
                    className="flex items-center justify-between gap-3"
                    data-testid="shortcut-row"
                    data-keys={s.mod ? `mod+${s.keys}` : s.keys}
                  >
                    <span className="min-w-0 text-foreground">{s.label}</span>
                    <Keys shortcut={s} isMac={isMac} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </DialogContent>
    </Dialog>
  );
}
