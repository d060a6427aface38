/**
 * What syntax highlighting needs on both sides of the worker pool: the language of a file name (a
 * bundled shiki language id or alias matching the extension, a few well-known file names, else
 * plain text), the size bound, and the plain code view in shiki's HTML shape. The highlighting
 * itself (shiki, themes github-light and github-dark-default as CSS light-dark() colours) runs on
 * worker threads: server/highlight/ (docs/security.md "Hardening II, item 1").
 */
import { bundledLanguagesInfo } from "shiki";

/** Files larger than this are shown without highlighting (keeps rendering fast). */
export const MAX_HIGHLIGHT_BYTES = 256 * 1024;

const BY_NAME: Record<string, string> = {
  dockerfile: "docker",
  makefile: "make",
  gnumakefile: "make",
  "cmakelists.txt": "cmake",
  ".bashrc": "shellscript",
  ".zshrc": "shellscript",
  ".profile": "shellscript",
  ".env": "dotenv",
  ".gitconfig": "ini",
  ".editorconfig": "ini",
  "package-lock.json": "json",
  "tsconfig.json": "jsonc",
  "jsconfig.json": "jsonc",
};

const EXTRA_EXT: Record<string, string> = {
  h: "c",
  hpp: "cpp",
  cc: "cpp",
  cxx: "cpp",
  hh: "cpp",
  mdx: "mdx",
  htm: "html",
  svg: "xml",
  xsd: "xml",
  cjs: "javascript",
  jsonl: "json",
  lock: "toml",
  gitignore: "text",
  txt: "text",
};

let byExt: Map<string, string> | undefined;
function extensionMap(): Map<string, string> {
  if (byExt) return byExt;
  byExt = new Map();
  for (const info of bundledLanguagesInfo) {
    byExt.set(info.id.toLowerCase(), info.id);
    for (const alias of info.aliases ?? []) if (!byExt.has(alias.toLowerCase())) byExt.set(alias.toLowerCase(), info.id);
  }
  for (const [ext, lang] of Object.entries(EXTRA_EXT)) byExt.set(ext, lang);
  return byExt;
}

/** The shiki language for a file name, or "text". */
export function languageFor(fileName: string): string {
  const base = fileName.split("/").pop()!.toLowerCase();
  if (BY_NAME[base]) return BY_NAME[base];
  if (base.startsWith("dockerfile")) return "docker";
  const dot = base.lastIndexOf(".");
  if (dot < 0) return "text";
  const lang = extensionMap().get(base.slice(dot + 1));
  return lang && isBundled(lang) ? lang : "text";
}

function isBundled(lang: string): boolean {
  return lang === "text" || bundledLanguagesInfo.some((l) => l.id === lang);
}

/**
 * The line-number link that starts every line of the code view (docs/ui.md "Code view"): an empty
 * anchor to `#L<n>` whose number is drawn by a CSS counter (`.code-view .line > a::before`), so it
 * is never part of copied text; `tabindex=-1` (a 20,000-line file must not add 20,000 tab stops;
 * the selection is in the URL) and `aria-hidden` (screen readers read the code, not 20,000 "link"
 * numbers). Kept this short on purpose: it is sent for every line, twice (HTML and the RSC
 * payload). Plain HTML, no React component per line: one delegated handler (line-selection.tsx)
 * does clicks and shift-click ranges.
 */
export function lineNumberHtml(n: number): string {
  return `<a href="#L${n}" tabindex="-1" aria-hidden="true"></a>`;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * Unhighlighted HTML for a file above MAX_HIGHLIGHT_BYTES (or when highlighting is refused: pool
 * full, task failed), in shiki's shape so the same CSS numbers the lines: `pre.shiki > code >
 * span.line#L<n>`, the spans separated by "\n" text nodes *outside* them (a newline inside an
 * inline-block span does not break the row, which would put every line of a file on one row). A
 * trailing newline adds no line; a line's trailing "\r" is dropped. Text is HTML-escaped.
 * `lineNumbers` (default true): each line starts with its number link (`lineNumberHtml`); Markdown
 * code blocks go without. Cost is linear in the text length.
 */
export function plainCodeHtml(text: string, { lineNumbers = true }: { lineNumbers?: boolean } = {}): string {
  const lines = text.replace(/\r?\n$/, "").split("\n");
  const spans = lines.map(
    (line, i) =>
      `<span class="line" id="L${i + 1}">${lineNumbers ? lineNumberHtml(i + 1) : ""}${escapeHtml(line.endsWith("\r") ? line.slice(0, -1) : line)}</span>`,
  );
  return `<pre class="shiki" tabindex="0"><code>${spans.join("\n")}</code></pre>`;
}
