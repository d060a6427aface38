/**
 * The bounds of diff highlighting (docs/pulls.md "Viewer"), shared by the server, which
 * highlights (server/highlight/diff.ts, on the worker pool), and the pages. Each file's hunk
 * lines are highlighted together in display order (as GitHub does: a hunk has no full-file
 * context); the result is compact token runs (lib/highlight/runs.ts `DiffHighlights`). Files over
 * MAX_HIGHLIGHT_FILE_LINES and lines past MAX_HIGHLIGHT_LINES in total are left plain.
 */
import type { HighlightedFile } from "./runs";

/** Files with more hunk lines than this are not highlighted. */
export const MAX_HIGHLIGHT_FILE_LINES = 3_000;
/** Most hunk lines highlighted for one page. */
export const MAX_HIGHLIGHT_LINES = 20_000;
/** Hunk lines highlighted before the page is sent (about one tall screen of rows plus the viewer's overscan). */
export const FIRST_SCREEN_LINES = 150;

/**
 * How many of the diff's first files the page highlights before it is sent: the files whose
 * lines start within the first FIRST_SCREEN_LINES hunk lines (the first screen is drawn coloured
 * in the HTML). The viewer asks `POST /api/highlight` for the others as they come into view
 * (app/api/highlight/route.ts), so their highlighting costs the page nothing.
 */
export function firstScreenFiles(diff: { files: HighlightedFile[] }): number {
  let lines = 0;
  let n = 0;
  while (n < diff.files.length && lines < FIRST_SCREEN_LINES) lines += diff.files[n++].hunks.reduce((k, h) => k + h.lines.length, 0);
  return n;
}
