"use client";
/**
 * The diff viewer's expanded unchanged lines (docs/pulls.md "Viewer", "Expand unchanged lines";
 * the gaps: ./expand.ts). Lines come from the new side's blob (`repos.blobLines`, in the head's
 * repository: ./diff-viewer-types.ts `DiffSource`), then, when the page highlights, through
 * `POST /api/highlight` like the rest of the viewer (./use-highlights.ts). State per file path and
 * new-side blob: a refresh that draws the same blob again (a live update, "Load diff") keeps what
 * was expanded; a new blob (a push) starts unexpanded.
 */
import { useCallback, useMemo, useRef, useState } from "react";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { toast } from "@/components/ui/toast";
import type { DiffHighlights } from "@/lib/highlight/runs";
import type { DiffFile } from "./model";
import type { DiffSource } from "./diff-viewer-types";
import {
  EXPAND_ALL_MAX_LINES,
  EXPAND_REQUEST_LINES,
  expandAllRanges,
  expandRange,
  fileGaps,
  gapLayout,
  type ExpandDirection,
  type ExpandedLine,
  type FileExpansion,
} from "./expand";

/** Longest line /api/highlight takes (server/http/highlight.ts MAX_LINE_CHARS); a chunk with a longer one stays plain. */
const MAX_HIGHLIGHT_CHARS = 10_000;

/** A file's expansion plus what its controls show: a request under way, or the length of a file too long for "Expand all". */
export interface FileExpandState extends FileExpansion {
  busy?: boolean;
  tooLong?: number;
}

/** What the rows and their controls (./diff-expand-rows.tsx) use. */
export interface Expansion {
  /** The expansion of file `f` (undefined: nothing expanded yet). */
  of: (f: DiffFile) => FileExpandState | undefined;
  /** One click of the expander row of gap `gap`: the lines of `hidden` in direction `dir`. */
  expand: (f: DiffFile, hidden: { from: number; to: number | null }, dir: ExpandDirection, gap?: number) => void;
  /** Every hidden line of `f`, unless the file is longer than EXPAND_ALL_MAX_LINES (then `tooLong` says so). */
  expandAll: (f: DiffFile) => void;
  /**
   * Whether the expander row of gap `gap` of `f`, drawn anew, takes the keyboard focus: its row
   * was just clicked (within 5 s) and the focus was lost (the rows above it changed, so the
   * virtualizer drew it in another element). Answers true once.
   */
  takeFocus: (f: DiffFile, gap: number) => boolean;
}

type Range = { startLine: number; endLine: number };

/** What the expansion of `f` is kept under: its path and new-side blob (the lines are that blob's), not the object, which a refresh replaces. */
function fileKey(f: DiffFile): string {
  return `${f.newPath}\u0000${f.newSha ?? ""}`;
}

/** The repository whose object store holds the new side's blobs, or null (no expand rows). */
function blobRepo(source: DiffSource | undefined): string | null {
  if (!source) return null;
  if (source.kind === "commit") return source.repoId;
  if (source.kind === "compare") return source.headRepoId ?? source.repoId;
  if (source.kind === "revisions") return null;
  return source.repoId ?? null;
}

function withLines(prev: FileExpandState | undefined, startLine: number, lines: ExpandedLine[], totalLines?: number): FileExpandState {
  const map = new Map(prev?.lines);
  lines.forEach((l, k) => map.set(startLine + k, l));
  return { ...prev, lines: map, totalLines: totalLines ?? prev?.totalLines };
}

/**
 * The expansion state of `files` for a viewer with `source` (null when it has none: no expand
 * rows); `highlights`: the page's highlights (absent: the page shows plain text, so do expanded lines).
 */
