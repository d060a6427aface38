"use client";
/**
 * The file tree's panel (docs/pulls.md "Viewer"): a filter box (path text), the file-type filter
 * (one checkbox per extension with its count, ".ts (12)"; none checked shows every type), the
 * count of files shown, and the tree (./file-tree.tsx). Beside the diff from `lg` up, in a sheet
 * on narrower screens: the two share one filter state (`useTreeFilter`).
 */
import { useMemo, useState } from "react";
import { Input } from "@/components/ui/input";
import { cx } from "@/components/ui/styles";
import { FileTree } from "./file-tree";
import { extensionCounts, filterFiles } from "./diff-viewer-nav";
import type { DiffFile } from "./model";

/** The tree's filter: the text, the checked extensions, the extensions' counts and the files shown (undefined: all). */
export function useTreeFilter(files: DiffFile[]) {
  const [text, setText] = useState("");
  const [exts, setExts] = useState<ReadonlySet<string>>(() => new Set());
  const counts = useMemo(() => extensionCounts(files), [files]);
  const shown = useMemo(() => (text.trim() || exts.size > 0 ? filterFiles(files, text, exts) : undefined), [files, text, exts]);
  const toggleExt = (ext: string) =>
    setExts((s) => {
      const n = new Set(s);
      if (n.has(ext)) n.delete(ext);
      else n.add(ext);
      return n;
    });
  return { text, setText, exts, toggleExt, counts, shown };
}

export type TreeFilter = ReturnType<typeof useTreeFilter>;

/** The panel over `files` with `filter`; `onSelect` gets the chosen file's index. */
export function FileTreePanel({
  files,
  filter,
  onSelect,
  className,
}: {
  files: DiffFile[];
  filter: TreeFilter;
  onSelect: (fileIndex: number) => void;
  className?: string;
}) {
  const { text, setText, exts, toggleExt, counts, shown } = filter;
  return (
    <div className={cx("flex flex-col gap-2 text-sm", className)} data-testid="diff-file-panel">
      <Input
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Filter changed files…"
        aria-label="Filter changed files"
        className="h-8 text-sm"
        data-testid="file-filter"
      />
      {counts.length > 1 && (
        <fieldset className="max-h-24 overflow-y-auto" data-testid="file-type-filter">
          <legend className="sr-only">File types</legend>
          <div className="flex flex-wrap gap-x-3 gap-y-1">
            {counts.map(({ ext, count }) => (
              <label key={ext} className="flex items-center gap-1 font-mono text-xs text-muted-foreground">
                <input
                  type="checkbox"
                  className="h-3.5 w-3.5 accent-[var(--primary)]"
                  checked={exts.has(ext)}
                  onChange={() => toggleExt(ext)}
                  data-testid="file-type"
                  data-ext={ext}
                />
                {ext || "(none)"} ({count})
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <p className="text-xs text-muted-foreground" data-testid="file-tree-count" aria-live="polite">
        {shown ? `${shown.length} of ${files.length} files` : `${files.length} ${files.length === 1 ? "file" : "files"}`}
      </p>
      <FileTree files={files} shown={shown} onSelect={onSelect} className="min-h-0 flex-1 overflow-auto" />
    </div>
  );
}
