/**
 * Keyboard and find helpers of the diff viewer (./diff-viewer.tsx; docs/ui.md "Keyboard
 * shortcuts", docs/pulls.md "Viewer"), pure (no React): the line-number controls a row holds (the
 * roving tab stop: one per file, Up/Down move it), the changed-file filter of the tree (text and
 * extension), and find in diff (every loaded line of every file, collapsed ones included).
 */
import type { DiffFile } from "./model";
import type { LineSide, Row } from "./diff-viewer-types";

/** The line-number controls of a row as "SIDE:line" keys, left to right ([] for rows without lines). */
export function gutterKeys(row: Row | undefined): string[] {
  if (!row) return [];
  if (row.kind === "line") {
    const l = row.line;
    return l.line.type === "delete" ? (l.oldNo !== null ? [`LEFT:${l.oldNo}`] : []) : l.newNo !== null ? [`RIGHT:${l.newNo}`] : [];
  }
  if (row.kind === "pair") {
    const out: string[] = [];
    if (row.left && row.left.oldNo !== null) out.push(`LEFT:${row.left.oldNo}`);
    if (row.right && row.right.newNo !== null) out.push(`RIGHT:${row.right.newNo}`);
    return out;
  }
  return [];
}

/** The first line-number control of each file (file index → key): its tab stop until the reader moves it. */
export function firstGutters(rows: Row[]): Map<number, string> {
  const m = new Map<number, string>();
  for (const r of rows) {
    if (m.has(r.file)) continue;
    const k = gutterKeys(r)[0];
    if (k) m.set(r.file, k);
  }
  return m;
}

/**
 * The next line-number control from row `from` in direction `dir` within the same file: its row
 * index and key (same `side` when the row has one, else its first), or null at the file's edge.
 */
export function nextGutter(rows: Row[], from: number, dir: 1 | -1, side: LineSide): { index: number; key: string } | null {
  const file = rows[from]?.file;
  for (let i = from + dir; i >= 0 && i < rows.length && rows[i].file === file; i += dir) {
    const keys = gutterKeys(rows[i]);
    if (keys.length === 0) continue;
    return { index: i, key: keys.find((k) => k.startsWith(`${side}:`)) ?? keys[0] };
  }
  return null;
}

/** A file's extension as the type filter shows it (".ts"), or "" when its name has none. */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

/** The extensions among `files` with their counts, most files first (then by name). */
export function extensionCounts(files: Pick<DiffFile, "newPath">[]): { ext: string; count: number }[] {
  const m = new Map<string, number>();
  for (const f of files) m.set(extensionOf(f.newPath), (m.get(extensionOf(f.newPath)) ?? 0) + 1);
  return [...m].map(([ext, count]) => ({ ext, count })).sort((a, b) => b.count - a.count || a.ext.localeCompare(b.ext));
}

/**
 * The indices of the files the tree shows: whose old or new path contains `text`
 * (case-insensitive) and, when `exts` is not empty, whose extension is one of them.
 */
export function filterFiles(files: Pick<DiffFile, "newPath" | "oldPath">[], text: string, exts: ReadonlySet<string>): number[] {
  const q = text.trim().toLowerCase();
  const out: number[] = [];
  files.forEach((f, i) => {
    if (exts.size > 0 && !exts.has(extensionOf(f.newPath))) return;
    if (q && !f.newPath.toLowerCase().includes(q) && !f.oldPath.toLowerCase().includes(q)) return;
    out.push(i);
  });
  return out;
}

/** One line that find in diff matched: the file's index and the line's index among its hunk lines (NumberedLine.index). */
export interface FindMatch {
  file: number;
  line: number;
}

/** Most matches find in diff counts and steps through. */
export const MAX_FIND_MATCHES = 5_000;

/**
 * The lines of `files` containing `query` (case-insensitive), in file and line order, at most
 * MAX_FIND_MATCHES. Searches the hunks the viewer holds: a file whose hunks were not loaded has
 * none yet (the viewer loads them for the search).
 */
export function findInFiles(files: DiffFile[], query: string): FindMatch[] {
  const q = query.toLowerCase();
  const out: FindMatch[] = [];
  if (!q) return out;
  for (let file = 0; file < files.length; file++) {
    let line = 0;
    for (const h of files[file].hunks)
      for (const l of h.lines) {
        if (l.content.toLowerCase().includes(q)) {
          out.push({ file, line });
          if (out.length >= MAX_FIND_MATCHES) return out;
        }
        line++;
      }
  }
  return out;
}

/** The row index showing hunk line `line` of file `file`, or -1 (the file collapsed, the line not drawn). */
export function rowOfLine(rows: Row[], first: number | undefined, file: number, line: number): number {
  if (first === undefined) return -1;
  for (let i = first; i < rows.length && rows[i].file === file; i++) {
    const r = rows[i];
    if (r.kind === "line" && r.line.index === line) return i;
    if (r.kind === "pair" && (r.left?.index === line || r.right?.index === line)) return i;
  }
  return -1;
}
