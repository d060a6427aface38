/**
 * A bound on what rendering a Markdown text may cost (docs/security.md "Hardening II, item 1"),
 * applied before the renderer (./renderer.tsx) runs, on the server and in the browser alike.
 *
 * micromark, under react-markdown, resolves emphasis, strikethrough and links by walking back
 * over the earlier delimiters of the same paragraph and splicing its event list for each match:
 * quadratic in the delimiters of one paragraph (2,000 `*_` pairs in one paragraph: 1.3 s; 60
 * lines of `"*_".repeat(240)`: tens of seconds, the server's event loop blocked all along). Its
 * block parser is quadratic in the nesting of block quotes (32,000 `>` on one line: 17 s), and
 * the Markdown-to-HTML steps recurse once per level (2,000 levels overflow the stack).
 *
 * `boundMarkdown` scans the text once (linear, no parser) and over-approximates both:
 * - a paragraph, heading or table lies within one run of consecutive non-blank lines, so the
 *   delimiters (`*`, `_`, `~`, `[`, `]`) of a run bound those of its paragraphs;
 * - a line's nesting is at most its leading `>` and list markers plus half its indentation
 *   (each list level continued by indentation takes ≥ 2 columns; a lazy line opens nothing).
 * A run with more than MAX_RUN_DELIMITERS delimiters, one that would take the document's
 * Σ (delimiters per run)² past MAX_INLINE_COST, or one with a line nested deeper than
 * MAX_NESTING has its delimiters, container markers and backslashes backslash-escaped: in any
 * context (paragraph, HTML block, code) they then open no emphasis, link or container, and
 * micromark reads the run in linear time; in a paragraph it looks the same (the characters
 * without formatting), in code the backslashes show. (Wrapping the run in a code fence instead
 * would not be sound: inside an HTML block that ends within the run the fence is raw text.) So
 * rendering costs at most c · MAX_INLINE_COST on top of its linear cost (~0.3 s on a loaded
 * 2-core machine, for a text built to reach it). Texts over MAX_MARKDOWN_CHARS are not rendered
 * at all. Ordinary documents are far below the bounds (a README paragraph with ten links has 20
 * delimiters; 400 of them add up to 160,000).
 */

/** Most delimiters in one run of non-blank lines rendered as Markdown (~80 ms at worst). */
export const MAX_RUN_DELIMITERS = 1_000;
/** Most Σ (delimiters per run)² of one text (~0.3 s at worst on a loaded 2-core machine). */
export const MAX_INLINE_COST = 4_000_000;
/** Deepest nesting of block quotes and lists rendered. */
export const MAX_NESTING = 100;
/** Longest text rendered as Markdown (characters); longer ones are shown as plain text. */
export const MAX_MARKDOWN_CHARS = 1024 * 1024;

const DELIMITER = /[*_~[\]]/g;
/** What an escaped run has escaped: delimiters, container markers and the backslash itself (so "\\*" stays inert). */
const ESCAPED = /[\\*_~[\]>+\-.)]/g;
/** A line's container prefix: indentation, `>`, bullets and ordered-list markers followed by a space. */
const PREFIX = /^(?:[ \t]|>|[*+-](?=[ \t])|\d{1,9}[.)](?=[ \t]))*/;

function nestingBound(line: string): number {
  const prefix = PREFIX.exec(line)![0];
  let markers = 0;
  let columns = 0;
  for (const m of prefix.matchAll(/>|[*+-]|\d{1,9}[.)]|\t| /g)) {
    if (m[0] === " ") columns += 1;
    else if (m[0] === "\t") columns += 4;
    else markers += 1;
  }
  return markers + Math.floor(columns / 2);
}

/**
 * `source` with every run of non-blank lines that is over a bound above escaped, and how many
 * runs were (`escaped`); `refusal`, a sentence for a notice, when the text is over
 * MAX_MARKDOWN_CHARS and must be shown as plain text instead. Linear in the text's length.
 */
export function boundMarkdown(source: string): { source: string; escaped: number; refusal: string | null } {
  if (source.length > MAX_MARKDOWN_CHARS)
    return { source, escaped: 0, refusal: `the text is longer than ${MAX_MARKDOWN_CHARS.toLocaleString("en-US")} characters` };
  const lines = source.split("\n");
  const out: string[] = [];
  let escaped = 0;
  let cost = 0;
  let i = 0;
  while (i < lines.length) {
    if (lines[i].trim() === "") {
      out.push(lines[i++]);
      continue;
    }
    let j = i;
    let delimiters = 0;
    let deep = false;
    for (; j < lines.length && lines[j].trim() !== ""; j++) {
      delimiters += lines[j].match(DELIMITER)?.length ?? 0;
      if (!deep && nestingBound(lines[j]) > MAX_NESTING) deep = true;
    }
    const run = lines.slice(i, j);
    if (deep || delimiters > MAX_RUN_DELIMITERS || cost + delimiters * delimiters > MAX_INLINE_COST) {
      out.push(...run.map((line) => line.replace(ESCAPED, "\\$&")));
      escaped++;
    } else {
      cost += delimiters * delimiters;
      out.push(...run);
    }
    i = j;
  }
  return { source: escaped > 0 ? out.join("\n") : source, escaped, refusal: null };
}
