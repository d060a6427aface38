"use client";
/**
 * Unsent text kept across view changes, remounts and reloads (docs/ui.md "Drafts"): the one draft
 * store of the client. A draft is a string under a caller-chosen key (namespaced by what it belongs
 * to: `pr:<prId>:comment`, `pr:<prId>:line:<side>:<start>-<end>:<path>`, `issue:<repoId>:<n>`, …).
 *
 * - In memory (a module-level map) for the page's lifetime, so a box that unmounts (Unified ↔
 *   Split, a collapsed file, a virtualized row scrolled away) finds its text again at once.
 * - In localStorage under `svc.draft.<key>` as `{"text", "at"}` (`at`: ms since the epoch of the
 *   last edit), written DRAFT_WRITE_DELAY_MS after the last keystroke and at once when the page is
 *   hidden or unloaded (pagehide / visibilitychange), so a reload finds it.
 * - Cleared by `clear()` (posted or discarded) and by an empty text; all of them on sign-out
 *   (`forgetAllDrafts`), since keys are not per user.
 * - Pruned once per page load: drafts older than DRAFT_MAX_AGE_MS, then the oldest beyond
 *   DRAFT_MAX_COUNT. A full storage prunes the oldest half and retries once; storage that is
 *   unavailable (private mode, disabled) or still full leaves the draft in memory only.
 */
import { useCallback, useState, useSyncExternalStore } from "react";

/** localStorage key prefix of drafts. */
export const DRAFT_PREFIX = "svc.draft.";
/** Debounce of the localStorage write after an edit, in ms. */
export const DRAFT_WRITE_DELAY_MS = 300;
/** Drafts untouched for longer (30 days, in ms) are dropped at the next page load. */
export const DRAFT_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
/** Most drafts kept in localStorage; the oldest beyond it are dropped. */
export const DRAFT_MAX_COUNT = 200;

type Stored = { text: string; at: number };

const memory = new Map<string, string>();
const listeners = new Map<string, Set<() => void>>();
const dirty = new Set<string>();
let timer: ReturnType<typeof setTimeout> | null = null;
let started = false;

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

function parse(raw: string | null): Stored | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<Stored>;
    return typeof v.text === "string" && typeof v.at === "number" ? { text: v.text, at: v.at } : null;
  } catch {
    return null;
  }
}

/** Every stored draft: [storage key, value]; unreadable entries count as oldest. */
function storedDrafts(s: Storage): [string, Stored][] {
  const out: [string, Stored][] = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k?.startsWith(DRAFT_PREFIX)) out.push([k, parse(s.getItem(k)) ?? { text: "", at: 0 }]);
  }
  return out;
}

/** Drops drafts older than DRAFT_MAX_AGE_MS, then the oldest until at most `keep` remain. */
function prune(s: Storage, keep = DRAFT_MAX_COUNT): void {
  const now = Date.now();
  const all = storedDrafts(s).sort((a, b) => b[1].at - a[1].at);
  all.forEach(([k, v], i) => {
    if (i >= keep || now - v.at > DRAFT_MAX_AGE_MS || !v.text) s.removeItem(k);
  });
}

/** Writes the edited drafts to localStorage now (the debounced write, or a page being hidden). */
export function flushDrafts(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const s = storage();
  const keys = [...dirty];
  dirty.clear();
  if (!s) return;
  for (const key of keys) {
    const text = memory.get(key) ?? "";
    try {
      if (!text) s.removeItem(DRAFT_PREFIX + key);
      else {
        const value = JSON.stringify({ text, at: Date.now() } satisfies Stored);
        try {
          s.setItem(DRAFT_PREFIX + key, value);
        } catch {
          // full: make room by dropping the oldest half, then try once more
          prune(s, Math.floor(storedDrafts(s).length / 2));
          s.setItem(DRAFT_PREFIX + key, value);
        }
      }
    } catch {
      // unavailable or still full: the draft lives in memory for this page
    }
  }
}

function start(): void {
  if (started || typeof window === "undefined") return;
  started = true;
  const s = storage();
  try {
    if (s) prune(s);
  } catch {
    // storage unavailable
  }
  window.addEventListener("pagehide", flushDrafts);
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && flushDrafts());
}

/** The draft under `key` ("" when none): memory first, else localStorage. */
export function readDraft(key: string): string {
  start();
  const known = memory.get(key);
  if (known !== undefined) return known;
  let text = "";
  try {
    text = parse(storage()?.getItem(DRAFT_PREFIX + key) ?? null)?.text ?? "";
  } catch {
    // storage unavailable
  }
  memory.set(key, text);
  return text;
}

/** Sets the draft under `key` ("" removes it); localStorage follows after DRAFT_WRITE_DELAY_MS. */
export function writeDraft(key: string, text: string): void {
  start();
  if (memory.get(key) === text) return;
  memory.set(key, text);
  dirty.add(key);
  if (timer) clearTimeout(timer);
  timer = setTimeout(flushDrafts, DRAFT_WRITE_DELAY_MS);
  listeners.get(key)?.forEach((l) => l());
}

/** Removes the draft under `key` (posted or discarded), from memory and localStorage at once. */
export function clearDraft(key: string): void {
  writeDraft(key, "");
  flushDrafts();
}

/** The keys of the non-empty drafts starting with `prefix` (memory and localStorage). */
export function listDrafts(prefix: string): string[] {
  start();
  const keys = new Set<string>();
  const s = storage();
  try {
    if (s) for (const [k] of storedDrafts(s)) if (k.startsWith(DRAFT_PREFIX + prefix)) keys.add(k.slice(DRAFT_PREFIX.length));
  } catch {
    // storage unavailable
  }
  for (const k of memory.keys()) if (k.startsWith(prefix)) keys.add(k);
  return [...keys].filter((k) => readDraft(k) !== "");
}

/** Forgets every draft, in memory and in localStorage (signing out: the next person at this browser does not see them). */
export function forgetAllDrafts(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  dirty.clear();
  for (const key of memory.keys()) {
    memory.set(key, "");
    listeners.get(key)?.forEach((l) => l());
  }
  const s = storage();
  try {
    if (s) for (const [k] of storedDrafts(s)) s.removeItem(k);
  } catch {
    // storage unavailable
  }
}

function subscribe(key: string, l: () => void): () => void {
  let set = listeners.get(key);
  if (!set) listeners.set(key, (set = new Set()));
  set.add(l);
  return () => void set.delete(l);
}

export interface DraftState {
  /** The text ("" during server rendering and hydration, then the stored draft). */
  text: string;
  setText: (text: string | ((prev: string) => string)) => void;
  /** Empties the box and forgets the draft (after posting it, or Cancel). */
  clear: () => void;
}

/**
 * The text of a box kept as the draft `key` (see the module comment); `key` null (e.g. signed
 * out) keeps it in component state only. Every box using the same key shows the same text.
 */
export function useDraft(key: string | null): DraftState {
  const [local, setLocal] = useState("");
  const stored = useSyncExternalStore(
    useCallback((l: () => void) => (key ? subscribe(key, l) : () => {}), [key]),
    () => (key ? readDraft(key) : ""),
    () => "",
  );
  const setText = useCallback(
    (next: string | ((prev: string) => string)) => {
      if (!key) return setLocal(next);
      writeDraft(key, typeof next === "function" ? next(readDraft(key)) : next);
    },
    [key],
  );
  const clear = useCallback(() => (key ? clearDraft(key) : setLocal("")), [key]);
  return { text: key ? stored : local, setText, clear };
}
