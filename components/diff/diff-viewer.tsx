"use client";
/**
 * The diff viewer (issue #8) of the commit, compare and pull request pages: a file tree with
 * per-file +/−, unified or split view (the choice remembered in localStorage "svc.diff.view"),
 * shiki highlights from the server (lib/highlight/diff.ts), generated and large files
 * collapsed behind "Load diff", binary files marked. Rows are virtualized against the window
 * (@tanstack/react-virtual), so 2,000 files / 100k lines render only what is on screen. Long
 * lines wrap inside the diff (no horizontal page scroll at phone width).
 *
 * Extension points for reviews: `renderFileActions(file)` in each file header (a "Viewed"
 * checkbox); `lineSlots(file)` names the lines ("RIGHT:12", "LEFT:3") that get a slot row under
 * them — its own virtualized, measured row, rendered by `renderSlot` on that side (the left half
 * in split view for LEFT) — and `renderGutter` adds a control beside a line number (the pull
 * request page's "Comment on line" button). `fileTop(file)` says a file gets a row under its header,
 * rendered by `renderFileTop` (the pull request page's comments whose line the diff no longer
 * shows); n/p step through those rows too.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { useTRPCClient } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/styles";
import {
  collapseReason,
  displayPath,
  fileRows,
  tokenRuns,
  unpackFile,
  type DiffFile,
  type PackedFile,
  type DiffView,
  type FileRow,
  type NumberedLine,
} from "./model";
import type { DiffHighlights, TokenStyle } from "@/lib/highlight/runs";
import { FileTree } from "./file-tree";
import { useShortcuts } from "@/components/keyboard/use-shortcuts";
import { useHighlights, type FileHighlight } from "./use-highlights";

/** Where "Load diff" fetches a file whose hunks were left out of the page's response. */
export type DiffSource =
  | { kind: "commit"; repoId: string; sha: string }
  | { kind: "compare"; repoId: string; base: string; head: string }
  | { kind: "pull"; prId: string };

export interface DiffViewerProps {
  /** The files (packed by `packFile` or whole). */
  files: PackedFile[];
  /** Syntax highlighting of the files as given (token runs per hunk line, lib/highlight/diff.ts). */
  highlights?: DiffHighlights;
  source?: DiffSource;
  totalFiles?: number;
  /** Slot in each file header (e.g. a "Viewed" checkbox). */
  renderFileActions?: (file: DiffFile, index: number) => React.ReactNode;
  /** The lines with a slot row under them, as "RIGHT:<new line>" / "LEFT:<old line>" keys. */
  lineSlots?: (file: DiffFile) => ReadonlySet<string> | undefined;
  /** The content of a slot row (e.g. a line's review threads and comment form). */
  renderSlot?: (file: DiffFile, side: LineSide, line: number) => React.ReactNode;
  /** A control beside a line number (e.g. "Comment on line 12"). */
  renderGutter?: (file: DiffFile, side: LineSide, line: number) => React.ReactNode;
  /** Whether a file gets a row right under its header (when it is open). */
  fileTop?: (file: DiffFile) => boolean;
  /** The content of that row (e.g. "2 outdated comments"). */
  renderFileTop?: (file: DiffFile) => React.ReactNode;
  /** Registers j/k (next/previous file) and n/p (next/previous slot row: a review thread) with the shortcut sheet. */
  shortcuts?: boolean;
  /** Files shown collapsed until opened (e.g. the ones the reader marked viewed). */
  collapsedFile?: (file: DiffFile) => boolean;
}

/** Files fetched per "load" request (`paths`). */
const LOAD_BATCH = 100;

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
/** The remembered view; "unified" during server rendering. */
function useDiffView(): [DiffView, (v: DiffView) => void] {
  const view = useSyncExternalStore(
    (l) => (listeners.add(l), () => listeners.delete(l)),
    readView,
    () => "unified" as DiffView,
  );
  return [view, writeView];
}

/** The side of a diff line a comment belongs to: LEFT = the old file's line number, RIGHT = the new file's. */
export type LineSide = "LEFT" | "RIGHT";

type Row =
  | { kind: "slot"; file: number; side: LineSide; line: number }
  | { kind: "top"; file: number }
  | { kind: "file"; file: number }
  | { kind: "notice"; file: number; text: string; action?: "expand" | "load" }
  | ({ file: number } & FileRow)
  | { kind: "end"; file: number };

