"use client";
/**
 * The diff viewer of the commit, compare and pull request pages: a file tree with per-file +/−,
 * unified or split view (the choice remembered in localStorage "svc.diff.view"), shiki highlights
 * from the server (lib/highlight/diff.ts), generated and large files collapsed behind
 * "Load diff", binary files marked. Rows are virtualized against the window
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
 *
 * Keyboard and find (docs/ui.md "Keyboard shortcuts"): the line numbers' controls are one tab stop
 * per file (Up/Down move it), j/k move focus to the next / previous file's header, `t` jumps to a
 * changed file (./changed-file-finder.tsx), `f` focuses find in diff (./find-bar.tsx). The tree's
 * panel (./file-tree-panel.tsx: filter box, file types, count) sits beside the diff from `lg` up and
 * in a full-width sheet (components/ui/sheet.tsx) below, opened by "Files".
 *
 * State: ./use-diff-viewer.ts; rows: ./diff-viewer-rows.ts (which) and ./diff-viewer-row.tsx (how).
 */
import { useRef } from "react";
import { Sheet, SheetContent } from "@/components/ui/sheet";
import { FileTreePanel, useTreeFilter } from "./file-tree-panel";
import { ChangedFileFinder } from "./changed-file-finder";
import { FindBar } from "./find-bar";
import { RowView } from "./diff-viewer-row";
import { DiffToolbar } from "./diff-viewer-toolbar";
import type { DiffViewerProps } from "./diff-viewer-types";
import { useDiffViewer } from "./use-diff-viewer";

export type { DiffSource, DiffViewerProps, LineSide } from "./diff-viewer-types";

/** The viewer of `files` (see DiffViewerProps for the props and the extension points above). */
export function DiffViewer(props: DiffViewerProps) {
  const { totalFiles, renderFileActions, renderSlot, renderGutter, renderFileTop } = props;
  const {
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
    stopOf,
    find,
    additions,
    deletions,
    expansion,
  } = useDiffViewer(props);
  const filter = useTreeFilter(files);
  const chose = useRef(false);
  const found = find.current >= 0 ? find.matches[find.current] : undefined;

  return (
    <div className="min-w-0" data-testid="diff-viewer" data-view={view}>
      <DiffToolbar
        files={totalFiles ?? files.length}
        additions={additions}
        deletions={deletions}
        view={view}
        onView={setView}
        treeOpen={treeOpen}
        onToggleTree={() => setTreeOpen((o) => !o)}
      />
      <FindBar find={find} />
      <ChangedFileFinder files={files} onJump={jump} />
      {/* phones and tablets: the tree in a full-width sheet; choosing a file closes it (jump) and focuses the file */}
      <Sheet open={treeOpen} onOpenChange={setTreeOpen}>
        <SheetContent
          title="Changed files"
          testId="diff-file-sheet"
          onCloseAutoFocus={(e) => {
            // a file was chosen: focus goes to its header (jump), not back to "Files" (that would scroll back up)
            if (!chose.current) return;
            chose.current = false;
            e.preventDefault();
          }}
        >
          <FileTreePanel
            files={files}
            filter={filter}
            onSelect={(i) => {
              chose.current = true;
              jump(i);
            }}
            className="min-h-0 flex-1 p-3"
          />
        </SheetContent>
      </Sheet>
      <div className="flex items-start gap-4">
        <FileTreePanel
          files={files}
          filter={filter}
          onSelect={jump}
          className="sticky top-2 hidden max-h-[calc(100vh-1rem)] w-64 shrink-0 rounded-lg border border-border bg-card p-2 lg:flex"
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
                    onToggle={() => toggle(row.file)}
                    onLoad={() => openRow(row)}
                    expansion={expansion}
                    stop={renderGutter ? stopOf(row.file) : undefined}
                    found={found?.file === row.file ? found.line : undefined}
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
