/**
 * Types of the diff viewer (./diff-viewer.tsx): its props, where it loads left-out files from,
 * the sides of a line, and the rows it renders.
 */
import type { DiffHighlights } from "@/lib/highlight/runs";
import type { DiffFile, FileRow, PackedFile } from "./model";
import type { ExpandedLine, Gap } from "./expand";

/**
 * Where "Load diff" fetches a file whose hunks were left out of the page's response, and whose
 * blobs the expand rows read (the head's repository: `headRepoId` for a compare, `repoId` for a
 * pull request, which holds its head's objects; a pull source without it has no expand rows).
 */
export type DiffSource =
  | { kind: "commit"; repoId: string; sha: string }
  | { kind: "compare"; repoId: string; base: string; head: string; headRepoId?: string }
  | { kind: "pull"; prId: string; repoId?: string }
  /** A pull request's interdiff between revisions `from` and `to` (pulls.compareRevisionsPage; no expand rows). */
  | { kind: "revisions"; prId: string; from: number; to: number };

/** The side of a diff line a comment belongs to: LEFT = the old file's line number, RIGHT = the new file's. */
export type LineSide = "LEFT" | "RIGHT";

export interface DiffViewerProps {
  /** The files (packed by `packFile` or whole). */
  files: PackedFile[];
  /** Syntax highlighting of the files as given (token runs per hunk line, lib/highlight/diff.ts). */
  highlights?: DiffHighlights;
  source?: DiffSource;
  totalFiles?: number;
  /** Slot in each file header (e.g. a "Viewed" checkbox). */
  renderFileActions?: (file: DiffFile, index: number) => React.ReactNode;
  /** The lines with a slot row under them, as "RIGHT:<new line>" / "LEFT:<old line>" keys. */
  lineSlots?: (file: DiffFile) => ReadonlySet<string> | undefined;
  /** The content of a slot row (e.g. a line's review threads and comment form). */
  renderSlot?: (file: DiffFile, side: LineSide, line: number) => React.ReactNode;
  /**
   * A control beside a line number (e.g. "Comment on line 12"); `tabIndex` 0 for the file's one tab
   * stop, -1 for the others (the viewer's roving tab stop: Up/Down move it within the file).
   */
  renderGutter?: (file: DiffFile, side: LineSide, line: number, tabIndex: 0 | -1) => React.ReactNode;
  /** Whether a file gets a row right under its header (when it is open). */
  fileTop?: (file: DiffFile) => boolean;
  /** The content of that row (e.g. "2 outdated comments"). */
  renderFileTop?: (file: DiffFile) => React.ReactNode;
  /** Registers j/k (next/previous file) and n/p (next/previous slot row: a review thread) with the shortcut sheet. */
  shortcuts?: boolean;
  /** Files shown collapsed until opened (e.g. the ones the reader marked viewed). */
  collapsedFile?: (file: DiffFile) => boolean;
}

/** One virtualized row of the viewer; `file` is the index of the file it belongs to. */
export type Row =
  | { kind: "slot"; file: number; side: LineSide; line: number }
  | { kind: "top"; file: number }
  | { kind: "file"; file: number }
  | { kind: "notice"; file: number; text: string; action?: "expand" | "load" }
  | ({ file: number } & FileRow)
  | { kind: "end"; file: number }
  /** A gap's expander row (./diff-expand-rows.tsx): the unchanged new-side lines `hidden` still leaves out. */
  | { kind: "expander"; file: number; gap: Gap; hidden: { from: number; to: number | null } }
  /** An unchanged line the reader expanded (numbers on both sides; not commentable: docs/pulls.md "Viewer"). */
  | { kind: "expanded"; file: number; oldNo: number; newNo: number; line: ExpandedLine };
