"use client";
/**
 * The changed-file tree beside a diff (docs/pulls.md "Viewer"): directories, then files with their
 * +/−; a click scrolls to the file. It is its own scroll box (the `nav`, sticky beside the diff)
 * and virtualized inside it (@tanstack/react-virtual): a 2,000-file pull request draws, sends and
 * hydrates about 50 rows, not 2,000 (all 2,000 would be 2 MB of the page's HTML). Trees of up to
 * ALL_ROWS rows are drawn whole. Rows have one height (names are cut with an ellipsis, the full
 * path in the title), depth is indentation.
 */
import { useMemo, useRef } from "react";
import { defaultRangeExtractor, useVirtualizer } from "@tanstack/react-virtual";
import { FileIcon, FolderIcon } from "@/components/ui/icons";
import { fileTree, type DiffFile, type TreeNode } from "./model";

/** Height of a row in px (text-sm line of 20 px + py-0.5). */
const ROW = 24;
/** Trees with at most this many rows are drawn whole (no virtualization). */
const ALL_ROWS = 150;

type TreeRow = { node: TreeNode; depth: number };

/** The tree's rows in display order, with their depth; a file node's index is mapped through `index`. */
function flatten(nodes: TreeNode[], index: (i: number) => number, depth = 0, out: TreeRow[] = []): TreeRow[] {
  for (const node of nodes) {
    out.push({ node: node.fileIndex === undefined ? node : { ...node, fileIndex: index(node.fileIndex) }, depth });
    if (node.fileIndex === undefined) flatten(node.children, index, depth + 1, out);
  }
  return out;
}

/** The tree of `files` (only the indices in `shown` when given); `onSelect` gets the file's index in `files`. */
export function FileTree({
  files,
  shown,
  onSelect,
  className,
}: {
  files: DiffFile[];
  shown?: number[];
  onSelect: (fileIndex: number) => void;
  className?: string;
}) {
  const rows = useMemo(
    () => (shown ? flatten(fileTree(shown.map((i) => files[i])), (i) => shown[i]) : flatten(fileTree(files), (i) => i)),
    [files, shown],
  );
  const scrollRef = useRef<HTMLElement | null>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual returns new functions each render, so the compiler leaves this component unmemoized, which it needs
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 12,
    // before the box is measured (server render, hydration): the rows of a tall screen
    initialRect: { width: 256, height: 880 },
    rangeExtractor: (range) => (range.count <= ALL_ROWS ? Array.from({ length: range.count }, (_, i) => i) : defaultRangeExtractor(range)),
  });
  return (
    <nav ref={scrollRef} aria-label="Changed files" className={className} data-testid="diff-file-tree">
      <ul role="list" className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const { node, depth } = rows[item.index];
          return (
            <li key={item.key} className="absolute inset-x-0 top-0" style={{ height: ROW, transform: `translateY(${item.start}px)` }}>
              <Row node={node} depth={depth} files={files} onSelect={onSelect} />
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function Row({ node, depth, files, onSelect }: { node: TreeNode; depth: number; files: DiffFile[]; onSelect: (i: number) => void }) {
  const pad = { paddingLeft: `${depth * 0.75 + 0.25}rem` };
  if (node.fileIndex === undefined)
    return (
      <div className="flex h-full items-center gap-1.5 text-muted-foreground" style={pad} title={node.path}>
        <FolderIcon className="shrink-0 text-subtle-foreground" />
        <span className="min-w-0 truncate">{node.name}</span>
      </div>
    );
  const f = files[node.fileIndex];
  const i = node.fileIndex;
  return (
    <button
      type="button"
      onClick={() => onSelect(i)}
      className="flex h-full w-full items-center gap-1.5 rounded pr-1 text-left hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
      style={pad}
      data-testid="file-tree-item"
      title={f.newPath}
    >
      <FileIcon className="shrink-0 text-subtle-foreground" />
      <span className="min-w-0 flex-1 truncate">{node.name}</span>
      <span className="shrink-0 font-mono text-xs text-primary">+{f.additions}</span>
      <span className="shrink-0 font-mono text-xs text-danger">−{f.deletions}</span>
    </button>
  );
}
