/**
 * The shape of diff highlighting (docs/pulls.md "Viewer") shared by the server, which makes it
 * (lib/highlight/diff.ts, with shiki), and the diff viewer, which draws it
 * (components/diff/model.ts `tokenRuns`). No shiki here: client components import this module.
 */

/** The part of a diff file highlighting reads (a DiffFile of server/git/diff-types.ts fits). */
export interface HighlightedFile {
  newPath: string;
  isBinary: boolean;
  hunks: { lines: { content: string }[] }[];
}

/** A token's look: the CSS colour (shiki's `light-dark(<light>, <dark>)`) and font styles, as React style properties. */
export type TokenStyle = { color?: string; fontStyle?: string; fontWeight?: string; textDecoration?: string };

/**
 * Syntax highlighting of a page's diff (`highlightDiff`, `highlightLines`) as token runs instead of
 * HTML: about 30 bytes a line instead of ~2.6 kB of shiki's inline-styled spans, so the page's
 * RSC payload stays small. `styles` is one palette for the page; `files` follows the diff's
 * files: per hunk line (hunks flattened, `NumberedLine.index`), runs `[length, style, length,
 * style, …]` covering the line's text (lengths in UTF-16 code units, the trailing "\r"
 * excluded); style -1 is the default text colour (no span). null = the file or line is plain.
 * `stopped`: set when some lines were left plain although their language is known: the
 * request's time budget ran out ("budget"), the worker pool was full ("busy"), the task timed
 * out ("timeout") or failed ("error") (server/highlight/pool.ts).
 */
export interface DiffHighlights {
  styles: TokenStyle[];
  files: ((number[] | null)[] | null)[];
  stopped?: "budget" | "busy" | "timeout" | "error";
}

/** A file's hunk lines in display order (hunks flattened, `NumberedLine.index`), without their trailing "\r": the text highlights are made of. */
export function hunkLinesOf(f: Pick<HighlightedFile, "hunks">): string[] {
  return f.hunks.flatMap((h) => h.lines.map((l) => l.content.replace(/\r$/, "")));
}
