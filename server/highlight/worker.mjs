// The syntax-highlighting worker (docs/security.md "Hardening II, item 1"): shiki runs here, on a
// worker thread of the pool in server/highlight/pool.ts (piscina), never on the event loop that
// answers requests. A plain .mjs file on purpose: the pool starts it by its path under the app
// root, so it works the same under `next build` (which bundles server code), vitest and tsx; it
// imports only shiki from node_modules.
//
// Every task has a CPU budget (`budgetMs`, for the whole task: all its files): lines are tokenized
// in chunks that continue from the previous chunk's grammar state, each line's tokenizing is cut by
// shiki's `tokenizeTimeLimit` at the chunk's share of what is left, and once the budget is spent
// (or a line had to be cut) that line and every later one are left plain. The answer says so
// (`stopped: "budget"`, `highlightedLines`). Without the budget one request of 200 lines of
// "*_".repeat(240) in a Markdown file cost 17 s of CPU (issue #20).
import { createHighlighter } from "shiki";

const THEMES = { light: "github-light", dark: "github-dark-default" };

/**
 * github-light's token colours that miss WCAG AA (4.5:1) on the diff's tinted rows (#fef2f2
 * deleted, #ecfdf5 added) or even on white (orange #e36209 is 3.5:1), replaced by the hues of
 * GitHub's newer github-light-default palette, each ≥ 4.9:1 on all three backgrounds (measured
 * by axe in e2e/a11y.spec.ts). The dark theme passes as it is.
 */
const LIGHT_AA_COLORS = {
  "github-light": Object.fromEntries(
    Object.entries({ "#d73a49": "#cf222e", "#6a737d": "#59636e", "#e36209": "#953800", "#22863a": "#116329" }).flatMap(([from, to]) => [
      [from, to],
      [from.toUpperCase(), to],
    ]),
  ),
};

/** Lines at least this long are not tokenized (one plain token), as shiki's `tokenizeMaxLineLength`. */
const MAX_LINE_LENGTH = 4000;
/**
 * Time limit of a line's tokenizing (per theme) at least this (ms): a chunk has at most
 * left / (2 × MIN_LINE_MS) lines, so that its lines' limits add up to the time left and yet an
 * ordinary line is not cut by a moment's load on the machine.
 */
const MIN_LINE_MS = 10;
/** Lines per tokenizer call at most (fewer near the end of the budget; 1 after a cut line, then doubled back). */
const MAX_CHUNK = 32;
/**
 * Extra time for a language's first use on a thread: its grammar's regexes are compiled as the
 * tokenizer first reaches them (15–400 ms seen on a loaded 2-core machine), which says nothing about
 * the input. Not counted in `usedMs`; at most once per language and thread.
 */
const FIRST_USE_GRACE_MS = 500;
const usedLangs = new Set();

/** @type {Promise<import("shiki").Highlighter> | undefined} */
let highlighter;
/**
 * The thread's shiki highlighter. Its first tokenizing sets up the regex engine and both themes
 * (~0.5 s on a loaded 2-core machine): done here, outside any task's budget.
 */
function getHighlighter() {
  highlighter ??= createHighlighter({ themes: Object.values(THEMES), langs: ["javascript"] }).then((hl) => {
    hl.codeToTokens("const a = 1; // warm", themeOptions("javascript"));
    return hl;
  });
  return highlighter;
}

/**
 * Languages whose grammars a "warm" task compiles ahead of any request (a sample line each, not
 * counted in any budget): the commonest in repositories and the Markdown of READMEs, so their
 * first use by a request does not need FIRST_USE_GRACE_MS.
 */
const WARM_LANGS = ["markdown", "typescript", "tsx", "javascript", "json", "python", "go", "rust", "css", "html", "yaml", "shellscript"];
const WARM_SAMPLE = '# t\n*a* _b_ `c` [d](e) "f" 1 <g h="i">j</g> { "k": [1, true] } // l\n';

/** The "warm" task: the highlighter set up and WARM_LANGS compiled on this thread. */
async function warm() {
  const hl = await getHighlighter();
  for (const lang of WARM_LANGS) {
    if ((await load(hl, lang)) === "text" || usedLangs.has(lang)) continue;
    hl.codeToTokens(WARM_SAMPLE.repeat(3), themeOptions(lang));
    usedLangs.add(lang);
  }
  return null;
}

