/**
 * Syntax highlighting for the pages and POST /api/highlight, on the worker pool
 * (./pool.ts, ./worker.mjs; docs/security.md "Hardening II, item 1"): the code browser's file
 * view (`highlightFile`), Markdown code blocks (`highlightCode`), and diffs as token runs
 * (`highlightDiff`, `highlightLines`; lib/highlight/runs.ts). What a request may cost is bounded
 * by its `HighlightBudget` (HIGHLIGHT_BUDGET_MS for all its code, then plain text, said so in
 * `stopped`), the pool's in-flight cap ("busy": plain at once) and HARD_TIMEOUT_MS; the event
 * loop only hashes, looks up and escapes (linear). Complete results are cached (lru-cache, at
 * most CACHE_BYTES) by a SHA-256 of the kind, language and text: for a file view that is its
 * blob's content, so a blob id + language; partial ones are not (a later request with time
 * left highlights them fully).
 *
 * This is one of the server entry points components may import (server components only:
 * components/code/browser.tsx, markdown.tsx, the diff pages).
 */
import { createHash } from "node:crypto";
import { languageFor, MAX_HIGHLIGHT_BYTES, plainCodeHtml } from "@/lib/highlight/code";
import { MAX_HIGHLIGHT_FILE_LINES, MAX_HIGHLIGHT_LINES } from "@/lib/highlight/diff";
import { hunkLinesOf, type DiffHighlights, type HighlightedFile, type TokenStyle } from "@/lib/highlight/runs";
import { LRUCache } from "lru-cache";
import { FILE_BUDGET_MS, HighlightBudget, runHighlightTask, type StopReason } from "./pool";

export { FILE_BUDGET_MS, HighlightBudget, HIGHLIGHT_BUDGET_MS, MAX_IN_FLIGHT, type StopReason } from "./pool";

/** Most bytes (UTF-16 estimate) the cache of highlighting results keeps. */
export const CACHE_BYTES = 32 * 1024 * 1024;

/** A highlighted code view or code block. */
export interface HighlightedCode {
  /** shiki's HTML (`pre.shiki > code > span.line#L<n>`), lines past `highlightedLines` without colours */
  html: string;
  /** the language used ("text" when unknown) */
  lang: string;
  /** lines coloured (the first ones); the others are plain */
  highlightedLines: number;
  totalLines: number;
  /** why some lines are plain (null: all highlighted) */
  stopped: StopReason | null;
}

type FileRuns = { runs: (number[] | null)[]; styles: TokenStyle[] };

const shared = globalThis as { __svcHighlightCache?: LRUCache<string, HighlightedCode | FileRuns> };
function cache(): LRUCache<string, HighlightedCode | FileRuns> {
  // least recently used dropped first; a value larger than the whole cache is not kept
  return (shared.__svcHighlightCache ??= new LRUCache({ maxSize: CACHE_BYTES }));
}

function cacheKey(...parts: string[]): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p).update("\0");
  return h.digest("base64url");
}

/**
 * Highlighted HTML for code in a language (a shiki id or alias; unknown → plain text, `lang`
 * "text"). `lineNumbers`: each line starts with its number link (lib/highlight/code.ts
 * `lineNumberHtml`), for the code view; Markdown code blocks go without. `budget`: the request's
 * (shared by its blocks; a new HIGHLIGHT_BUDGET_MS one by default). Never throws: when the pool is
 * full or the task fails the HTML is plain (`stopped` says why).
 */
export async function highlightCode(
  text: string,
  lang: string,
  opts: { lineNumbers?: boolean; budget?: HighlightBudget } = {},
): Promise<HighlightedCode> {
  const lineNumbers = opts.lineNumbers ?? false;
  const key = cacheKey("html", lang, String(lineNumbers), text);
  const hit = cache().get(key) as HighlightedCode | undefined;
  if (hit) return hit;
  const totalLines = text.replace(/\r?\n$/, "").split("\n").length;
  const plain = (stopped: StopReason): HighlightedCode => ({
    html: plainCodeHtml(text, { lineNumbers }),
    lang,
    highlightedLines: 0,
    totalLines,
    stopped,
  });
  return (opts.budget ?? new HighlightBudget()).spend(async (ms) => {
    if (ms <= 0) return { result: plain("budget"), usedMs: 0 };
    const r = await runHighlightTask<HighlightedCode & { usedMs: number }>({ kind: "html", code: text, lang, lineNumbers, budgetMs: ms });
    if (!r.ok) return { result: plain(r.reason), usedMs: r.reason === "busy" ? 0 : ms };
    const { usedMs, ...result } = r.value;
    if (!result.stopped) cache().set(key, result, { size: result.html.length * 2 });
    return { result, usedMs };
  });
}