export function DiffViewer({
  files: packed,
  highlights,
  source,
  totalFiles,
  renderFileActions,
  lineSlots,
  renderSlot,
  renderGutter,
  collapsedFile,
  shortcuts,
  fileTop,
  renderFileTop,
}: DiffViewerProps) {
  const [view, setView] = useDiffView();
  const initial = useMemo(() => packed.map(unpackFile), [packed]);
  const [files, setFiles] = useState(initial);
  useEffect(() => setFiles(initial), [initial]);
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const [closed, setClosed] = useState<Set<number>>(() => new Set());
  const [loading, setLoading] = useState<Set<number>>(() => new Set());
  const [treeOpen, setTreeOpen] = useState(false);
  const client = useTRPCClient();

  const isCollapsed = useCallback(
    (i: number) => closed.has(i) || (!open.has(i) && (collapseReason(files[i]) !== null || !!collapsedFile?.(files[i]))),
    [open, closed, files, collapsedFile],
  );

  const rows = useMemo(() => {
    const out: Row[] = [];
    files.forEach((f, i) => {
      out.push({ kind: "file", file: i });
      if (closed.has(i)) return;
      if (!open.has(i) && collapsedFile?.(f)) return;
      if (fileTop?.(f)) out.push({ kind: "top", file: i });
      const reason = collapseReason(f);
      if (!open.has(i) && reason) {
        out.push({
          kind: "notice",
          file: i,
          text:
            reason === "generated"
              ? "Generated file not shown by default."
              : `Large diff (${f.additions + f.deletions} lines) not shown by default.`,
          action: "expand",
        });
      } else if (f.isBinary) out.push({ kind: "notice", file: i, text: "Binary file not shown." });
      else if (f.hunks.length === 0 && f.truncated)
        out.push({ kind: "notice", file: i, text: "This diff was not loaded with the page.", action: "load" });
      else if (f.hunks.length === 0)
        out.push({
          kind: "notice",
          file: i,
          text: f.isSubmodule
            ? "Submodule pointer changed."
            : f.status === "renamed"
              ? "File renamed without changes."
              : f.oldMode !== f.newMode && f.oldMode && f.newMode
                ? "File mode changed."
                : "Empty file.",
        });
      else {
        const slots = lineSlots?.(f);
        const slot = (side: LineSide, n: number | null) => {
          if (slots && n !== null && slots.has(`${side}:${n}`)) out.push({ kind: "slot", file: i, side, line: n });
        };
        for (const r of fileRows(f, view)) {
          out.push({ ...r, file: i });
          if (!slots || slots.size === 0) continue;
          if (r.kind === "line") {
            if (r.line.line.type !== "add") slot("LEFT", r.line.oldNo);
            if (r.line.line.type !== "delete") slot("RIGHT", r.line.newNo);
          } else if (r.kind === "pair") {
            slot("LEFT", r.left?.oldNo ?? null);
            slot("RIGHT", r.right?.newNo ?? null);
          }
        }
        if (f.truncated)
          out.push({
            kind: "notice",
            file: i,
            text:
              f.truncatedReason === "file"
                ? "This file's diff is too large: the rest is not shown."
                : "The rest of this diff was not loaded.",
            action: f.truncatedReason === "total" ? "load" : undefined,
          });
      }
      out.push({ kind: "end", file: i });
    });
    return out;
  }, [files, view, open, closed, collapsedFile, lineSlots, fileTop]);

  const firstRow = useMemo(() => {
    const m = new Map<number, number>();
    rows.forEach((r, i) => r.kind === "file" && m.set(r.file, i));
    return m;
  }, [rows]);

  const [scrollMargin, setScrollMargin] = useState(0);
  const listRef = useCallback((el: HTMLDivElement | null) => {
    if (el) setScrollMargin(el.getBoundingClientRect().top + window.scrollY);
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: (i) =>
      rows[i].kind === "file"
        ? 48
        : rows[i].kind === "end"
          ? 16
          : rows[i].kind === "notice"
            ? 56
            : rows[i].kind === "slot" || rows[i].kind === "top"
              ? 120
              : 22,
    overscan: 20,
    scrollMargin,
    // before the window is measured (the server render and hydration), draw the rows of one tall
    // screen, so the first files are in the HTML and show before the page hydrates
    initialRect: { width: 1280, height: 1200 },
  });

  /** Fetches file `i` and the next files whose hunks were left out of the page (one `paths` request). */
  const load = async (i: number, opts: { open?: boolean } = {}) => {
    if (!source || loading.has(i)) return;
    const batch = [i];
    for (let k = i + 1; k < files.length && batch.length < LOAD_BATCH; k++)
      if (files[k].truncatedReason === "total" && files[k].hunks.length === 0 && !loading.has(k)) batch.push(k);
    setLoading((s) => new Set([...s, ...batch]));
    try {
      const paths = [...new Set(batch.map((k) => files[k].newPath))];
      const diff =
        source.kind === "commit"
          ? (await client.repos.commit.query({ repoId: source.repoId, sha: source.sha, paths })).diff
          : source.kind === "compare"
            ? (await client.repos.compare.query({ repoId: source.repoId, base: source.base, head: source.head, paths })).diff
            : await client.pulls.getDiff.query({ prId: source.prId, paths });
      const byKey = new Map(diff.files.map((x) => [`${x.oldPath}\0${x.newPath}`, x]));
      setFiles((all) => all.map((x, k) => (batch.includes(k) ? (byKey.get(`${x.oldPath}\0${x.newPath}`) ?? x) : x)));
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
  const firstPending = items
    .map((it) => rows[it.index])
    .find((r) => r?.kind === "notice" && r.action === "load" && !loading.has(r.file) && files[r.file].hunks.length === 0);
  useEffect(() => {
    if (firstPending) void load(firstPending.file);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstPending?.file]);

  // a file chosen in the tree stays at the top for a few seconds while files above it load and grow
  const anchor = useRef<{ file: number; until: number } | null>(null);
  const jump = (i: number) => {
    setTreeOpen(false);
    anchor.current = { file: i, until: Date.now() + 5_000 };
    virtualizer.scrollToIndex(firstRow.get(i) ?? 0, { align: "start" });
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
  useEffect(() => {
    const a = anchor.current;
    if (a && Date.now() < a.until) virtualizer.scrollToIndex(firstRow.get(a.file) ?? 0, { align: "start" });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows]);

  // j/k, n/p: the next or previous file header / slot row (or file-top row) after the first row on screen
  const step = (kind: "file" | "slot", dir: 1 | -1) => {
    const top = virtualizer.getVirtualItems().find((it) => it.end > window.scrollY + 1)?.index ?? 0;
    for (let i = top + dir; i >= 0 && i < rows.length; i += dir) {
      if (rows[i].kind === kind || (kind === "slot" && rows[i].kind === "top")) {
        anchor.current = null;
        virtualizer.scrollToIndex(i, { align: "start" });
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

  const additions = files.reduce((s, f) => s + f.additions, 0);
  const deletions = files.reduce((s, f) => s + f.deletions, 0);

  return (
    <div className="min-w-0" data-testid="diff-viewer" data-view={view}>
      <div className="mb-3 flex flex-wrap items-center gap-2 text-sm">
        <Button
          size="sm"
          className="lg:hidden"
          aria-expanded={treeOpen}
          onClick={() => setTreeOpen((o) => !o)}
          data-testid="toggle-file-tree"
        >
          Files
        </Button>
        <span className="text-muted-foreground" data-testid="diff-summary">
          {totalFiles ?? files.length} changed {(totalFiles ?? files.length) === 1 ? "file" : "files"} with{" "}
          <span className="font-medium text-primary">{additions} additions</span> and{" "}
          <span className="font-medium text-danger">{deletions} deletions</span>
        </span>
        <div className="ml-auto inline-flex rounded-md border border-input" role="group" aria-label="Diff view">
          {(["unified", "split"] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => setView(v)}
              data-testid={`view-${v}`}
              className={cx(
                "px-3 py-1 text-xs font-medium capitalize first:rounded-l-md last:rounded-r-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                view === v ? "bg-accent text-foreground" : "text-muted-foreground hover:bg-muted",
              )}
            >
              {v}
            </button>
          ))}
        </div>
      </div>
      <div className="flex items-start gap-4">
        <FileTree
          files={files}
          onSelect={jump}
          className={cx(
            "sticky top-2 max-h-[calc(100vh-1rem)] w-64 shrink-0 overflow-auto rounded-lg border border-border bg-card p-2 text-sm",
            treeOpen ? "fixed inset-x-2 top-16 z-30 w-auto shadow-lg lg:sticky lg:w-64" : "hidden lg:block",
          )}
        />
        <div ref={listRef} className="min-w-0 flex-1">
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {items.map((item) => {
              const row = rows[item.index];
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  style={{
                    position: "absolute",
                    top: 0,
                    left: 0,
                    width: "100%",
                    transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)`,
                  }}
                >
                  <RowView
                    row={row}
                    file={files[row.file]}
                    fileIndex={row.file}
                    view={view}
                    hl={highlightOf(row.file)}
                    collapsed={isCollapsed(row.file)}
                    loading={loading.has(row.file)}
                    onToggle={() =>
                      isCollapsed(row.file)
                        ? (setClosed((s) => del(s, row.file)), setOpen((s) => new Set(s).add(row.file)))
                        : setClosed((s) => new Set(s).add(row.file))
                    }
                    onLoad={() =>
                      row.kind === "notice" && row.action === "load"
                        ? void load(row.file, { open: true })
                        : setOpen((s) => new Set(s).add(row.file))
                    }
                    renderFileActions={renderFileActions}
                    renderSlot={renderSlot}
                    renderGutter={renderGutter}
                    renderFileTop={renderFileTop}
                  />
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

function del(s: Set<number>, i: number): Set<number> {
  const n = new Set(s);
  n.delete(i);
  return n;
}

function RowView(
  props: {
    row: Row;
    file: DiffFile;
    fileIndex: number;
    view: DiffView;
    hl: FileHighlight;
    collapsed: boolean;
    loading: boolean;
    onToggle: () => void;
    onLoad: () => void;
  } & Pick<DiffViewerProps, "renderFileActions" | "renderSlot" | "renderGutter" | "renderFileTop">,
) {
  const { row, file, view, hl } = props;
  const gutter = (side: LineSide, n: number | null) => (n !== null && props.renderGutter ? props.renderGutter(file, side, n) : null);
  if (row.kind === "slot") {
    const content = props.renderSlot?.(file, row.side, row.line);
    if (view === "unified") return <div className="border-x border-border bg-card px-2 py-2 font-sans">{content}</div>;
    return (
      <div className="grid grid-cols-2 border-x border-border bg-card font-sans">
        <div className="min-w-0 px-2 py-2">{row.side === "LEFT" && content}</div>
        <div className="min-w-0 border-l border-border px-2 py-2">{row.side === "RIGHT" && content}</div>
      </div>
    );
  }
  if (row.kind === "top")
    return (
      <div className="border-x border-border bg-card px-2 py-2 font-sans" data-testid="diff-file-top">
        {props.renderFileTop?.(file)}
      </div>
    );
  if (row.kind === "file")
    return (
      <FileHeader
        file={file}
        index={props.fileIndex}
        collapsed={props.collapsed}
        onToggle={props.onToggle}
        actions={props.renderFileActions?.(file, props.fileIndex)}
      />
    );
  if (row.kind === "end") return <div className="h-4 rounded-b-lg border-x border-b border-border bg-card" />;
  if (row.kind === "notice")
    return (
      <div
        className="flex flex-wrap items-center justify-center gap-3 border-x border-border bg-card px-4 py-3 text-sm text-muted-foreground"
        data-testid="diff-notice"
      >
        {row.text}
        {row.action && (
          <Button size="sm" onClick={props.onLoad} disabled={props.loading} data-testid="load-diff">
            {props.loading ? "Loading…" : "Load diff"}
          </Button>
        )}
      </div>
    );
  if (row.kind === "hunk")
    return (
      <div className="border-x border-border bg-accent px-3 py-1 font-mono text-xs text-muted-foreground [overflow-wrap:anywhere]">
        {row.header}
      </div>
    );
  if (row.kind === "line")
    return (
      <>
        <div
          className={cx(
            "grid grid-cols-[2.75rem_2.75rem_minmax(0,1fr)] border-x border-border font-mono text-xs leading-5",
            lineBg(row.line.line.type),
          )}
          data-line-type={row.line.line.type}
        >
          <LineNo n={row.line.oldNo} gutter={row.line.line.type === "delete" ? gutter("LEFT", row.line.oldNo) : null} />
          <LineNo n={row.line.newNo} gutter={row.line.line.type !== "delete" ? gutter("RIGHT", row.line.newNo) : null} />
          <Code line={row.line} hl={hl} />
        </div>
      </>
    );
  // split
  return (
    <div className="grid grid-cols-2 border-x border-border font-mono text-xs leading-5" data-testid="split-row">
      {[row.left, row.right].map((side, k) => (
        <div
          key={k}
          className={cx(
            "grid min-w-0 grid-cols-[2.75rem_minmax(0,1fr)]",
            k === 1 && "border-l border-border",
            side ? lineBg(side.line.type) : "bg-muted",
          )}
        >
          <LineNo
            n={side ? (k === 0 ? side.oldNo : side.newNo) : null}
            gutter={side ? (k === 0 ? gutter("LEFT", side.oldNo) : gutter("RIGHT", side.newNo)) : null}
          />
          {side ? <Code line={side} hl={hl} /> : <span />}
        </div>
      ))}
    </div>
  );
}

function lineBg(type: DiffFile["hunks"][number]["lines"][number]["type"]): string {
  return type === "add" ? "bg-primary-muted" : type === "delete" ? "bg-danger-muted" : "bg-card";
}

function LineNo({ n, gutter }: { n: number | null; gutter?: React.ReactNode }) {
  if (gutter)
    return (
      <span className="group/ln relative flex select-none items-start justify-end px-2 text-right text-subtle-foreground">
        {gutter}
        {n ?? ""}
      </span>
    );
  return <span className="select-none px-2 text-right text-subtle-foreground">{n ?? ""}</span>;
}

function Code({ line, hl }: { line: NumberedLine; hl: FileHighlight }) {
  const marker = line.line.type === "add" ? "+" : line.line.type === "delete" ? "-" : " ";
  const text = line.line.content.replace(/\r$/, "");
  const runs = hl ? tokenRuns(text, hl.runs[line.index], hl.styles) : null;
  return (
    <span className="min-w-0 whitespace-pre-wrap pr-2 [overflow-wrap:anywhere]">
      <span className="select-none text-subtle-foreground" aria-hidden="true">
        {marker}
      </span>
      {runs
        ? runs.map((r, k) =>
            r.style ? (
              <span key={k} style={r.style}>
                {r.text}
              </span>
            ) : (
              r.text
            ),
          )
        : text}
      {line.line.noNewlineAtEnd && (
        <span className="ml-1 select-none text-danger" title="No newline at end of file" aria-label="No newline at end of file">
          ⊘
        </span>
      )}
    </span>
  );
}

function FileHeader({
  file,
  index,
  collapsed,
  onToggle,
  actions,
}: {
  file: DiffFile;
  index: number;
  collapsed: boolean;
  onToggle: () => void;
  actions: React.ReactNode;
}) {
  const modeChanged = file.oldMode && file.newMode && file.oldMode !== file.newMode;
  return (
    <div
      className="mt-3 flex flex-wrap items-center gap-2 rounded-t-lg border border-border bg-muted px-3 py-2 text-sm"
      data-testid="diff-file"
      data-path={file.newPath}
      id={`diff-${index}`}
    >
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={!collapsed}
        aria-label={`${collapsed ? "Expand" : "Collapse"} ${file.newPath}`}
        className="rounded px-1 text-muted-foreground hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {collapsed ? "▸" : "▾"}
      </button>
      <span className="min-w-0 font-mono text-xs font-medium [overflow-wrap:anywhere]" data-testid="diff-file-path">
        {displayPath(file)}
      </span>
      {file.copiedFrom && <span className="text-xs text-muted-foreground">(copied)</span>}
      {modeChanged && (
        <span className="font-mono text-xs text-muted-foreground" data-testid="mode-change">
          {file.oldMode} → {file.newMode}
        </span>
      )}
      {file.isBinary && <span className="rounded-full border border-border px-2 text-xs text-muted-foreground">binary</span>}
      {file.isSubmodule && <span className="rounded-full border border-border px-2 text-xs text-muted-foreground">submodule</span>}
      <span className="ml-auto flex items-center gap-2 font-mono text-xs">
        <span className="text-primary">+{file.additions}</span>
        <span className="text-danger">−{file.deletions}</span>
        {actions}
      </span>
    </div>
  );
}