/** The shiki options shared by HTML and token highlighting: themes, AA colour fixes, line length bound. */
function themeOptions(lang) {
  return {
    lang,
    themes: THEMES,
    // one inline colour per token, `light-dark(<light>, <dark>)`: follows the page's color-scheme
    defaultColor: "light-dark()",
    colorReplacements: LIGHT_AA_COLORS,
    tokenizeMaxLineLength: MAX_LINE_LENGTH,
  };
}

/** Loads `lang` (a bundled language id or alias); "text" when shiki has no such language. */
async function load(hl, lang) {
  if (lang === "text" || lang === "plaintext" || lang === "txt") return "text";
  try {
    await hl.loadLanguage(lang);
    hl.getLanguage(lang);
    return lang;
  } catch {
    return "text";
  }
}

// Whether the tokenizer cut a line short (vscode-textmate's `stoppedEarly`, which shiki drops):
// each grammar's tokenizeLine2 is wrapped once to record it. A cut line would be coloured wrongly
// from the cut on, so a chunk with one is thrown away.
const watched = new WeakSet();
let cutShort = false;
function watchCuts(grammar) {
  if (watched.has(grammar)) return;
  watched.add(grammar);
  const tokenizeLine2 = grammar.tokenizeLine2.bind(grammar);
  grammar.tokenizeLine2 = (line, state, timeLimit) => {
    const result = tokenizeLine2(line, state, timeLimit);
    if (result.stoppedEarly) cutShort = true;
    return result;
  };
}

/**
 * Tokens of `lines` in `lang` until `deadline` (performance.now() ms; later by FIRST_USE_GRACE_MS
 * on the language's first use): `{tokens, fg, graceMs}` where `tokens` holds the highlighted lines
 * (a prefix of `lines`; shiki's ThemedToken[] per line), `fg` the themes' default text colour
 * (`light-dark()`, lower case) and `graceMs` the extra time granted.
 */
function tokenizeUntil(hl, lines, lang, deadline) {
  watchCuts(hl.getLanguage(lang));
  const graceMs = usedLangs.has(lang) ? 0 : FIRST_USE_GRACE_MS;
  usedLangs.add(lang);
  deadline += graceMs;
  lines = lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  const options = themeOptions(lang);
  const tokens = [];
  let fg = "";
  let state;
  let chunk = MAX_CHUNK;
  let i = 0;
  while (i < lines.length) {
    const left = deadline - performance.now();
    if (left <= 0) break;
    const part = lines.slice(i, i + Math.max(1, Math.min(chunk, Math.floor(left / (2 * MIN_LINE_MS)))));
    // two themes tokenize each line: 2 × part.length × limit ≤ what is left
    const limit = Math.max(1, Math.floor(left / (2 * part.length)));
    cutShort = false;
    const started = performance.now();
    const result = hl.codeToTokens(part.join("\n"), { ...options, tokenizeTimeLimit: limit, grammarState: state });
    const took = performance.now() - started;
    if (cutShort || result.tokens.length !== part.length) {
      if (part.length === 1) break;
      chunk = 1; // try the lines one by one with the time that is left
      continue;
    }
    fg ||= (result.fg ?? "").split(";")[0].toLowerCase();
    tokens.push(...result.tokens);
    state = result.grammarState;
    i += part.length;
    if (took * 4 < left) chunk = Math.min(MAX_CHUNK, chunk * 2);
  }
  return { tokens, fg, graceMs };
}

/** A plain line's token (no colour: the `pre`'s default), without a trailing "\r". */
function plainToken(line) {
  return line === "" || line === "\r" ? [] : [{ content: line.endsWith("\r") ? line.slice(0, -1) : line, offset: 0, fontStyle: 0 }];
}

/** Whitespace-only tokens joined to the token after them (as shiki's `mergeWhitespaces`): fewer spans. */
function mergeWhitespace(line) {
  const out = [];
  let carry = "";
  line.forEach((t, k) => {
    if (k < line.length - 1 && t.content.trim() === "" && !(t.fontStyle & 0b1100)) carry += t.content;
    else {
      out.push(carry ? { ...t, content: carry + t.content } : t);
      carry = "";
    }
  });
  return out;
}

