"use client";
/**
 * One row of the diff viewer (./diff-viewer.tsx; the rows: ./diff-viewer-rows.ts): a file header
 * (toggle, path, mode change, binary / submodule marks, +/−, the page's file actions), a file-top
 * or slot row (the page's content; a LEFT slot sits in the left half in split view), a notice
 * (with "Load diff" when it can), a hunk header, a unified line or a split pair, or a file's end.
 */
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/styles";
import { LineText } from "./line-text";
import { displayPath, tokenRuns, type DiffFile, type DiffView, type NumberedLine } from "./model";
import type { DiffViewerProps, LineSide, Row } from "./diff-viewer-types";
import type { FileHighlight } from "./use-highlights";
import { ExpandAllButton, ExpandRow } from "./diff-expand-rows";
import type { Expansion } from "./use-expand";

/**
 * `row` of file `file` (index `fileIndex`) in `view`, with the file's highlight `hl`; `collapsed`
 * and `onToggle` drive a header's toggle; `loading` and `onLoad` a notice's "Load diff" button;
 * the render callbacks are the viewer's (DiffViewerProps).
 */
export function RowView(
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
    /** The viewer's expanded unchanged lines (./use-expand.ts); null: no expand rows. */
    expansion?: Expansion | null;
    /** The file's line-number tab stop ("RIGHT:12"; the viewer's roving tab stop). */
    stop?: string;
    /** The hunk line (NumberedLine.index) of find in diff's current match, when in this file. */
    found?: number;
  } & Pick<DiffViewerProps, "renderFileActions" | "renderSlot" | "renderGutter" | "renderFileTop">,
) {
  const { row, file, view, hl } = props;
  if (row.kind === "expander" || row.kind === "expanded")
    return <ExpandRow row={row} file={file} view={view} expansion={props.expansion} />;
  const gutter = (side: LineSide, n: number | null) =>
    n !== null && props.renderGutter ? props.renderGutter(file, side, n, props.stop === `${side}:${n}` ? 0 : -1) : null;
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
        expandAll={!props.collapsed && <ExpandAllButton file={file} expansion={props.expansion} />}
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
            props.found === row.line.index && FOUND,
          )}
          data-line-type={row.line.line.type}
          data-find-current={props.found === row.line.index || undefined}
        >
          <LineNo n={row.line.oldNo} side="LEFT" gutter={row.line.line.type === "delete" ? gutter("LEFT", row.line.oldNo) : null} />
          <LineNo n={row.line.newNo} side="RIGHT" gutter={row.line.line.type !== "delete" ? gutter("RIGHT", row.line.newNo) : null} />
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
            side && props.found === side.index && FOUND,
          )}
          data-find-current={(side && props.found === side.index) || undefined}
        >
          <LineNo
            n={side ? (k === 0 ? side.oldNo : side.newNo) : null}
            side={k === 0 ? "LEFT" : "RIGHT"}
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

/** The line find in diff shows (its current match). */
const FOUND = "outline outline-2 -outline-offset-2 outline-warning";

function LineNo({ n, side, gutter }: { n: number | null; side: LineSide; gutter?: React.ReactNode }) {
  if (gutter)
    return (
      <span
        className="group/ln relative flex select-none items-start justify-end px-2 text-right text-subtle-foreground"
        data-gutter-key={n !== null ? `${side}:${n}` : undefined}
      >
        {gutter}
        {n ?? ""}
      </span>
    );
  return <span className="select-none px-2 text-right text-subtle-foreground">{n ?? ""}</span>;
}

function Code({ line, hl }: { line: NumberedLine; hl: FileHighlight }) {
  const marker = line.line.type === "add" ? "+" : line.line.type === "delete" ? "-" : " ";
  const text = line.line.content.replace(/\r$/, "");
  return (
    <LineText marker={marker} text={text} runs={hl ? tokenRuns(text, hl.runs[line.index], hl.styles) : null}>
      {line.line.noNewlineAtEnd && (
        <span className="ml-1 select-none text-danger" title="No newline at end of file" aria-label="No newline at end of file">
          ⊘
        </span>
      )}
    </LineText>
  );
}

function FileHeader({
  file,
  index,
  collapsed,
  onToggle,
  actions,
  expandAll,
}: {
  file: DiffFile;
  index: number;
  collapsed: boolean;
  onToggle: () => void;
  actions: React.ReactNode;
  expandAll?: React.ReactNode;
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
      {file.lfs && (
        <span className="rounded-full border border-border px-2 text-xs text-muted-foreground" data-testid="diff-lfs-badge">
          Git LFS
        </span>
      )}
      {file.isBinary && <span className="rounded-full border border-border px-2 text-xs text-muted-foreground">binary</span>}
      {file.isSubmodule && <span className="rounded-full border border-border px-2 text-xs text-muted-foreground">submodule</span>}
      <span className="ml-auto flex items-center gap-2 font-mono text-xs">
        <span className="text-primary">+{file.additions}</span>
        <span className="text-danger">−{file.deletions}</span>
        {expandAll}
        {actions}
      </span>
    </div>
  );
}
