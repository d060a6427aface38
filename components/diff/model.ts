/**
 * Pure helpers of the diff viewer (docs/pulls.md "Viewer"): which files start collapsed, the rows a file
 * renders as (unified or split), and the file tree. Shared by the commit, compare and pull
 * request pages. Types are the diff model's (server/git/diff-parse.ts, docs/pulls.md "Diff").
 */
import type { DiffFile, DiffHunk, DiffLine } from "@/server/git/diff-parse";
import type { DiffPageHunk } from "@/server/git/diff-types";
import type { TokenStyle } from "@/lib/highlight/runs";

export type { Diff, DiffFile, DiffHunk, DiffLine } from "@/server/git/diff-parse";

export type DiffView = "unified" | "split";

/**
 * Hunk lines a page renders with its first response (repos.commit/compare, pulls.getDiff
 * `maxLines`): 2,000 lines keep a large diff's first HTML near 3 MB (10,000 made 15 MB and 7 s
 * to first byte for a 2,000-file pull request, e2e/pulls-large.spec.ts); later
 * files load as they scroll into view. Here, not in the viewer: a server component importing a
 * constant from a "use client" module gets a client reference, not the number.
 */
export const PAGE_DIFF_LINES = 2_000;

/** Files with more changed lines than this start collapsed ("Load diff"). */
export const LARGE_FILE_LINES = 400;

const GENERATED = [
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|Gemfile\.lock|composer\.lock|poetry\.lock|Pipfile\.lock|go\.sum|flake\.lock|mix\.lock|pubspec\.lock|Podfile\.lock|packages\.lock\.json)$/,
  /\.min\.(js|css|mjs)$/,
  /\.(map|snap)$/,
  /(^|\/)(dist|build|vendor|node_modules|generated|__generated__|\.next|out|coverage)\//,
  /\.(pb\.go|g\.dart|designer\.cs|generated\.\w+)$/,
];

/** True for lockfiles, minified bundles, source maps, snapshots and files under generated folders. */
export function isGenerated(path: string): boolean {
  return GENERATED.some((re) => re.test(path));
}

/** Why a file starts collapsed, or null when it starts open. */
export function collapseReason(f: DiffFile): "generated" | "large" | null {
  if (isGenerated(f.newPath)) return "generated";
  if (f.additions + f.deletions > LARGE_FILE_LINES) return "large";
  return null;
}

/**
 * A DiffFile as pages send it to the viewer: fields at their usual value are left out (`packFile`),
 * which halves a 2,000-file list in the page's RSC payload (most files of a large diff come
 * without hunks). A full DiffFile is a valid PackedFile.
 */
export type PackedFile = Partial<DiffFile> & Pick<DiffFile, "newPath">;

/** The value a left-out field has, given the file's newPath, status and newMode (oldMode: null for an added file, else newMode). */
function usual(f: PackedFile): Omit<DiffFile, "truncatedReason" | "similarity" | "copiedFrom"> {
  return {
    oldPath: f.newPath,
    newPath: f.newPath,
    status: "modified",
    additions: 0,
    deletions: 0,
    hunks: [],
    isBinary: false,
    oldMode: f.status === "added" ? null : (f.newMode ?? null),
    newMode: null,
    truncated: false,
    isSubmodule: false,
    oldSha: null,
    newSha: null,
  };
}

/** `f` without the fields that equal their usual value (no key is set to undefined: RSC would send it). */
export function packFile(f: DiffFile): PackedFile {
  const base = usual(f) as Record<string, unknown>;
  const out: Record<string, unknown> = { newPath: f.newPath };
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined || k === "newPath") continue;
    if (k === "hunks" ? (v as unknown[]).length === 0 : base[k] === v) continue;
    out[k] = v;
  }
  return out as PackedFile;
}

/** The DiffFile `packFile` made `p` from (a full DiffFile comes back equal). */
export function unpackFile(p: PackedFile): DiffFile {
  return { ...usual(p), ...p };
}

/**
 * A page's hunks (lines as git prints them: "+…", "-…", " …", "\ No newline at end of file"
 * after a line; docs/pulls.md "File list and hunk pages") as the viewer's DiffHunks.
 */
export function fromPageHunks(hunks: DiffPageHunk[]): DiffHunk[] {
  return hunks.map(({ lines, ...h }) => {
    const out: DiffLine[] = [];
    for (const text of lines) {
      const marker = text[0];
      if (marker === "\\") {
        if (out.length > 0) out[out.length - 1].noNewlineAtEnd = true;
        continue;
      }
      out.push({ type: marker === "+" ? "add" : marker === "-" ? "delete" : "context", content: text.slice(1) });
    }
    return { ...h, lines: out };
  });
}