export function useExpand(files: DiffFile[], source: DiffSource | undefined, highlights: DiffHighlights | undefined): Expansion | null {
  const client = useTRPCClient();
  const repoId = blobRepo(source);
  const [state, setState] = useState(() => new Map<string, FileExpandState>());
  const update = useCallback(
    (f: DiffFile, change: (s: FileExpandState | undefined) => FileExpandState) =>
      setState((m) => {
        // entries of files no longer shown are dropped
        const shown = new Set(files.map(fileKey));
        const next = new Map([...m].filter(([k]) => shown.has(k)));
        return next.set(fileKey(f), change(m.get(fileKey(f))));
      }),
    [files],
  );

  const highlight = useCallback(
    async (f: DiffFile, startLine: number, lines: string[]) => {
      if (!highlights || lines.length === 0 || lines.some((l) => l.length > MAX_HIGHLIGHT_CHARS)) return;
      try {
        const plain = lines.map((l) => l.replace(/\r$/, ""));
        const res = await fetch("/api/highlight", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ files: [{ path: f.newPath, lines: plain }] }),
        });
        if (!res.ok) return;
        const h = (await res.json()) as DiffHighlights;
        const runs = h.files[0];
        if (!runs) return;
        update(f, (s) =>
          withLines(
            s,
            startLine,
            lines.map((text, k) => ({ text, runs: runs[k] ?? null, styles: h.styles })),
          ),
        );
      } catch {
        // plain text stays
      }
    },
    [highlights, update],
  );

  /** Reads `ranges` of `f`'s new blob, adds their lines, highlights them; returns the file's length. */
  const read = useCallback(
    async (f: DiffFile, ranges: Range[]): Promise<number> => {
      const got = await Promise.all(ranges.map((r) => client.repos.blobLines.query({ repoId: repoId!, sha: f.newSha!, ...r })));
      update(f, (s) =>
        got.reduce<FileExpandState | undefined>(
          (acc, g, k) =>
            withLines(
              acc,
              ranges[k].startLine,
              g.lines.map((text) => ({ text })),
              g.totalLines,
            ),
          s,
        )!,
      );
      got.forEach((g, k) => void highlight(f, ranges[k].startLine, g.lines));
      return got[0]?.totalLines ?? 0;
    },
    [client, repoId, update, highlight],
  );

  const run = useCallback(
    async (f: DiffFile, work: () => Promise<void>) => {
      if (state.get(fileKey(f))?.busy) return;
      update(f, (s) => ({ lines: new Map(), ...s, busy: true }));
      try {
        await work();
      } catch (e) {
        toast.error(errorMessage(e));
      } finally {
        update(f, (s) => ({ lines: new Map(), ...s, busy: false }));
      }
    },
    [state, update],
  );

  const focusAfter = useRef<{ f: string; gap: number; until: number } | null>(null);
  const takeFocus = useCallback((f: DiffFile, gap: number) => {
    const want = focusAfter.current;
    if (!want || want.f !== fileKey(f) || want.gap !== gap || Date.now() > want.until) return false;
    if (document.activeElement && document.activeElement !== document.body) return false;
    focusAfter.current = null;
    return true;
  }, []);

  const expand = useCallback(
    (f: DiffFile, hidden: { from: number; to: number | null }, dir: ExpandDirection, gap?: number) =>
      void run(f, async () => {
        if (gap !== undefined) focusAfter.current = { f: fileKey(f), gap, until: Date.now() + 5_000 };
        await read(f, [expandRange(hidden, dir)]);
      }),
    [run, read],
  );

  const expandAll = useCallback(
    (f: DiffFile) =>
      void run(f, async () => {
        const s = state.get(fileKey(f));
        let total = s?.totalLines;
        let exp: FileExpansion = s ?? { lines: new Map() };
        if (total === undefined) {
          // the first hidden range's first request also tells the file's length
          const g = fileGaps(f).find((x) => x && gapLayout(x, exp).hidden);
          const hidden = g && gapLayout(g, exp).hidden;
          if (!hidden) return;
          const to = hidden.to ?? hidden.from + EXPAND_REQUEST_LINES - 1;
          const probe = await client.repos.blobLines.query({
            repoId: repoId!,
            sha: f.newSha!,
            startLine: hidden.from,
            endLine: Math.min(to, hidden.from + EXPAND_REQUEST_LINES - 1),
          });
          total = probe.totalLines;
          if (total <= EXPAND_ALL_MAX_LINES) {
            exp = withLines(
              s,
              hidden.from,
              probe.lines.map((text) => ({ text })),
              total,
            );
            update(f, (x) =>
              withLines(
                x,
                hidden.from,
                probe.lines.map((text) => ({ text })),
                total,
              ),
            );
            void highlight(f, hidden.from, probe.lines);
          }
        }
        if (total > EXPAND_ALL_MAX_LINES) {
          update(f, (x) => ({ lines: new Map(), ...x, tooLong: total }));
          return;
        }
        const ranges = expandAllRanges(f, exp, total);
        if (ranges.length > 0) await read(f, ranges);
      }),
    [run, read, state, client, repoId, update, highlight],
  );

  const of = useCallback((f: DiffFile) => state.get(fileKey(f)), [state]);
  return useMemo(() => (repoId ? { of, expand, expandAll, takeFocus } : null), [repoId, of, expand, expandAll, takeFocus]);
}
