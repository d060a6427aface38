/**
 * Cuts a file into search chunks (docs/ai.md "Index"): at syntax boundaries
 * for the languages tree-sitter-wasms ships (server/ai/syntax/parser.ts `outline`), fixed blocks
 * of lines otherwise.
 *
 * - A function (or `const f = () => …`, `a.b = function …`) is one chunk with its doc comment;
 *   a function longer than MAX_CHUNK_LINES is cut into its nested items (zod's
 *   `inst.check = …` inside a constructor) and pieces of the rest, each at most MAX_CHUNK_LINES.
 * - A class gives a chunk per method (with its doc comment) plus one for its header
 *   (declaration, fields) — methods are then found by their own names and comments.
 * - Lines outside every item (imports, top-level statements) become `block` chunks of at most
 *   BLOCK_LINES lines; blocks without a single word are dropped.
 * Lines are 1-based, inclusive. Pure apart from loading the grammar.
 */
import { languageOf, outline, type OutlineItem } from "@/server/ai/syntax/parser";
import { indexText } from "./tokens";

export type ChunkType = "function" | "class" | "method" | "block";

/**
 * The version of the rules above, stored on each chunked blob and index (SearchBlob.chunker,
 * SearchIndex.chunker). Bump it when chunk boundaries, names or search words change: the next
 * refresh of an index then cuts its older blobs again (index-repo.ts), and a search of such an
 * index queues that refresh. 1: the first chunker; 2: a class's methods keep their doc comments;
 * 3: a block comment whose lines do not start with `*` belongs to the item below it as a whole.
 */
export const CHUNKER_VERSION = 3;

export interface Chunk {
  startLine: number;
  endLine: number;
  chunkType: ChunkType;
  name: string | null;
  /** Grammar name (`typescript`, `python`…) or `text` for files without one. */
  language: string;
  content: string;
  /** Search words of the name, the comments, and the whole chunk (tokens.ts indexText). */
  nameText: string;
  docText: string;
  bodyText: string;
}

/** Longest syntax chunk, in lines; longer items are cut (see the module comment). */
export const MAX_CHUNK_LINES = 120;
/** Size of the fixed blocks of lines outside syntax items and in files without a grammar. */
export const BLOCK_LINES = 50;

interface Span {
  start: number;
  end: number;
  type: ChunkType;
  name: string | null;
}

interface Node extends OutlineItem {
  children: Node[];
}

/** Items nested by line containment (outline order: a parent before its children). */
function nest(items: OutlineItem[]): Node[] {
  const roots: Node[] = [];
  const stack: Node[] = [];
  for (const item of items) {
    const node: Node = { ...item, children: [] };
    while (stack.length && !(stack.at(-1)!.startLine <= node.startLine && node.endLine <= stack.at(-1)!.endLine)) stack.pop();
    (stack.length ? stack.at(-1)!.children : roots).push(node);
    stack.push(node);
  }
  return roots;
}

/** Pieces of [start, end] at most `size` lines long. */
function pieces(start: number, end: number, size: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let s = start; s <= end; s += size) out.push([s, Math.min(end, s + size - 1)]);
  return out;
}

/**
 * The first line of the comment and decorator lines right above line `start` (one blank line
 * between a doc comment and its item allowed, as withLeadingComments), not before line `floor`.
 */
function leadingStart(lines: string[], start: number, floor: number): number {
  let l = start - 1;
  const leading = (k: number) =>
    k >= floor && (COMMENT_LINE.test(lines[k - 1]!) || /^\s*@\w/.test(lines[k - 1]!) || blockCommentTop(lines, k, floor) !== null);
  if (l - 1 >= floor && lines[l - 1]!.trim() === "" && /\*\/\s*$/.test(lines[l - 2]!) && leading(l - 1)) l--;
  while (leading(l)) l = (blockCommentTop(lines, l, floor) ?? l) - 1;
  return l + 1;
}

/** Lines a block comment may span when walking up to its start. */
const MAX_BLOCK_COMMENT_LINES = 200;

/**
 * When line `k` ends a block comment (`… */ `) that starts on an earlier line with `; /*` alone on
 * its text (lines in between need not begin with `*`), the line where it starts (not before
 * `floor`); else null. A line holding code before its `/*` is not a leading comment.
 */
function blockCommentTop(lines: string[], k: number, floor: number): number | null {
  if (k < floor || !/\*\/\s*$/.test(lines[k - 1]!) || lines[k - 1]!.includes("/*")) return null;
  for (let j = k - 1; j >= Math.max(floor, k - MAX_BLOCK_COMMENT_LINES); j--) {
    const line = lines[j - 1]!;
    if (line.includes("*/")) return null; // another comment ended first: not one block
    if (line.includes("/*")) return /^\s*\/\*/.test(line) ? j : null;
  }
  return null;
}

/**
 * The spans of one item: whole, or (classes, long functions) its children plus the rest. The
 * rest leaves each child's leading comments alone, so withLeadingComments gives a method its doc
 * comment (not a chunk of the class named like the class).
 */
