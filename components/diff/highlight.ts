/**
 * Syntax highlighting of diffs on the server (issue #8), with the code browser's shiki setup
 * (components/code/highlight.ts `highlightCode`: github-light / github-dark-default as CSS
 * light-dark() colours). Each file's hunk lines are highlighted together in display order (as
 * GitHub does: a hunk has no full-file context), then cut back into one HTML string per line.
 * Bounded: files over MAX_HIGHLIGHT_FILE_LINES and lines past MAX_HIGHLIGHT_LINES in total are
 * left plain (the viewer escapes them itself).
 */
import { highlightCode, languageFor } from "@/components/code/highlight";
import type { Diff } from "@/server/git/diff";

/** Files with more hunk lines than this are not highlighted. */
export const MAX_HIGHLIGHT_FILE_LINES = 3_000;
/** Most hunk lines highlighted for one page. */
export const MAX_HIGHLIGHT_LINES = 20_000;

/** Per file (same order as `diff.files`): per hunk line (hunks flattened), its highlighted HTML; null = plain. */
export type DiffHighlights = (string[] | null)[];

/** The inner HTML of each `span.line` of shiki's output, in order. */
function splitLines(html: string, count: number): string[] | null {
  const code = /<code>([\s\S]*)<\/code>/.exec(html)?.[1];
  if (code === undefined) return null;
  const parts = code.split("\n");
  if (parts.length !== count) return null;
  return parts.map((p) => p.replace(/^<span class="line"[^>]*>/, "").replace(/<\/span>$/, ""));
}

/** Highlighted HTML per hunk line of each file, within the bounds above. Never throws: a failure leaves the file plain. */
export async function highlightDiff(diff: Diff): Promise<DiffHighlights> {
  let budget = MAX_HIGHLIGHT_LINES;
  const out: DiffHighlights = [];
  for (const f of diff.files) {
    const lines = f.hunks.flatMap((h) => h.lines.map((l) => l.content.replace(/\r$/, "")));
    const lang = languageFor(f.newPath);
    if (lines.length === 0 || lines.length > MAX_HIGHLIGHT_FILE_LINES || lines.length > budget || lang === "text" || f.isBinary) {
      out.push(null);
      continue;
    }
    budget -= lines.length;
    try {
      const { html } = await highlightCode(`${lines.join("\n")}\n`, lang);
      out.push(splitLines(html, lines.length));
    } catch {
      out.push(null);
    }
  }
  return out;
}