/**
 * Highlighted HTML of a file's text with line-number links (see `highlightCode`; the code view's
 * budget is FILE_BUDGET_MS unless `budget` is given), or null when it is over MAX_HIGHLIGHT_BYTES.
 */
export async function highlightFile(text: string, fileName: string, budget?: HighlightBudget): Promise<HighlightedCode | null> {
  if (Buffer.byteLength(text, "utf8") > MAX_HIGHLIGHT_BYTES) return null;
  return highlightCode(text, languageFor(fileName), { lineNumbers: true, budget: budget ?? new HighlightBudget(FILE_BUDGET_MS) });
}

/** Token runs for a diff's files (see `highlightLines`); only files `from` ≤ index < `to` (the others null; the budget still counts them). */
export function highlightDiff(
  diff: { files: HighlightedFile[] },
  range: { from?: number; to?: number } = {},
  budget?: HighlightBudget,
): Promise<DiffHighlights> {
  return highlightLines(
    diff.files.map((f) => ({ path: f.newPath, lines: f.isBinary ? [] : hunkLinesOf(f) })),
    range,
    budget,
  );
}

/**
 * Token runs per line of each file (`path` gives the language; lib/highlight/runs.ts
 * `DiffHighlights`), within the bounds of lib/highlight/diff.ts (files over
 * MAX_HIGHLIGHT_FILE_LINES, lines past MAX_HIGHLIGHT_LINES and plain-text files are null); only
 * files `from` ≤ index < `to` (the others null; the line bound still counts them). All files go
 * to the pool as one task with the request's `budget`; lines past it are null and `stopped` says
 * why. Adjacent tokens of the same style are merged (whitespace joins the token before it); text
 * in the themes' default colour gets style -1. Never throws: a failure leaves the files plain.
 */
export async function highlightLines(
  input: { path: string; lines: string[] }[],
  range: { from?: number; to?: number } = {},
  budget: HighlightBudget = new HighlightBudget(),
): Promise<DiffHighlights> {
  let lineBound = MAX_HIGHLIGHT_LINES;
  const perFile: (FileRuns | null)[] = input.map(() => null);
  const todo: { i: number; lang: string; lines: string[]; key: string }[] = [];
  for (const [i, { path, lines }] of input.entries()) {
    const lang = languageFor(path);
    if (lines.length === 0 || lines.length > MAX_HIGHLIGHT_FILE_LINES || lines.length > lineBound || lang === "text") continue;
    lineBound -= lines.length;
    if (i < (range.from ?? 0) || i >= (range.to ?? Infinity)) continue;
    const key = cacheKey("runs", lang, lines.join("\n"));
    const hit = cache().get(key) as FileRuns | undefined;
    if (hit) perFile[i] = hit;
    else todo.push({ i, lang, lines, key });
  }
  let stopped: StopReason | undefined;
  if (todo.length > 0) {
    await budget.spend(async (ms) => {
      if (ms <= 0) {
        stopped = "budget";
        return { result: null, usedMs: 0 };
      }
      const r = await runHighlightTask<{ files: (FileRuns | null)[]; stopped: StopReason | null; usedMs: number }>({
        kind: "runs",
        files: todo.map(({ lang, lines }) => ({ lang, lines })),
        budgetMs: ms,
      });
      if (!r.ok) {
        stopped = r.reason;
        return { result: null, usedMs: r.reason === "busy" ? 0 : ms };
      }
      r.value.files.forEach((f, k) => {
        perFile[todo[k].i] = f;
        if (f && !f.runs.includes(null)) cache().set(todo[k].key, f, { size: f.runs.reduce((n, l) => n + (l?.length ?? 0), 0) * 8 + 64 });
      });
      stopped = r.value.stopped ?? undefined;
      return { result: null, usedMs: r.value.usedMs };
    });
  }
  // one palette for the page: each file's style indexes mapped into it
  const styles: TokenStyle[] = [];
  const styleIndex = new Map<string, number>();
  const files = perFile.map((f) => {
    if (!f) return null;
    const map = f.styles.map((s) => {
      const k = JSON.stringify(s);
      let idx = styleIndex.get(k);
      if (idx === undefined) styleIndex.set(k, (idx = styles.push(s) - 1));
      return idx;
    });
    return f.runs.map((line) => line && line.map((v, j) => (j % 2 === 1 && v >= 0 ? map[v] : v)));
  });
  return stopped ? { styles, files, stopped } : { styles, files };
}
