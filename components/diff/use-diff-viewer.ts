"use client";
/**
 * The state of the diff viewer (./diff-viewer.tsx): the files (left-out ones replaced as they
 * load), which files the reader opened or collapsed, the rows and their window virtualizer, the
 * highlights of the files on screen, the file tree's jump and the j/k, n/p shortcuts.
 */
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { useTRPCClient } from "@/components/trpc/provider";
import { useShortcuts } from "@/components/keyboard/use-shortcuts";
import { collapseReason, fromPageHunks, unpackFile } from "./model";
import { buildRows, estimateRowSize } from "./diff-viewer-rows";
import { firstGutters, nextGutter } from "./diff-viewer-nav";
import type { DiffViewerProps, LineSide, Row } from "./diff-viewer-types";
import { useDiffFind } from "./use-diff-find";
import { useDiffView } from "./use-diff-view";
import { useHighlights } from "./use-highlights";
import { useExpand } from "./use-expand";

/** Most files one "load" request covers (a page of hunks from the file's index). */
const LOAD_BATCH = 100;
/**
 * The hunk-line budget of a "load" request: the per-file limit (10,000 lines, docs/pulls.md
 * "Limits"), so the file asked for always arrives whole (a page keeps its first hunk whole and
 * cuts between hunks after it); the files after it fill the rest.
 */
const LOAD_LINES = 10_000;

/**
 * Focuses the element `find` returns once the virtualizer has drawn it (it may be a frame or two
 * after a scroll), without scrolling again; gives up after about half a second.
 */
function focusWhenDrawn(find: () => HTMLElement | null | undefined, tries = 30): void {
  requestAnimationFrame(() => {
    const el = find();
    if (el) el.focus({ preventScroll: true });
    if ((!el || document.activeElement !== el) && tries > 0) focusWhenDrawn(find, tries - 1);
  });
}

function without(s: Set<number>, i: number): Set<number> {
  const n = new Set(s);
  n.delete(i);
  return n;
}

/**
 * The viewer's state for its props (see DiffViewerProps; the render callbacks are not used here).
 *
 * Returns `view` / `setView`; `files` (unpacked; a new `files` prop starts over); the `rows`, the
 * `virtualizer`, its on-screen `items` and `listRef` (the ref callback of the rows' container);
 * `highlightOf(file)`; `isCollapsed(file)`, `loading` (files being fetched), `toggle(file)`
 * (collapse or expand) and `openRow(row)` (a notice's "Load diff": fetch or expand); `treeOpen` /
 * `setTreeOpen` (the file tree on narrow screens) and `jump(file)` (scroll to a file chosen in the
 * tree, the `t` finder) which also focuses the file's header; `stopOf(file)` the line-number key
 * that is the file's tab stop (Up/Down in the list move it); `find` (./use-diff-find.ts);
 * `additions` and `deletions` over all files; `expansion`: the expanded unchanged lines
 * (./use-expand.ts; null without a source).
 */
