"use client";
/** The diff view the reader chose (unified or split), remembered in localStorage "svc.diff.view" and shared by every viewer on the page. */
import { useSyncExternalStore } from "react";
import type { DiffView } from "./model";

const VIEW_KEY = "svc.diff.view";
const listeners = new Set<() => void>();
function readView(): DiffView {
  try {
    return localStorage.getItem(VIEW_KEY) === "split" ? "split" : "unified";
  } catch {
    return "unified";
  }
}
function writeView(v: DiffView) {
  try {
    localStorage.setItem(VIEW_KEY, v);
  } catch {}
  listeners.forEach((l) => l());
}

/** The remembered view ("unified" during server rendering and when storage is unavailable) and its setter. */
export function useDiffView(): [DiffView, (v: DiffView) => void] {
  const view = useSyncExternalStore(
    (l) => (listeners.add(l), () => listeners.delete(l)),
    readView,
    () => "unified" as DiffView,
  );
  return [view, writeView];
}
