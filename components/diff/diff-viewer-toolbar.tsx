"use client";
/**
 * The bar above the diff viewer's files (./diff-viewer.tsx): the file tree's toggle (narrow
 * screens), the summary of the changes and the unified / split switch.
 */
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/styles";
import type { DiffView } from "./model";

/**
 * `files`: the number of changed files; `additions` / `deletions` over all of them; `view` and
 * `onView` the switch; `treeOpen` and `onToggleTree` the file tree's toggle.
 */
export function DiffToolbar(props: {
  files: number;
  additions: number;
  deletions: number;
  view: DiffView;
  onView: (view: DiffView) => void;
  treeOpen: boolean;
  onToggleTree: () => void;
}) {
  const { files, additions, deletions, view, onView, treeOpen, onToggleTree } = props;
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2 text-sm">
      <Button size="sm" className="lg:hidden" aria-expanded={treeOpen} onClick={onToggleTree} data-testid="toggle-file-tree">
        Files
      </Button>
      <span className="text-muted-foreground" data-testid="diff-summary">
        {files} changed {files === 1 ? "file" : "files"} with <span className="font-medium text-primary">{additions} additions</span> and{" "}
        <span className="font-medium text-danger">{deletions} deletions</span>
      </span>
      <div className="ml-auto inline-flex rounded-md border border-input" role="group" aria-label="Diff view">
        {(["unified", "split"] as const).map((v) => (
          <button
            key={v}
            type="button"
            aria-pressed={view === v}
            onClick={() => onView(v)}
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
  );
}