export function useDiffViewer({
  files: packed,
  highlights,
  source,
  collapsedFile,
  shortcuts,
  lineSlots,
  fileTop,
}: Pick<DiffViewerProps, "files" | "highlights" | "source" | "collapsedFile" | "shortcuts" | "lineSlots" | "fileTop">) {
  const [view, setView] = useDiffView();
  const initial = useMemo(() => packed.map(unpackFile), [packed]);
  const [files, setFiles] = useState(initial);
  // new files from the page replace the loaded ones (adjusted while rendering, not in an effect)
  const [filesOf, setFilesOf] = useState(initial);
  if (filesOf !== initial) {
    setFilesOf(initial);
    setFiles(initial);
  }
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const [closed, setClosed] = useState<Set<number>>(() => new Set());
  const [loading, setLoading] = useState<Set<number>>(() => new Set());
  const [treeOpen, setTreeOpen] = useState(false);
  const client = useTRPCClient();

  const isCollapsed = useCallback(
    (i: number) => closed.has(i) || (!open.has(i) && (collapseReason(files[i]) !== null || !!collapsedFile?.(files[i]))),
    [open, closed, files, collapsedFile],
  );

  const expansion = useExpand(files, source, highlights);
  const rows = useMemo(
    () => buildRows(files, view, open, closed, { collapsedFile, lineSlots, fileTop }, expansion?.of),
    [files, view, open, closed, collapsedFile, lineSlots, fileTop, expansion],
  );

  const firstRow = useMemo(() => {
    const m = new Map<number, number>();
    rows.forEach((r, i) => r.kind === "file" && m.set(r.file, i));
    return m;
  }, [rows]);

  const [scrollMargin, setScrollMargin] = useState(0);
  const listEl = useRef<HTMLDivElement | null>(null);
  const listRef = useCallback((el: HTMLDivElement | null) => {
    listEl.current = el;
    if (el) setScrollMargin(el.getBoundingClientRect().top + window.scrollY);
  }, []);
  /**
   * Scrolls to row `index` (from an event handler: j/k/n/p, the file tree, arrow keys), with the
   * list's offset in the page (the virtualizer's scrollMargin, read when the list mounted) read
   * again first and applied at once (flushSync) when it moved by a pixel or more: content drawn
   * above the list later (a banner, a status) would otherwise put the scroll off by its height.
   */
  const scrollToRow = (index: number, align: "start" | "auto") => {
    const el = listEl.current;
    const top = el ? el.getBoundingClientRect().top + window.scrollY : scrollMargin;
    if (Math.abs(top - scrollMargin) >= 1) flushSync(() => setScrollMargin(top));
    virtualizer.scrollToIndex(index, { align });
  };
  /** The drawn row `index`'s element, or null (off screen). */
  const rowEl = (index: number) => listEl.current?.querySelector<HTMLElement>(`[data-index="${index}"]`) ?? null;
  /** Focuses file `file`'s header (its toggle) once drawn. */
  const focusHeader = (file: number) =>
    focusWhenDrawn(() => rowEl(firstRow.get(file) ?? -1)?.querySelector<HTMLElement>("[data-testid='diff-file'] button"));
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: (i) => estimateRowSize(rows[i]),
    overscan: 20,
    scrollMargin,
    // before the window is measured (the server render and hydration), draw the rows of one tall
    // screen, so the first files are in the HTML and show before the page hydrates
    initialRect: { width: 1280, height: 1200 },
  });

  /** A page of hunks from file `index` of the file list (docs/pulls.md "File list and hunk pages"). */
  const fetchPage = (cursor: string, limit: number) => {
    const page = { cursor, limit, maxLines: LOAD_LINES };
    if (!source) throw new Error("no diff source");
    if (source.kind === "commit") return client.repos.commitDiffPage.query({ repoId: source.repoId, sha: source.sha, ...page });
    if (source.kind === "compare")
      return client.repos.compareDiffPage.query({
        repoId: source.repoId,
        base: source.base,
        head: source.head,
        headRepoId: source.headRepoId,
        ...page,
      });
    if (source.kind === "revisions")
      return client.pulls.compareRevisionsPage.query({ prId: source.prId, from: source.from, to: source.to, ...page });
    return client.pulls.getDiffPage.query({ prId: source.prId, ...page });
  };

  /** Fetches file `i` and the files after it whose hunks were left out of the page, up to the first one loaded or loading (one page). */
  const load = async (i: number, opts: { open?: boolean } = {}) => {
    if (!source || loading.has(i)) return;
    const batch = [i];
    for (let k = i + 1; k < files.length && batch.length < LOAD_BATCH; k++) {
      if (files[k].truncatedReason !== "total" || files[k].hunks.length > 0 || loading.has(k)) break;
      batch.push(k);
    }
    setLoading((s) => new Set([...s, ...batch]));
    try {
      const page = await fetchPage(String(i), batch.length);
      // the file list's files, checked by path (a head that moved since the page was drawn can list other files);
      // a file the budget cut (`continues`) stays to load when it comes into view
      const got = new Map(page.files.filter((f) => !f.continues && batch.includes(f.index)).map((f) => [f.index, f]));
      setFiles((all) =>
        all.map((x, k) => {
          const f = got.get(k);
          if (!f || f.oldPath !== x.oldPath || f.newPath !== x.newPath) return x;
          // an LFS file's page says how it is shown (docs/lfs.md "In the browser")
          const lfs = f.lfs ?? x.lfs;
          return {
            ...x,
            hunks: fromPageHunks(f.hunks),
            truncated: f.truncated,
            truncatedReason: f.truncatedReason,
            ...(lfs ? { lfs } : {}),
          };
        }),
      );
      if (opts.open) setOpen((s) => new Set(s).add(i));
    } finally {
      setLoading((s) => {
        const n = new Set(s);
        batch.forEach((k) => n.delete(k));
        return n;
      });
    }
  };

  // files left out of the page's response load when their placeholder scrolls into view
  const items = virtualizer.getVirtualItems();
  const highlightOf = useHighlights(initial, files, highlights, [
    ...new Set(items.flatMap((it) => (rows[it.index]?.kind === "line" || rows[it.index]?.kind === "pair" ? [rows[it.index].file] : []))),
  ]);
  const pendingFile = items
    .map((it) => rows[it.index])
    .find((r) => r?.kind === "notice" && r.action === "load" && !loading.has(r.file) && files[r.file].hunks.length === 0)?.file;
  const loadPending = useEffectEvent((file: number) => void load(file));
  useEffect(() => {
    // a request started by what is on screen; its files show "Loading…" at once (no value to derive)
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (pendingFile !== undefined) loadPending(pendingFile);
  }, [pendingFile]);

  // a file chosen in the tree stays at the top for a few seconds while files above it load and grow
  const anchor = useRef<{ file: number; until: number } | null>(null);
  const jump = (i: number) => {
    setTreeOpen(false);
    anchor.current = { file: i, until: Date.now() + 5_000 };
    scrollToRow(firstRow.get(i) ?? 0, "start");
    focusHeader(i);
  };
  useEffect(() => {
    // the reader scrolling on their own ends the hold
    const release = () => (anchor.current = null);
    const opts = { passive: true } as const;
    window.addEventListener("wheel", release, opts);
    window.addEventListener("touchmove", release, opts);
    window.addEventListener("keydown", release);
    return () => {
      window.removeEventListener("wheel", release);
      window.removeEventListener("touchmove", release);
      window.removeEventListener("keydown", release);
    };
  }, []);
  // rows changed (files loaded, opened or collapsed): the held file goes back to the top
  useEffect(() => {
    const a = anchor.current;
    if (a && Date.now() < a.until) virtualizer.scrollToIndex(firstRow.get(a.file) ?? 0, { align: "start" });
  }, [virtualizer, firstRow]);

  // j/k, n/p: the next or previous file header / slot row (or file-top row) after the first row on screen
  // (j/k: after the focused row instead, when focus is in the diff and that row is on screen)
  const step = (kind: "file" | "slot", dir: 1 | -1) => {
    const focused = listEl.current?.contains(document.activeElement) ? document.activeElement?.closest<HTMLElement>("[data-index]") : null;
    const box = focused?.getBoundingClientRect();
    const onScreen = kind === "file" && box && box.bottom > 0 && box.top < window.innerHeight;
    const top = onScreen
      ? Number(focused!.dataset.index)
      : (virtualizer.getVirtualItems().find((it) => it.end > window.scrollY + 1)?.index ?? 0);
    for (let i = top + dir; i >= 0 && i < rows.length; i += dir) {
      if (rows[i].kind === kind || (kind === "slot" && rows[i].kind === "top")) {
        anchor.current = null;
        scrollToRow(i, "start");
        // j/k also move focus to the file's header (its toggle), so Tab continues from there
        if (kind === "file") focusHeader(rows[i].file);
        return;
      }
    }
  };
  useShortcuts(
    shortcuts
      ? [
          { id: "diff-next-file", keys: "j", label: "Next file", group: "Diff", run: () => step("file", 1) },
          { id: "diff-prev-file", keys: "k", label: "Previous file", group: "Diff", run: () => step("file", -1) },
          { id: "diff-next-thread", keys: "n", label: "Next comment thread", group: "Diff", run: () => step("slot", 1) },
          { id: "diff-prev-thread", keys: "p", label: "Previous comment thread", group: "Diff", run: () => step("slot", -1) },
        ]
      : [],
  );

  // the line numbers' controls: one tab stop per file (the first line's until the reader moves it
  // with Up/Down), the WAI-ARIA roving tabindex
  const firstStops = useMemo(() => firstGutters(rows), [rows]);
  const [movedStops, setMovedStops] = useState<ReadonlyMap<number, string>>(() => new Map());
  const stopOf = (file: number) => movedStops.get(file) ?? firstStops.get(file);
  const onListKeyDown = (e: KeyboardEvent) => {
    if ((e.key !== "ArrowDown" && e.key !== "ArrowUp") || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const t = e.target as HTMLElement;
    const cell = t.closest<HTMLElement>("[data-gutter-key]");
    const from = Number(t.closest<HTMLElement>("[data-index]")?.dataset.index);
    if (!cell || !Number.isInteger(from) || !rows[from]) return;
    e.preventDefault();
    const side = cell.dataset.gutterKey!.split(":")[0] as LineSide;
    const next = nextGutter(rows, from, e.key === "ArrowDown" ? 1 : -1, side);
    if (!next) return;
    setMovedStops((m) => new Map(m).set(rows[from].file, next.key));
    scrollToRow(next.index, "auto");
    focusWhenDrawn(() =>
      rowEl(next.index)?.querySelector<HTMLElement>(`[data-gutter-key="${next.key}"] button, [data-gutter-key="${next.key}"] [tabindex]`),
    );
  };

  const onKey = useEffectEvent(onListKeyDown);
  useEffect(() => {
    const el = listEl.current;
    const on = (e: KeyboardEvent) => onKey(e);
    el?.addEventListener("keydown", on);
    // a marker for tests and scripts: this list's keys (j/k/n/p, arrows) work from now on. The list
    // can hydrate after the page's shell (a streamed Suspense boundary), so <html data-shortcuts> is not enough.
    if (el) el.dataset.keys = "on";
    return () => {
      el?.removeEventListener("keydown", on);
      if (el) delete el.dataset.keys;
    };
  }, []);

  /** The file header's toggle: expands a collapsed file (also one collapsed by default), else collapses it. */
  const toggle = (file: number) =>
    isCollapsed(file) ? (setClosed((s) => without(s, file)), setOpen((s) => new Set(s).add(file))) : setClosed((s) => new Set(s).add(file));

  /** A notice's "Load diff": fetches a left-out file (and opens it), or expands one collapsed by default. */
  const openRow = (row: Row) =>
    row.kind === "notice" && row.action === "load" ? void load(row.file, { open: true }) : setOpen((s) => new Set(s).add(row.file));

  const find = useDiffFind({
    files,
    rows,
    firstRow,
    virtualizer,
    isCollapsed,
    expand: (file) => (setClosed((s) => without(s, file)), setOpen((s) => new Set(s).add(file))),
    load,
    loading,
  });

  return {
    view,
    setView,
    files,
    rows,
    virtualizer,
    items,
    listRef,
    highlightOf,
    isCollapsed,
    loading,
    toggle,
    openRow,
    treeOpen,
    setTreeOpen,
    jump,
    expansion,
    stopOf,
    find,
    additions: files.reduce((s, f) => s + f.additions, 0),
    deletions: files.reduce((s, f) => s + f.deletions, 0),
  };
}
