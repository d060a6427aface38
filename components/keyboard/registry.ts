/**
 * The keyboard shortcut registry (docs/ui.md "Keyboard shortcuts"): components register
 * the shortcuts they offer while mounted (`useShortcuts`), one document listener
 * (`useShortcutListener`, mounted once in the top bar) runs them, and the shortcut sheet (`?`)
 * lists what is registered on the current page. Pure logic here; React glue in use-shortcuts.ts.
 *
 * A shortcut is a sequence of keys separated by spaces ("g i": `g`, then `i` within
 * SEQUENCE_WINDOW_MS), or with `mod` a single key pressed with ⌘ (macOS) or Ctrl (elsewhere).
 * Plain shortcuts never fire while typing (input, textarea, select, contenteditable), with a
 * modifier held (Shift aside: `?` is Shift+/), or inside an open dialog, menu or listbox (they
 * have keys of their own); `mod` shortcuts fire anywhere.
 */

/** Most time between the keys of a sequence like "g i", in milliseconds. */
export const SEQUENCE_WINDOW_MS = 1000;

export interface Shortcut {
  /** Unique while registered (a later registration with the same id replaces the earlier one). */
  id: string;
  /** Space-separated keys as `KeyboardEvent.key` reports them ("g i", "?", "/", "t"); with `mod`, one letter. */
  keys: string;
  /** ⌘ (macOS) / Ctrl (elsewhere) + the key. */
  mod?: boolean;
  /** What it does, for the sheet ("Go to issues"). */
  label: string;
  /** Heading in the sheet ("General", "Repository", "Code"). */
  group: string;
  run: () => void;
  /** Only listed in the sheet: the page's own listener handles the key (the triage page's j/k/a/r). */
  listOnly?: boolean;
  /** Available right now (checked when a key is pressed and when the sheet opens); default yes. */
  when?: () => boolean;
  /**
   * This page's meaning of the key replaces every other shortcut on the same keys while it is
   * registered and available (the Files changed tab's `c` over the repository's "New issue"):
   * each key is listed and run once.
   */
  overrides?: boolean;
}

type Listener = () => void;

const shortcuts = new Map<string, Shortcut>();
const listeners = new Set<Listener>();
let version = 0;

function changed(): void {
  version += 1;
  for (const l of listeners) l();
}

/** Adds shortcuts; returns the function that removes exactly these registrations. */
export function register(list: Shortcut[]): () => void {
  for (const s of list) shortcuts.set(s.id, s);
  changed();
  return () => {
    for (const s of list) if (shortcuts.get(s.id) === s) shortcuts.delete(s.id);
    changed();
  };
}

/** Subscribes to registry changes (useSyncExternalStore). */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A number that changes whenever the registry does (useSyncExternalStore's snapshot). */
export function registryVersion(): number {
  return version;
}

/** The keys of a shortcut as one string ("mod+k", "g i"), for telling two registrations of a key apart. */
function keyOf(s: Shortcut): string {
  return s.mod ? `mod+${s.keys.toLowerCase()}` : s.keys;
}

/**
 * The shortcuts available now, in registration order, each key once: where shortcuts share their
 * keys, one marked `overrides` wins, else the first registered.
 */
export function available(): Shortcut[] {
  const now = [...shortcuts.values()].filter((s) => !s.when || s.when());
  const winner = new Map<string, Shortcut>();
  for (const s of now) {
    const k = keyOf(s);
    const had = winner.get(k);
    if (!had || (s.overrides && !had.overrides)) winner.set(k, s);
  }
  return now.filter((s) => winner.get(keyOf(s)) === s);
}

/** True when keys typed at `target` are text input (or go to a widget with keys of its own). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== "function") return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  if (el.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']")) return true;
  return Boolean(el.closest("[role='dialog'], [role='alertdialog'], [role='menu'], [role='listbox']"));
}

/** The subset of a KeyboardEvent the matcher reads. */
export interface KeyPress {
  key: string;
  metaKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
  timeStamp: number;
}

/**
 * A matcher over a shortcut list with the pending sequence as state: `press` returns the
 * shortcut to run for a key press, or null (no match, or the key started a sequence).
 */
export function createMatcher(list: () => Shortcut[]) {
  let pending: string[] = [];
  let last = -Infinity;
  return {
    press(e: KeyPress): Shortcut | null {
      const all = list().filter((s) => !s.listOnly);
      if (e.metaKey || e.ctrlKey) {
        pending = [];
        if (e.altKey) return null;
        const key = e.key.toLowerCase();
        return all.find((s) => s.mod && s.keys.toLowerCase() === key) ?? null;
      }
      if (e.altKey || isTypingTarget(e.target) || e.key.length !== 1) {
        if (e.key !== "Shift") pending = [];
        return null;
      }
      const plain = all.filter((s) => !s.mod);
      if (e.timeStamp - last > SEQUENCE_WINDOW_MS) pending = [];
      last = e.timeStamp;
      for (const attempt of [[...pending, e.key], [e.key]]) {
        const typed = attempt.join(" ");
        const hit = plain.find((s) => s.keys === typed);
        if (hit) {
          pending = [];
          return hit;
        }
        if (plain.some((s) => s.keys.startsWith(typed + " "))) {
          pending = attempt;
          return null;
        }
      }
      pending = [];
      return null;
    },
  };
}
