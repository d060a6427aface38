"use client";
/**
 * The rows and the file-header control of expanded unchanged lines (docs/pulls.md "Viewer",
 * "Expand unchanged lines"; the model: ./expand.ts, the state: ./use-expand.ts): a gap's expander
 * row (↕ all of a small gap, ↓ 20 lines under the hunk before, ↑ 20 lines above the hunk after),
 * an expanded line (drawn as an unchanged diff line, both numbers, highlighted; no comment button:
 * review comments belong to lines inside the diff's hunks), and the header's "Expand all".
 */
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/styles";
import { LineText } from "./line-text";
import { tokenRuns, type DiffFile, type DiffView } from "./model";
import type { Row } from "./diff-viewer-types";
import { EXPAND_STEP, expandDirections, fileGaps, gapLayout, type ExpandDirection } from "./expand";
import type { Expansion } from "./use-expand";
import type { ExpandedLine } from "./expand";

const ICON: Record<ExpandDirection, string> = { all: "↕", down: "↓", up: "↑" };

function label(dir: ExpandDirection, hidden: { from: number; to: number | null }): string {
  if (dir === "all") {
    const n = hidden.to! - hidden.from + 1;
    return `Expand ${n} hidden ${n === 1 ? "line" : "lines"}`;
  }
  return `Expand ${EXPAND_STEP} lines ${dir === "up" ? "above" : "below"}`;
}

/** An unchanged line's text with its highlight, drawn by the same cell as the diff's context lines (./line-text.tsx). */
function Code({ line }: { line: ExpandedLine }) {
  const text = line.text.replace(/\r$/, "");
  return <LineText marker=" " text={text} runs={line.runs ? tokenRuns(text, line.runs, line.styles ?? []) : null} />;
}

/** An expander row or an expanded line of `file` in `view`. */
export function ExpandRow({
  row,
  file,
  view,
  expansion,
}: {
  row: Extract<Row, { kind: "expander" | "expanded" }>;
  file: DiffFile;
  view: DiffView;
  expansion: Expansion | null | undefined;
}) {
  if (row.kind === "expanded") {
    const no = (n: number) => <span className="select-none px-2 text-right text-subtle-foreground">{n}</span>;
    if (view === "unified")
      return (
        <div
          className="grid grid-cols-[2.75rem_2.75rem_minmax(0,1fr)] border-x border-border bg-card font-mono text-xs leading-5"
          data-line-type="context"
          data-testid="expanded-line"
          data-new-line={row.newNo}
        >
          {no(row.oldNo)}
          {no(row.newNo)}
          <Code line={row.line} />
        </div>
      );
    return (
      <div
        className="grid grid-cols-2 border-x border-border font-mono text-xs leading-5"
        data-testid="expanded-line"
        data-new-line={row.newNo}
      >
        {[row.oldNo, row.newNo].map((n, k) => (
          <div key={k} className={cx("grid min-w-0 grid-cols-[2.75rem_minmax(0,1fr)] bg-card", k === 1 && "border-l border-border")}>
            {no(n)}
            <Code line={row.line} />
          </div>
        ))}
      </div>
    );
  }
  const { gap, hidden } = row;
  const busy = !!expansion?.of(file)?.busy;
  const count = hidden.to === null ? null : hidden.to - hidden.from + 1;
  return (
    <div
      className="flex min-h-8 items-center gap-2 border-x border-border bg-accent font-mono text-xs text-muted-foreground"
      data-testid="diff-expander"
    >
      <span className="flex w-[5.5rem] shrink-0 items-center justify-center gap-1">
        {expandDirections(gap, hidden, file.hunks.length).map((dir, k) => (
          <button
            key={dir}
            type="button"
            // the row drawn anew after a click keeps the keyboard focus on its first button
            ref={(el) => {
              if (el && !el.disabled && k === 0 && expansion?.takeFocus(file, gap.index)) el.focus({ preventScroll: true });
            }}
            disabled={busy || !expansion}
            onClick={() => expansion?.expand(file, hidden, dir, gap.index)}
            aria-label={label(dir, hidden)}
            title={label(dir, hidden)}
            data-testid={`expand-${dir}`}
            className="flex h-7 w-8 items-center justify-center rounded text-sm text-foreground hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
          >
            <span aria-hidden="true">{ICON[dir]}</span>
          </button>
        ))}
      </span>
      <span className="min-w-0 py-1 pr-2 [overflow-wrap:anywhere]">
        {busy
          ? "Loading…"
          : count === null
            ? `Unchanged lines from ${hidden.from} to the end`
            : `${count} unchanged ${count === 1 ? "line" : "lines"} (${hidden.from}–${hidden.to})`}
      </span>
    </div>
  );
}

/**
 * The file header's "Expand all" (when `file` has hidden unchanged lines), or the note that the
 * file is too long for it (over EXPAND_ALL_MAX_LINES lines).
 */
export function ExpandAllButton({ file, expansion }: { file: DiffFile; expansion: Expansion | null | undefined }) {
  if (!expansion) return null;
  const s = expansion.of(file);
  if (s?.tooLong)
    return (
      <span className="font-sans text-xs text-muted-foreground" data-testid="expand-all-too-long">
        Too long to expand all ({s.tooLong.toLocaleString("en-US")} lines)
      </span>
    );
  if (!fileGaps(file, s?.totalLines).some((g) => g && gapLayout(g, s).hidden)) return null;
  return (
    <Button
      size="sm"
      variant="ghost"
      className="h-6 px-2 font-sans text-xs"
      disabled={!!s?.busy}
      onClick={() => expansion.expandAll(file)}
      aria-label={`Expand all lines of ${file.newPath}`}
      data-testid="expand-all"
    >
      Expand all
    </Button>
  );
}
