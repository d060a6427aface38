"use client";
/**
 * Syntax highlighting of the diff viewer's files (docs/pulls.md "Viewer"): the page's (its first screen,
 * lib/highlight/diff.ts), then, for files that come into view without it (the rest of the
 * first page, files loaded as the reader scrolls), `POST /api/highlight` with the lines the viewer
 * already holds (server/http/highlight.ts), a batch of about BATCH_LINES lines: the visible files
 * and the ones after them. A highlight belongs to a file object: a file replaced by a fetch of its
 * hunks is asked for again. Failures leave files plain (never retried in this page view).
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { hunkLinesOf, type DiffHighlights, type TokenStyle } from "@/lib/highlight/runs";
import type { DiffFile } from "./model";

/** One file's highlight as the rows need it: runs per hunk line and their style palette. */
export type FileHighlight = { runs: (number[] | null)[]; styles: TokenStyle[] } | null;

/** Lines asked for per request (the API takes up to 2,000). */
const BATCH_LINES = 600;
/** Files with more hunk lines than this are left plain (the server would too: MAX_HIGHLIGHT_FILE_LINES). */
const MAX_FILE_LINES = 2_000;

function lineCount(f: DiffFile): number {
  return f.hunks.reduce((n, h) => n + h.lines.length, 0);
}

/**
 * The highlight of file `i` (or null: plain, or not there yet). `enabled`: the page highlights
 * (false leaves everything plain); `visible`: indexes of the files with rows on screen, in order.
 */
export function useHighlights(
  initial: DiffFile[],
  files: DiffFile[],
  highlights: DiffHighlights | undefined,
  visible: number[],
): (i: number) => FileHighlight {
  const fromPage = useMemo(() => {
    const m = new Map<DiffFile, FileHighlight>();
    initial.forEach((f, i) => highlights?.files[i] && m.set(f, { runs: highlights.files[i]!, styles: highlights.styles }));
    return m;
  }, [initial, highlights]);
  const [fetched, setFetched] = useState(() => new Map<DiffFile, FileHighlight>());
  const asked = useRef(new WeakSet<DiffFile>());

  const visibleKey = visible.join(",");

  useEffect(() => {
    if (!highlights) return;
    // the files to ask for: visible ones without a highlight, then the next ones, up to BATCH_LINES
    const shown = visibleKey ? visibleKey.split(",").map(Number) : [];
    const wanted: number[] = [];
    let lines = 0;
    const want = (k: number) => {
      const f = files[k];
      if (!f || f.isBinary || f.hunks.length === 0 || fromPage.has(f) || asked.current.has(f) || wanted.includes(k)) return;
      const n = lineCount(f);
      if (n > MAX_FILE_LINES || lines + n > BATCH_LINES) return;
      lines += n;
      wanted.push(k);
    };
    shown.forEach(want);
    if (shown.length > 0)
      for (let k = shown[shown.length - 1] + 1; k < files.length && lines < BATCH_LINES && k < shown[shown.length - 1] + 50; k++) want(k);
    if (wanted.length === 0) return;
    const batch = wanted.map((k) => files[k]!);
    batch.forEach((f) => asked.current.add(f));
    void (async () => {
      try {
        const res = await fetch("/api/highlight", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ files: batch.map((f) => ({ path: f.newPath, lines: hunkLinesOf(f) })) }),
        });
        if (!res.ok) return;
        const h = (await res.json()) as DiffHighlights;
        setFetched((m) => {
          const next = new Map(m);
          batch.forEach((f, k) => next.set(f, h.files[k] ? { runs: h.files[k]!, styles: h.styles } : null));
          return next;
        });
      } catch {
        // plain text stays
      }
    })();
  }, [files, highlights, fromPage, visibleKey]);

  return (i: number) => {
    const f = files[i];
    return (f && (fromPage.get(f) ?? fetched.get(f))) ?? null;
  };
}
