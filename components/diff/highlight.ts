/**
 * Syntax highlighting of diffs on the server (issue #8), with the code browser's shiki setup
 * (components/code/highlight.ts: github-light / github-dark-default as CSS light-dark()
 * colours). Each file's hunk lines are highlighted together in display order (as GitHub does: a
 * hunk has no full-file context). The result is compact token runs with one style palette
 * (`DiffHighlights`, components/diff/model.ts), not HTML: the viewer is a client component, so
 * whatever it gets is serialized into the page's RSC payload, and shiki's HTML cost ~2.6 kB per
 * line there (docs/performance.md, "Large pull request in the browser"). Bounded: files over
 * MAX_HIGHLIGHT_FILE_LINES and lines past MAX_HIGHLIGHT_LINES in total are left plain.
 */
import { highlightTokens, languageFor } from "@/components/code/highlight";
import type { Diff } from "@/server/git/diff";
import type { DiffHighlights, TokenStyle } from "./model";

export type { DiffHighlights } from "./model";

/** Files with more hunk lines than this are not highlighted. */
export const MAX_HIGHLIGHT_FILE_LINES = 3_000;
/** Most hunk lines highlighted for one page. */
export const MAX_HIGHLIGHT_LINES = 20_000;
/** Hunk lines highlighted before the page is sent (about one tall screen of rows plus the viewer's overscan). */
export const FIRST_SCREEN_LINES = 150;

const STYLE_KEYS: Record<string, keyof TokenStyle> = { color: "color", "font-style": "fontStyle", "font-weight": "fontWeight", "text-decoration": "textDecoration" };

/**
 * The page's highlighting in two parts: `first`, the files whose lines start within the first
 * FIRST_SCREEN_LINES hunk lines (awaited: the first screen is drawn coloured in the HTML), and
 * `rest`, the other files, as a promise the page hands to the viewer unawaited, so React
 * streams it after the first screen (the reader sees and can scroll the diff meanwhile).
 */
export function highlightDiffStreamed(diff: Pick<Diff, "files">): { first: Promise<DiffHighlights>; rest: Promise<DiffHighlights> } {
  let lines = 0;
  let split = 0;
  while (split < diff.files.length && lines < FIRST_SCREEN_LINES) lines += diff.files[split++].hunks.reduce((n, h) => n + h.lines.length, 0);
  const first = highlightDiff(diff, { to: split });
  // after the first part, not beside it: the first screen gets the CPU first
  const rest = first.then(() => highlightDiff(diff, { from: split, yieldEach: true }));
  return { first, rest };
}

/**
 * Token runs per hunk line of each file (see `DiffHighlights`), within the bounds above; only
 * files `from` ≤ index < `to` (the others null; the budget still counts them); `yieldEach`
 * lets other work run between files (the highlighting that streams after the page).
 * Adjacent tokens of the same style are merged (whitespace joins the token before it); text in the themes' default colour gets style -1.
 * Never throws: a failure leaves the file plain.
 */
export async function highlightDiff(diff: Pick<Diff, "files">, range: { from?: number; to?: number; yieldEach?: boolean } = {}): Promise<DiffHighlights> {
  let budget = MAX_HIGHLIGHT_LINES;
  const styles: TokenStyle[] = [];
  const styleIndex = new Map<string, number>();
  const files: DiffHighlights["files"] = [];
  for (const [i, f] of diff.files.entries()) {
    const lines = f.hunks.flatMap((h) => h.lines.map((l) => l.content.replace(/\r$/, "")));
    const lang = languageFor(f.newPath);
    if (lines.length === 0 || lines.length > MAX_HIGHLIGHT_FILE_LINES || lines.length > budget || lang === "text" || f.isBinary) {
      files.push(null);
      continue;
    }
    budget -= lines.length;
    if (i < (range.from ?? 0) || i >= (range.to ?? Infinity)) {
      files.push(null);
      continue;
    }
    // tokenizing is synchronous: give the event loop (the page's render and stream) a turn per file
    if (range.yieldEach) await new Promise((r) => setImmediate(r));
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