/**
 * Highlighted HTML of `code` (its trailing newline dropped) in shiki's shape: `pre.shiki >
 * code > span.line#L<n>`, with the line-number link first when `lineNumbers`; lines past the
 * budget are in the same shape without colours.
 */
async function html({ code, lang, lineNumbers, budgetMs }) {
  const hl = await getHighlighter();
  const used = await load(hl, lang);
  const lines = code.replace(/\r?\n$/, "").split("\n");
  const started = performance.now();
  const { tokens, graceMs } = used === "text" ? { tokens: [], graceMs: 0 } : tokenizeUntil(hl, lines, used, started + budgetMs);
  const highlightedLines = used === "text" ? lines.length : tokens.length;
  const all = lines.map((line, k) => (k < tokens.length ? mergeWhitespace(tokens[k]) : plainToken(line)));
  const out = hl.codeToHtml(code.replace(/\r?\n$/, ""), {
    ...themeOptions("text"),
    transformers: [
      {
        tokens: () => all,
        line(node, line) {
          node.properties.id = `L${line}`;
          if (lineNumbers)
            node.children.unshift({
              type: "element",
              tagName: "a",
              properties: { href: `#L${line}`, tabIndex: -1, ariaHidden: "true" },
              children: [],
            });
        },
      },
    ],
  });
  return {
    html: out,
    lang: used === "text" ? "text" : lang,
    highlightedLines,
    totalLines: lines.length,
    stopped: highlightedLines < lines.length ? "budget" : null,
    usedMs: Math.max(0, performance.now() - started - graceMs),
  };
}

const STYLE_KEYS = { color: "color", "font-style": "fontStyle", "font-weight": "fontWeight", "text-decoration": "textDecoration" };

/**
 * Token runs per line of each file (lib/highlight/runs.ts `DiffHighlights`, with a palette per
 * file): `files[i]` = `{runs, styles}` (a run list per line, null for the lines past the
 * budget) or null when the language is unknown or no line fit in the budget.
 */
async function runs({ files, budgetMs }) {
  const hl = await getHighlighter();
  const langs = [];
  for (const f of files) langs.push(await load(hl, f.lang));
  const started = performance.now();
  let deadline = started + budgetMs;
  let grace = 0;
  let stopped = null;
  const out = files.map((f, n) => {
    if (langs[n] === "text" || stopped) {
      if (langs[n] !== "text") stopped = "budget";
      return null;
    }
    const { tokens, fg, graceMs } = tokenizeUntil(hl, f.lines, langs[n], deadline);
    deadline += graceMs;
    grace += graceMs;
    if (tokens.length < f.lines.length) stopped = "budget";
    if (tokens.length === 0) return null;
    const styles = [];
    const index = new Map();
    const lineRuns = tokens.map((line) => {
      const r = [];
      for (const t of line) {
        // whitespace looks the same in any colour: it joins the run before it
        if (r.length > 0 && t.content.trim() === "") {
          r[r.length - 2] += t.content.length;
          continue;
        }
        const style = {};
        for (const [k, v] of Object.entries(t.htmlStyle ?? {})) if (STYLE_KEYS[k]) style[STYLE_KEYS[k]] = v;
        let idx = -1;
        if (style.color?.toLowerCase() === fg && Object.keys(style).length === 1) idx = -1;
        else if (Object.keys(style).length > 0) {
          const key = JSON.stringify(style);
          idx = index.get(key) ?? -1;
          if (idx < 0) index.set(key, (idx = styles.push(style) - 1));
        }
        if (r.length > 0 && r[r.length - 1] === idx) r[r.length - 2] += t.content.length;
        else r.push(t.content.length, idx);
      }
      return r;
    });
    while (lineRuns.length < f.lines.length) lineRuns.push(null);
    return { runs: lineRuns, styles };
  });
  return { files: out, stopped, usedMs: Math.max(0, performance.now() - started - grace) };
}

/** The pool's task: `{kind: "html", …}` or `{kind: "runs", …}` (see server/highlight/pool.ts). */
export default function highlight(task) {
  if (task.kind === "html") return html(task);
  if (task.kind === "runs") return runs(task);
  if (task.kind === "warm") return warm();
  throw new Error(`unknown highlight task ${task.kind}`);
}
