"use client";
/**
 * Find in diff (docs/pulls.md "Viewer"; `f` focuses the box): the lines of every file containing
 * the query (./diff-viewer-nav.ts `findInFiles`), also those drawn off screen by the virtualizer,
 * in collapsed files and in files whose hunks the page left out — while a query is typed, those
 * load one page after another (at most MAX_FIND_LOADS pages a query: `more` says files remain).
 * The first match is shown as the query changes; Enter / Shift+Enter (`next` / `prev`) step
 * through them, opening a collapsed file and scrolling the virtualized list to the line.
 */
import { useDeferredValue, useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import type { Virtualizer } from "@tanstack/react-virtual";
import { findInFiles, rowOfLine, type FindMatch } from "./diff-viewer-nav";
import type { DiffFile } from "./model";
import type { Row } from "./diff-viewer-types";

/** Most pages of left-out files one query loads (each ≤ 100 files and 10,000 lines: use-diff-viewer.ts). */
export const MAX_FIND_LOADS = 20;

/**
 * Find over `files` drawn as `rows` (`firstRow`: a file's header row); `isCollapsed` / `expand`
 * open a file with a match, `load(file)` fetches a left-out file's page, `loading` the files
 * being fetched. Returns the `query` and `setQuery`, the `matches`, the `current` one's index
 * (-1: none), `next` / `prev`, whether left-out files are still `pending` (loading for the search)
 * or `more` remain unsearched.
 */
export function useDiffFind({
  files,
  rows,
  firstRow,
  virtualizer,
  isCollapsed,
  expand,
  load,
  loading,
}: {
  files: DiffFile[];
  rows: Row[];
  firstRow: Map<number, number>;
  virtualizer: Virtualizer<Window, Element>;
  isCollapsed: (file: number) => boolean;
  expand: (file: number) => void;
  load: (file: number) => Promise<void>;
  loading: ReadonlySet<number>;
}) {
  const [query, setQuery] = useState("");
  const deferred = useDeferredValue(query);
  const matches = useMemo(() => findInFiles(files, deferred), [files, deferred]);
  const [current, setCurrent] = useState(-1);
  const [target, setTarget] = useState<FindMatch | null>(null);
  // a new query shows its first match (adjusted while rendering); files loading later add matches without moving
  const [queryOf, setQueryOf] = useState(deferred);
  if (queryOf !== deferred) {
    setQueryOf(deferred);
    setCurrent(matches.length > 0 ? 0 : -1);
    setTarget(matches[0] ?? null);
  } else if (current === -1 && matches.length > 0 && deferred) {
    setCurrent(0);
    setTarget(matches[0]);
  }

  const go = (n: number) => {
    if (matches.length === 0) return;
    const k = (n + matches.length) % matches.length;
    setCurrent(k);
    setTarget(matches[k]);
  };

  // the target's file opens, then the list scrolls to its line once that row exists, and again
  // whenever that line's row moves (pages of left-out files above it load while a query is typed)
  const scrolled = useRef<{ match: FindMatch; row: number } | null>(null);
  const show = useEffectEvent((m: FindMatch) => {
    if (isCollapsed(m.file)) return expand(m.file);
    const row = rowOfLine(rows, firstRow.get(m.file), m.file, m.line);
    if (row < 0 || (scrolled.current?.match === m && scrolled.current.row === row)) return;
    scrolled.current = { match: m, row };
    virtualizer.scrollToIndex(row, { align: "center" });
  });
  useEffect(() => {
    if (target) show(target);
  }, [target, rows]);

  // files the page left out load for the search, one page at a time, a bounded number of pages a query
  const pendingFile = deferred ? files.findIndex((f, i) => f.truncatedReason === "total" && !f.isBinary && !loading.has(i)) : -1;
  const [loads, setLoads] = useState({ query: "", count: 0 });
  const capped = loads.query === deferred && loads.count >= MAX_FIND_LOADS;
  const loadForFind = useEffectEvent((file: number) => {
    const count = loads.query === deferred ? loads.count : 0;
    if (count >= MAX_FIND_LOADS) return;
    setLoads({ query: deferred, count: count + 1 });
    void load(file);
  });
  const busy = loading.size > 0;
  useEffect(() => {
    // a request started by the query; its files show "Loading…" at once (no value to derive)
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (pendingFile >= 0 && !busy) loadForFind(pendingFile);
  }, [pendingFile, busy]);

  return {
    query,
    setQuery,
    matches,
    current,
    next: () => go(current + 1),
    prev: () => go(current - 1),
    target,
    pending: pendingFile >= 0 && !capped,
    more: pendingFile >= 0 && capped,
  };
}
