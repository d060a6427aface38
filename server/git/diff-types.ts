/**
 * The diff model's types and limits: one shape for pull requests, the commit page and
 * the compare page (docs/pulls.md "Diff"). Produced by `DiffParser` (server/git/diff-parse.ts).
 */

export type DiffLineType = "context" | "add" | "delete";

export interface DiffLine {
  type: DiffLineType;
  /** The line without its leading marker and without the "\n" (a "\r" of a CRLF line is kept). */
  content: string;
  /** Set when git printed "\ No newline at end of file" after this line. */
  noNewlineAtEnd?: true;
}

export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** The text after the second "@@" (git's function context), without the leading space; "" when none. */
  header: string;
  lines: DiffLine[];
}

export type DiffStatus = "added" | "deleted" | "modified" | "renamed";

export interface DiffFile {
  /** Path on the old side. Always set: equal to `newPath` except for renames and copies (then the source path). */
  oldPath: string;
  /** Path on the new side. Always set: equal to `oldPath` for deletions. */
  newPath: string;
  /** A copy (git status C) is "added" with `copiedFrom` set; a type change (T) is "modified". */
  status: DiffStatus;
  /** Real counts (as git diff --numstat gives them), even when `truncated` (0 for binary files). */
  additions: number;
  deletions: number;
  hunks: DiffHunk[];
  isBinary: boolean;
  /** Octal modes such as "100644", "100755", "120000" (symlink), "160000" (submodule); null when the side is absent. */
  oldMode: string | null;
  newMode: string | null;
  /** True when some hunks or lines were left out (see `truncatedReason`). */
  truncated: boolean;
  /** "file": this file passed the per-file limit; "total": the response's budget ran out before (or within) it. */
  truncatedReason?: "file" | "total";
  /** Rename/copy similarity in percent (git's score), for renames and copies only. */
  similarity?: number;
  /** For copies (status "added"): the source path; the hunks are against that source. */
  copiedFrom?: string;
  /** True when either side is a submodule (gitlink, mode 160000). */
  isSubmodule: boolean;
  /** Blob ids (or submodule commit ids) of the two sides; null when the side is absent. */
  oldSha: string | null;
  newSha: string | null;
  /**
   * Set when the file is a Git LFS pointer on each present side (server/services/lfs/lfs-diff.ts):
   * the two sides' objects (null: absent), and `content` true when the hunks are the objects'
   * contents diffed (else the hunks are the pointers', or none: "Stored with Git LFS: a → b").
   */
  lfs?: { old: DiffLfsSide | null; new: DiffLfsSide | null; content: boolean };
}

/** One side of an LFS file in a diff: the object's oid, size in bytes, and whether the repository serves it. */
export interface DiffLfsSide {
  oid: string;
  size: number;
  stored: boolean;
}

export interface Diff {
  files: DiffFile[];
  /** Sums over every changed file of the range (not only the files returned). */
  totalAdditions: number;
  totalDeletions: number;
  /** Number of changed files in the range (may exceed `files.length`). */
  totalFiles: number;
  /** True when files past `maxFiles` were left out, or some file's hunks were cut. */
  truncated: boolean;
}

/** What `DiffParser`'s `counts` option needs of an earlier run of the same range. */
export type DiffCounts = Pick<Diff, "totalAdditions" | "totalDeletions" | "totalFiles"> & {
  files: Pick<DiffFile, "oldPath" | "newPath" | "status" | "additions" | "deletions" | "isBinary">[];
};

/** Limits of one parse. Lines are hunk lines (context, added, deleted); bytes are their UTF-8 content. */
export interface DiffLimits {
  /** Most files listed (GitHub lists 3,000). */
  maxFiles: number;
  /** Most hunk lines kept of one file. */
  maxFileLines: number;
  /** Most hunk bytes kept of one file. */
  maxFileBytes: number;
  /** Most hunk lines kept over the whole response. */
  maxTotalLines: number;
  /** Most hunk bytes kept over the whole response. */
  maxTotalBytes: number;
  /** A longer line is cut to this many bytes (and its file marked truncated). */
  maxLineBytes: number;
}

/** Defaults: 3,000 files; per file 10,000 lines / 1 MiB; per response 50,000 lines / 8 MiB; lines cut at 64 KiB. */
export const DIFF_LIMITS: DiffLimits = {
  maxFiles: 3_000,
  maxFileLines: 10_000,
  maxFileBytes: 1024 * 1024,
  maxTotalLines: 50_000,
  maxTotalBytes: 8 * 1024 * 1024,
  maxLineBytes: 64 * 1024,
};

/** A file of a diff's file list (docs/pulls.md "File list and hunk pages"): a DiffFile without its hunks. */
export type DiffFileMeta = Omit<DiffFile, "hunks" | "truncated" | "truncatedReason">;

/** A diff's file list: every listed file's metadata, once; `truncated` when more files changed than are listed (DiffLimits.maxFiles). */
export interface DiffFileList {
  files: DiffFileMeta[];
  totalAdditions: number;
  totalDeletions: number;
  totalFiles: number;
  truncated: boolean;
}

/**
 * A hunk of a page: as DiffHunk, with its lines as git prints them: "+<added>", "-<deleted>",
 * " <context>", and "\ No newline at end of file" after a line git printed it for.
 */
export interface DiffPageHunk extends Omit<DiffHunk, "lines"> {
  lines: string[];
}

/** A file of a page: its place in the file list, its paths (to check against the list) and this page's hunks of it. */
export interface DiffPageFile {
  /** The file's index in the file list. */
  index: number;
  oldPath: string;
  newPath: string;
  hunks: DiffPageHunk[];
  /** The index (in the file) of `hunks[0]` when an earlier page sent the hunks before it. */
  fromHunk?: number;
  /** Set when the file's later hunks are on the next page (the budget ran out inside it). */
  continues?: true;
  /** True when the per-file or per-line limit cut the file ("file"); such hunks never come. */
  truncated: boolean;
  truncatedReason?: "file";
  /** Set for a Git LFS pointer file (as DiffFile's `lfs`): the hunks are then the objects' content diff, or none for a size change. */
  lfs?: DiffFile["lfs"];
}

/** A page of hunks: the files it covers in file-list order, and the cursor of the next page (null after the last file). */
export interface DiffPage {
  files: DiffPageFile[];
  nextCursor: string | null;
}
