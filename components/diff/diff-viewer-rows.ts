/**
 * The rows of the diff viewer (./diff-viewer.tsx), as one flat list for the virtualizer: per file
 * a header, then (unless collapsed) its file-top row, a notice (collapsed by default, binary, not
 * loaded, no changes) or its hunk and line rows with the slot rows under the lines that have one,
 * a "rest not shown" notice when truncated, and an end row. With `expansion`, each gap of unchanged
 * lines (./expand.ts) gets its expanded lines and an expander row before the hunk after it (a hunk
 * whose gap is all shown loses its header, as on GitHub). Pure (no React).
 */
import { collapseReason, fileRows, type DiffFile, type DiffView } from "./model";
import { fileGaps, gapLayout, type FileExpansion, type Gap } from "./expand";
import { formatBytes } from "@/components/ui/format";
import type { DiffViewerProps, LineSide, Row } from "./diff-viewer-types";

/**
 * The rows of `files` in `view`. `open`: files the reader opened (also those collapsed by
 * default); `closed`: files the reader collapsed; `collapsedFile`, `lineSlots`, `fileTop`: as in
 * DiffViewerProps; `expansion`: what the reader expanded of a file (absent: the viewer has no
 * expand rows).
 */
export function buildRows(
  files: DiffFile[],
  view: DiffView,
  open: ReadonlySet<number>,
  closed: ReadonlySet<number>,
  { collapsedFile, lineSlots, fileTop }: Pick<DiffViewerProps, "collapsedFile" | "lineSlots" | "fileTop">,
  expansion?: (f: DiffFile) => FileExpansion | undefined,
): Row[] {
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
    } else if (f.lfs && f.hunks.length === 0 && !f.truncated) out.push({ kind: "notice", file: i, text: lfsSummary(f.lfs) });
    else if (f.isBinary) out.push({ kind: "notice", file: i, text: "Binary file not shown." });
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
      const exp = expansion?.(f);
      const gaps = expansion ? fileGaps(f, exp?.totalLines) : [];
      // a gap's rows; false when it is all shown (the hunk after it needs no header)
      const gap = (g: Gap | null | undefined): boolean => {
        if (!g) return true;
        const { top, bottom, hidden } = gapLayout(g, exp);
        const line = (n: number) => out.push({ kind: "expanded", file: i, oldNo: n + g.delta, newNo: n, line: exp!.lines.get(n)! });
        top.forEach(line);
        if (hidden) out.push({ kind: "expander", file: i, gap: g, hidden });
        bottom.forEach(line);
        return !!hidden;
      };
      for (const r of fileRows(f, view)) {
        if (r.kind === "hunk" && !gap(gaps[r.hunkIndex])) continue;
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
      gap(gaps[f.hunks.length]);
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
}

/** "Stored with Git LFS: 1.2 KB → 3.4 KB" (a side absent: "—"; not uploaded: said so). */
export function lfsSummary(lfs: NonNullable<DiffFile["lfs"]>): string {
  const side = (s: (typeof lfs)["old"]) => (s ? `${formatBytes(s.size)}${s.stored ? "" : " (object not uploaded)"}` : "—");
  return `Stored with Git LFS: ${side(lfs.old)} → ${side(lfs.new)}`;
}

/** The virtualizer's first guess of a row's height in pixels (rows are measured once drawn). */
export function estimateRowSize(row: Row): number {
  return row.kind === "file"
    ? 48
    : row.kind === "end"
      ? 16
      : row.kind === "notice"
        ? 56
        : row.kind === "slot" || row.kind === "top"
          ? 120
          : row.kind === "expander"
            ? 32
            : 22;
}
