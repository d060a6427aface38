/**
 * Syntax highlighting of diffs (docs/pulls.md "Viewer"), with the code browser's shiki setup
 * (lib/highlight/code.ts: github-light / github-dark-default as CSS light-dark() colours). Each
 * file's hunk lines are highlighted together in display order (as GitHub does: a hunk has no
 * full-file context). The result is compact token runs with one style palette
 * (`DiffHighlights`), not HTML: the viewer is a client component, so whatever it gets is
 * serialized into the page's RSC payload, and shiki's HTML cost ~2.6 kB per line there
 * (docs/performance.md, "Large pull request in the browser"). Bounded: files over
 * MAX_HIGHLIGHT_FILE_LINES and lines past MAX_HIGHLIGHT_LINES in total are left plain. Used by
 * the diff pages (server components) and POST /api/highlight (server/http/highlight.ts).
 */
import { highlightTokens, languageFor } from "./code";
import { hunkLinesOf, type DiffHighlights, type HighlightedFile, type TokenStyle } from "./runs";

/** Files with more hunk lines than this are not highlighted. */
export const MAX_HIGHLIGHT_FILE_LINES = 3_000;
/** Most hunk lines highlighted for one page. */
export const MAX_HIGHLIGHT_LINES = 20_000;
/** Hunk lines highlighted before the page is sent (about one tall screen of rows plus the viewer's overscan). */
export const FIRST_SCREEN_LINES = 150;

const STYLE_KEYS: Record<string, keyof TokenStyle> = {
  color: "color",
  "font-style": "fontStyle",
  "font-weight": "fontWeight",
  "text-decoration": "textDecoration",
};

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

/** Token runs for a diff's files (see `highlightLines`); only files `from` ≤ index < `to` (the others null; the budget still counts them). */
export function highlightDiff(diff: { files: HighlightedFile[] }, range: { from?: number; to?: number } = {}): Promise<DiffHighlights> {
  return highlightLines(
    diff.files.map((f) => ({ path: f.newPath, lines: f.isBinary ? [] : hunkLinesOf(f) })),
    range,
  );
}

/**
 * Token runs per line of each file (`path` gives the language; see `DiffHighlights`), within the
 * bounds above; only files `from` ≤ index < `to` (the others null; the budget still counts them).
 * Adjacent tokens of the same style are merged (whitespace joins the token before it); text in the themes' default colour gets style -1.
 * Never throws: a failure leaves the file plain.
 */
export async function highlightLines(
  input: { path: string; lines: string[] }[],
  range: { from?: number; to?: number } = {},
): Promise<DiffHighlights> {
  let budget = MAX_HIGHLIGHT_LINES;
  const styles: TokenStyle[] = [];
  const styleIndex = new Map<string, number>();
  const files: DiffHighlights["files"] = [];
  for (const [i, { path, lines }] of input.entries()) {
    const lang = languageFor(path);
    if (lines.length === 0 || lines.length > MAX_HIGHLIGHT_FILE_LINES || lines.length > budget || lang === "text") {
      files.push(null);
      continue;
    }
    budget -= lines.length;
    if (i < (range.from ?? 0) || i >= (range.to ?? Infinity)) {
      files.push(null);
      continue;
    }
    try {
      const { tokens, fg } = await highlightTokens(lines.join("\n"), lang);
      if (tokens.length !== lines.length) {
        files.push(null);
        continue;
      }
      files.push(
        tokens.map((line) => {
          const runs: number[] = [];
          for (const t of line) {
            // whitespace looks the same in any colour: it joins the run before it
            if (runs.length > 0 && t.content.trim() === "") {
              runs[runs.length - 2] += t.content.length;
              continue;
            }
            const style: TokenStyle = {};
            for (const [k, v] of Object.entries(t.htmlStyle ?? {})) if (STYLE_KEYS[k]) style[STYLE_KEYS[k]] = v;
            let idx = -1;
            if (style.color?.toLowerCase() === fg && Object.keys(style).length === 1) idx = -1;
            else if (Object.keys(style).length > 0) {
              const key = JSON.stringify(style);
              idx = styleIndex.get(key) ?? -1;
              if (idx < 0) styleIndex.set(key, (idx = styles.push(style) - 1));
            }
            if (runs.length > 0 && runs[runs.length - 1] === idx) runs[runs.length - 2] += t.content.length;
            else runs.push(t.content.length, idx);
          }
          return runs;
        }),
      );
    } catch {
      files.push(null);
    }
  }
  return { styles, files };
}