function cover(node: Node, out: Span[], lines: string[]): void {
  const type: ChunkType = node.kind;
  const length = node.endLine - node.startLine + 1;
  const split = node.children.length > 0 && (node.kind === "class" || length > MAX_CHUNK_LINES);
  if (!split) {
    for (const [s, e] of pieces(node.startLine, node.endLine, MAX_CHUNK_LINES)) out.push({ start: s, end: e, type, name: node.name });
    return;
  }
  let at = node.startLine;
  const rest: Array<[number, number]> = [];
  for (const child of node.children) {
    const top = leadingStart(lines, child.startLine, at);
    if (top > at) rest.push([at, top - 1]);
    cover(child, out, lines);
    at = Math.max(at, child.endLine + 1);
  }
  if (at <= node.endLine) rest.push([at, node.endLine]);
  // the header always (it names the item); other leftovers when they hold real code
  rest.forEach(([s, e], i) => {
    if (i > 0 && e - s < 2) return;
    for (const [ps, pe] of pieces(s, e, MAX_CHUNK_LINES)) out.push({ start: ps, end: pe, type, name: node.name });
  });
}

const COMMENT_LINE = /^\s*(\/\/|\/\*|\*|#|--|"""|''')/;

/** Comment text of `lines` (line comments, block comments, docstrings), for the doc column. */
function commentText(lines: string[]): string {
  const out: string[] = [];
  let inBlock = false;
  let inDocstring = false;
  for (const line of lines) {
    const t = line.trim();
    if (inBlock || inDocstring || COMMENT_LINE.test(line)) out.push(t);
    else {
      const i = line.indexOf("//");
      if (i > 0) out.push(line.slice(i + 2));
    }
    if (t.startsWith("/*") && !t.includes("*/")) inBlock = true;
    else if (inBlock && t.includes("*/")) inBlock = false;
    const quotes = (t.match(/"""|'''/g) ?? []).length;
    if (quotes % 2 === 1) inDocstring = !inDocstring;
  }
  return out.join("\n");
}

/** Moves each span's start up over the comment and decorator lines right above it (not claimed by another span). */
function withLeadingComments(spans: Span[], lines: string[]): void {
  const claimed = new Set<number>();
  for (const s of spans) for (let l = s.start; l <= s.end; l++) claimed.add(l);
  for (const s of spans) {
    if (s.type === "block") continue;
    let l = s.start - 1;
    const unclaimedFrom = (top: number, k: number) => {
      for (let j = top; j <= k; j++) if (claimed.has(j)) return false;
      return true;
    };
    const blockTop = (k: number) => {
      const top = blockCommentTop(lines, k, 1);
      return top !== null && unclaimedFrom(top, k) ? top : null;
    };
    const leading = (k: number) =>
      k >= 1 &&
      !claimed.has(k) &&
      s.end - k < MAX_CHUNK_LINES + 40 &&
      (COMMENT_LINE.test(lines[k - 1]!) || /^\s*@\w/.test(lines[k - 1]!) || blockTop(k) !== null);
    // one blank line between a doc comment and its item is still its doc comment
    if (l >= 2 && !claimed.has(l) && lines[l - 1]!.trim() === "" && /\*\/\s*$/.test(lines[l - 2]!) && leading(l - 1)) l--;
    while (leading(l)) l = (blockTop(l) ?? l) - 1;
    for (let k = l + 1; k < s.start; k++) claimed.add(k);
    s.start = l + 1;
  }
}

/** Blocks of at most BLOCK_LINES over the lines no span holds. */
function blocks(lines: string[], spans: Span[]): Span[] {
  const lineCount = lines.length;
  const used = new Uint8Array(lineCount + 2);
  for (const s of spans) used.fill(1, s.start, s.end + 1);
  const out: Span[] = [];
  let start = 0;
  for (let l = 1; l <= lineCount + 1; l++) {
    const free = l <= lineCount && !used[l];
    if (free && !start) start = l;
    if ((!free || l - start + 1 > BLOCK_LINES) && start) {
      let [bs, be] = [start, l - 1];
      // no blank lines at either end
      while (bs < be && lines[bs - 1]!.trim() === "") bs++;
      while (be > bs && lines[be - 1]!.trim() === "") be--;
      out.push({ start: bs, end: be, type: "block", name: null });
      start = free ? l : 0;
    }
  }
  return out;
}

/**
 * The chunks of the file at `filePath` with text `source`, in line order. Syntax chunks for
 * languages `languageOf` knows (blocks only when the grammar fails to load); blocks otherwise.
 */
export async function chunkFile(filePath: string, source: string): Promise<Chunk[]> {
  const text = source.replace(/\r\n/g, "\n");
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const language = languageOf(filePath);
  let spans: Span[] = [];
  if (language) {
    const items = await outline(text, language);
    for (const root of nest(items)) cover(root, spans, lines);
    spans = spans.filter((s) => s.end >= s.start);
    withLeadingComments(spans, lines);
  }
  spans.push(...blocks(lines, spans));
  spans.sort((a, b) => a.start - b.start);
  const chunks: Chunk[] = [];
  for (const s of spans) {
    const body = lines.slice(s.start - 1, s.end);
    const content = body.join("\n");
    if (!/[A-Za-z0-9]/.test(content)) continue;
    chunks.push({
      startLine: s.start,
      endLine: s.end,
      chunkType: s.type,
      name: s.name,
      language: language ?? "text",
      content,
      nameText: s.name ? indexText(s.name) : "",
      docText: indexText(commentText(body)),
      bodyText: indexText(content),
    });
  }
  return chunks;
}
