/**
 * Server-side syntax highlighting with shiki (`codeToHtml`, themes github-light and github-dark-default (AA contrast on the dark card) as CSS light-dark() colours). The language
 * comes from the file name: a bundled language id or alias matching the extension, a few
 * well-known file names, else plain text. Output is shiki's HTML (inline colour styles, one
 * `span.line` per line with an `id="L<n>"` anchor, starting with its line-number link in the
 * code view); text is escaped by shiki.
 */
import { bundledLanguagesInfo, codeToHtml, codeToTokens, type ThemedToken } from "shiki";

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

/** Highlighted HTML for a file's text, or null when it is too large to highlight. */
export async function highlightFile(text: string, fileName: string): Promise<{ html: string; lang: string } | null> {
  if (Buffer.byteLength(text, "utf8") > MAX_HIGHLIGHT_BYTES) return null;
  return highlightCode(text, languageFor(fileName), { lineNumbers: true });
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
 * Unhighlighted HTML for a file above MAX_HIGHLIGHT_BYTES, in shiki's shape so the same CSS
 * numbers the lines: `pre.shiki > code > span.line#L<n>`, the spans separated by "\n" text
 * nodes *outside* them (a newline inside an inline-block span does not break the row, which would
 * put every line of a file on one row). A trailing newline adds no line; a
 * line's trailing "\r" is dropped. Text is HTML-escaped. Cost is linear in the text length.
 */
export function plainCodeHtml(text: string): string {
  const lines = text.replace(/\r?\n$/, "").split("\n");
  const spans = lines.map(
    (line, i) =>
      `<span class="line" id="L${i + 1}">${lineNumberHtml(i + 1)}${escapeHtml(line.endsWith("\r") ? line.slice(0, -1) : line)}</span>`,
  );
  return `<pre class="shiki" tabindex="0"><code>${spans.join("\n")}</code></pre>`;
}

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

/** The shiki options shared by HTML and token highlighting: themes, AA colour fixes, line length bound. */
function themeOptions(lang: string) {
  return {
    lang,
    themes: { light: "github-light", dark: "github-dark-default" },
    // one inline colour per token, `light-dark(<light>, <dark>)`: follows the page's color-scheme
    defaultColor: "light-dark()" as const,
    colorReplacements: LIGHT_AA_COLORS,
    tokenizeMaxLineLength: 4000,
    // shiki stops a line's tokenizing after 500 ms by default and each theme is tokenized on its
    // own, so on a loaded machine the two themes could cut a line at different places and pair
    // one theme's colour with the other's token (seen in the suite at load 8); lines are at most
    // 4,000 characters, so a longer limit stays bounded
    tokenizeTimeLimit: 5000,
  };
}

/**
 * shiki's tokens for code in a language (same themes and colours as `highlightCode`), one array
 * per line (split on "\n"), with the default text colour of the themes (`fg`, a
 * `light-dark()` value, lower case) so callers can leave plain text unstyled. Falls back to
 * plain text on an unknown language.
 */
export async function highlightTokens(code: string, lang: string): Promise<{ tokens: ThemedToken[][]; fg: string }> {
  const run = async (l: string) => {
    const r = await codeToTokens(code, themeOptions(l) as Parameters<typeof codeToTokens>[1]);
    return { tokens: r.tokens, fg: (r.fg ?? "").split(";")[0].toLowerCase() };
  };
  try {
    return await run(lang);
  } catch {
    return run("text");
  }
}

/**
 * Highlighted HTML for code in a language (falls back to plain text on an unknown language).
 * `lineNumbers`: each line starts with its number link (`lineNumberHtml`), for the code view;
 * Markdown code blocks go without.
 */
export async function highlightCode(
  text: string,
  lang: string,
  opts: { lineNumbers?: boolean } = {},
): Promise<{ html: string; lang: string }> {
  const code = text.replace(/\r?\n$/, "");
  const options = (l: string) => ({
    ...themeOptions(l),
    transformers: [
      {
        line(node: { properties: Record<string, unknown>; children: unknown[] }, line: number) {
          node.properties.id = `L${line}`;
          if (opts.lineNumbers) {
            node.children.unshift({
              type: "element",
              tagName: "a",
              properties: { href: `#L${line}`, tabIndex: -1, ariaHidden: "true" },
              children: [],
            });
          }
        },
      },
    ],
  });
  try {
    return { html: await codeToHtml(code, options(lang)), lang };
  } catch {
    return { html: await codeToHtml(code, options("text")), lang: "text" };
  }
}