/** A line's text cut into its highlighted runs; null when the runs do not cover the text exactly (then it is shown plain). */
export function tokenRuns(
  text: string,
  runs: number[] | null | undefined,
  styles: TokenStyle[],
): { text: string; style: TokenStyle | null }[] | null {
  if (!runs) return null;
  const out: { text: string; style: TokenStyle | null }[] = [];
  let at = 0;
  for (let k = 0; k + 1 < runs.length; k += 2) {
    const end = at + runs[k];
    out.push({ text: text.slice(at, end), style: runs[k + 1] >= 0 ? (styles[runs[k + 1]] ?? null) : null });
    at = end;
  }
  return at === text.length ? out : null;
}

/** A line with its line numbers and its index among the file's hunk lines (for highlights and comment slots). */
export interface NumberedLine {
  line: DiffLine;
  oldNo: number | null;
  newNo: number | null;
  index: number;
}

export type FileRow =
  | { kind: "hunk"; header: string; hunkIndex: number }
  | { kind: "line"; line: NumberedLine }
  | { kind: "pair"; left: NumberedLine | null; right: NumberedLine | null };

/**
 * The rows of a file's hunks: a hunk header row, then one row per line (unified) or per pair of
 * lines (split: deletions on the left beside the additions that follow them, context on both).
 */
export function fileRows(f: DiffFile, view: DiffView): FileRow[] {
  const rows: FileRow[] = [];
  let index = 0;
  f.hunks.forEach((h, hunkIndex) => {
    rows.push({
      kind: "hunk",
      header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@${h.header ? ` ${h.header}` : ""}`,
      hunkIndex,
    });
    let oldNo = h.oldStart;
    let newNo = h.newStart;
    const numbered: NumberedLine[] = h.lines.map((line) => {
      const n: NumberedLine = {
        line,
        index: index++,
        oldNo: line.type === "add" ? null : oldNo,
        newNo: line.type === "delete" ? null : newNo,
      };
      if (line.type !== "add") oldNo++;
      if (line.type !== "delete") newNo++;
      return n;
    });
    if (view === "unified") {
      for (const line of numbered) rows.push({ kind: "line", line });
      return;
    }
    for (let i = 0; i < numbered.length;) {
      const l = numbered[i];
      if (l.line.type === "context") {
        rows.push({ kind: "pair", left: l, right: l });
        i++;
        continue;
      }
      const dels: NumberedLine[] = [];
      const adds: NumberedLine[] = [];
      while (i < numbered.length && numbered[i].line.type === "delete") dels.push(numbered[i++]);
      while (i < numbered.length && numbered[i].line.type === "add") adds.push(numbered[i++]);
      for (let k = 0; k < Math.max(dels.length, adds.length); k++)
        rows.push({ kind: "pair", left: dels[k] ?? null, right: adds[k] ?? null });
    }
  });
  return rows;
}

export interface TreeNode {
  name: string;
  /** Full path of a directory, or the file's new path. */
  path: string;
  /** Index into the diff's files for a file node. */
  fileIndex?: number;
  children: TreeNode[];
}

/** The changed files as a directory tree (single-child directories merged: "src/app"), directories first, by name. */
export function fileTree(files: Pick<DiffFile, "newPath">[]): TreeNode[] {
  const root: TreeNode = { name: "", path: "", children: [] };
  files.forEach((f, fileIndex) => {
    const parts = f.newPath.split("/");
    let node = root;
    parts.slice(0, -1).forEach((part, i) => {
      const path = parts.slice(0, i + 1).join("/");
      let child = node.children.find((c) => c.fileIndex === undefined && c.path === path);
      if (!child) node.children.push((child = { name: part, path, children: [] }));
      node = child;
    });
    node.children.push({ name: parts[parts.length - 1], path: f.newPath, fileIndex, children: [] });
  });
  const tidy = (n: TreeNode): TreeNode => {
    let children = n.children.map(tidy);
    children = children.map((c) => {
      while (c.fileIndex === undefined && c.children.length === 1 && c.children[0].fileIndex === undefined)
        c = { ...c.children[0], name: `${c.name}/${c.children[0].name}` };
      return c;
    });
    children.sort((a, b) => Number(a.fileIndex !== undefined) - Number(b.fileIndex !== undefined) || a.name.localeCompare(b.name));
    return { ...n, children };
  };
  return tidy(root).children;
}

/** "a → b" for renames and copies, else the new path. */
export function displayPath(f: DiffFile): string {
  return f.oldPath !== f.newPath ? `${f.oldPath} → ${f.newPath}` : f.newPath;
}
