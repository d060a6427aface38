/**
 * A streaming parser of `git diff --raw [--numstat] [--patch] -z` output (docs/pulls.md "Diff": the
 * one diff model of pull requests, the commit page and the compare page). Pure: bytes in, `Diff`
 * out; the git process is run by server/git/diff.ts.
 *
 * Git's output has up to three sections (git-diff(1) "Raw output format", "--numstat", "-z"): the
 * raw records and the numstat records (read by `DiffRecords`, server/git/diff-records.ts), then a
 * NUL and the patches, one `diff --git` section per raw record, in the same order.
 * Without --numstat (the patch runs: git would otherwise compute every file's diff twice),
 * additions and deletions are counted from the patch's lines and binary files are known by git's
 * "Binary files … differ" line; the whole output is then read (counts need every line), and only
 * what is kept is bounded.
 * Paths and metadata come from the NUL-separated records (never from the quoted patch headers),
 * so paths with spaces, tabs, quotes or non-ASCII characters are exact; hunks come from the patch
 * text, matched to records by position. Memory is bounded by the limits in `DiffLimits`: lines
 * past a limit are parsed and dropped, and `wantsMore()` turns false once nothing more would be
 * kept, so the caller can stop git.
 */

import { isAscii } from "node:buffer";
import {
  DIFF_LIMITS,
  type Diff,
  type DiffCounts,
  type DiffFile,
  type DiffHunk,
  type DiffLimits,
  type DiffLine,
  type DiffLineType,
} from "./diff-types";
import { DiffRecords } from "./diff-records";

export type { Diff, DiffCounts, DiffFile, DiffHunk, DiffLimits, DiffLine, DiffLineType, DiffStatus } from "./diff-types";
export { DIFF_LIMITS } from "./diff-types";

/** Longest NUL-separated record accepted in the raw/numstat sections (a path is far shorter). */
const MAX_RECORD_BYTES = 64 * 1024;
const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/s;

/** Where a page of hunks starts or stopped (server/git/diff-page.ts): a file of this run's output and a hunk of that file. */
export interface PagePosition {
  /** The file's index in this run's output (git's order), and the file. */
  index: number;
  file: DiffFile;
  hunk: number;
}

/**
 * Push parser: `push(chunk)` for each chunk of git's stdout, then `finish()`. `include(file, index)`
 * picks the files whose hunks are wanted and that are returned (default all; `index` is the
 * file's position in this run's output).
 */
export class DiffParser {
  private readonly limits: DiffLimits;
  private readonly include: (f: DiffFile, index: number) => boolean;
  private readonly rec: DiffRecords;
  private readonly all: DiffFile[];
  /** Counted from the patch's lines (count mode); the records' counts are `rec`'s. */
  private totalAdditions = 0;
  private totalDeletions = 0;
  private section: "records" | "patch" = "records";
  private pending: Buffer = Buffer.alloc(0);
  // patch state
  private fileIndex = -1;
  private current: DiffFile | null = null;
  private keep = false;
  private oldLeft = 0;
  private newLeft = 0;
  private hunk: DiffHunk | null = null;
  private lastLine: DiffLine | null = null;
  private fileLines = 0;
  private fileBytes = 0;
  private totalLines = 0;
  private totalBytes = 0;
  private budgetOut = false;
  private budgetIndex = -1;
  private lineOverflow = false;
  private lastIncluded = -2;
  /** No --numstat in the output: additions, deletions and binary flags are read from the patch. */
  private countMode = false;
  /** Some file is not wanted (a filter is in force). */
  private filtered = false;

  private readonly metadataOnly: boolean;
  // page mode (`page`): see the constructor
  private readonly page: { hunk: number } | null;
  private hunkIndex = -1;
  private includedSeen = 0;
  private skipHunks = 0;
  private pageFirstHunk: DiffHunk | null = null;
  private lastKept = false;
  private stop: PagePosition | null = null;
  // kept lines' text: an ASCII chunk is decoded once and its lines are slices of it (no decoding per line)
  private textOf: Buffer | null = null;
  private text: string | null = null;

  /**
   * `metadataOnly`: the output has no patch section (`--raw --numstat -z` alone): files come
   * without hunks and are not marked truncated. `counts`: the counts of the same range from an
   * earlier run (its metadata: same arguments, so the same files in the same order); additions,
   * deletions and binary flags are taken from there instead of the patch lines, so git can be
   * stopped as soon as the budget is spent. A record that does not match throws (the caller
   * then runs without `counts`).
   *
   * `page` (a page of hunks, server/git/diff-page.ts): counts are not read (totals stay 0, git is
   * stopped at the budget); the first `page.hunk` hunks of the first included file are parsed
   * (they count towards its per-file limits) but not kept; hunk lines are kept as git prints
   * them (`DiffPageHunk`: "+…", "-…", " …", and "\\ No newline at end of file" after a line
   * without one); the response budget cuts between hunks: the hunk that would pass it is dropped
   * whole and `pageStop()` names it, except the page's first kept hunk, which is always kept
   * whole (bounded by the per-file limits) so that every page makes progress.
   *
   * `from` (with `page`; a page read from a cached patch, server/git/diff-patch-cache.ts): the
   * output starts at the patch of file `from.index` (no records section); `from.files` holds the
   * files by their index in the whole output (fresh copies: hunks are added to them), absent
   * indices are skipped.
   */
  constructor(
    opts: {
      limits?: Partial<DiffLimits>;
      include?: (f: DiffFile, index: number) => boolean;
      metadataOnly?: boolean;
      counts?: DiffCounts;
      page?: { hunk: number };
      from?: { files: DiffFile[]; index: number };
    } = {},
  ) {
    this.limits = { ...DIFF_LIMITS, ...opts.limits };
    this.include = opts.include ?? (() => true);
    this.metadataOnly = opts.metadataOnly ?? false;
    this.rec = new DiffRecords(this.limits.maxFiles, opts.counts ?? null);
    this.all = opts.from?.files ?? this.rec.files;
    this.page = opts.page ?? null;
    if (opts.from) {
      this.fileIndex = opts.from.index - 1;
      this.startPatch(false);
    }
  }

  /** Page mode: the first hunk the budget left out (the next page starts there), or null when every wanted hunk was kept. */
  pageStop(): PagePosition | null {
    return this.stop;
  }

  /** Hunk lines and bytes kept so far (for the large-diff gate, server/git/diff-gate.ts). */
  kept(): { lines: number; bytes: number } {
    return { lines: this.totalLines, bytes: this.totalBytes };
  }

  /** False once no later byte can change the result (every wanted file parsed, or the budget spent): stop git then. */
  wantsMore(): boolean {
    if (this.section !== "patch") return true;
    // counting from the patch: every file's lines must be seen for its counts and the totals
    if (this.countMode) return this.filtered ? this.fileIndex <= this.lastIncluded : true;
    if (this.budgetOut) return false;
    return this.fileIndex <= this.lastIncluded;
  }

  push(chunk: Buffer): void {
    let start = 0;
    if (this.section !== "patch") {
      const buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
      while (!this.inPatch()) {
        const nul = buf.indexOf(0, start);
        if (nul < 0) break;
        const done = this.rec.record(buf.subarray(start, nul).toString("utf8"));
        if (done) this.startPatch(done === "uncounted");
        start = nul + 1;
      }
      if (!this.inPatch()) {
        if (buf.length - start > MAX_RECORD_BYTES) throw new Error("git diff: a raw record is longer than 64 KiB");
        this.pending = Buffer.from(buf.subarray(start));
        return;
      }
      this.pending = Buffer.alloc(0);
      chunk = buf;
    }
    const cap = this.limits.maxLineBytes + 1; // the marker plus the content kept
    for (;;) {
      const nl = chunk.indexOf(10, start);
      const end = nl < 0 ? chunk.length : nl;
      if (this.pending.length || nl < 0) {
        const room = cap - this.pending.length;
        if (end - start > room) this.lineOverflow = true;
        const take = chunk.subarray(start, start + Math.max(0, Math.min(room, end - start)));
        if (take.length) this.pending = Buffer.concat([this.pending, take]);
        if (nl < 0) return;
        const line = this.pending;
        this.pending = Buffer.alloc(0);
        this.patchLine(line, 0, line.length);
      } else {
        if (end - start > cap) this.lineOverflow = true;
        this.patchLine(chunk, start, Math.min(end, start + cap));
      }
      this.lineOverflow = false;
      start = nl + 1;
    }
  }

  /** The result. Call after the last `push` (or after stopping git because `wantsMore()` was false). */
  finish(): Diff {
    if (this.section === "patch" && this.pending.length) this.patchLine(this.pending, 0, this.pending.length);
    this.pending = Buffer.alloc(0);
    this.endFile();
    // Files past the point where git stopped or the budget ran out: their hunks were left out.
    const reached = this.budgetIndex >= 0 ? this.budgetIndex : this.fileIndex;
    const files: DiffFile[] = [];
    this.all.forEach((f, i) => {
      if (!this.isIncluded(i, f)) return;
      if (!this.metadataOnly && !this.page && i > reached && !f.truncated && !f.isBinary && f.additions + f.deletions > 0) {
        f.truncated = true;
        f.truncatedReason = "total";
      }
      files.push(f);
    });
    return {
      files,
      totalAdditions: this.rec.totalAdditions + this.totalAdditions,
      totalDeletions: this.rec.totalDeletions + this.totalDeletions,
      totalFiles: this.rec.rawCount,
      truncated: this.rec.rawCount > this.all.length || files.some((f) => f.truncated),
    };
  }

  /** A method, so TypeScript does not narrow `section` across `record()` calls that change it. */
  private inPatch(): boolean {
    return this.section === "patch";
  }

  private includedCache = new Map<number, boolean>();
  private isIncluded(i: number, f: DiffFile): boolean {
    let v = this.includedCache.get(i);
    if (v === undefined) this.includedCache.set(i, (v = this.include(f, i)));
    return v;
  }

  private startPatch(uncounted: boolean): void {
    this.section = "patch";
    // without --numstat the counts are in the patch's lines (unless `counts` gave them, or a page needs none)
    this.countMode = uncounted && !this.page;
    this.lastIncluded = -1;
    this.all.forEach((f, i) => {
      if (this.isIncluded(i, f)) this.lastIncluded = i;
      else this.filtered = true;
    });
  }

  // ---- patch section ----

  private endFile(): void {
    this.hunk = null;
    this.lastLine = null;
    this.oldLeft = this.newLeft = 0;
  }

  /** `buf[start, end)` as UTF-8 text: a slice of the chunk's text when the chunk is ASCII (bytes are characters then). */
  private textAt(buf: Buffer, start: number, end: number): string {
    if (buf !== this.textOf) {
      this.textOf = buf;
      this.text = isAscii(buf) ? buf.toString("latin1") : null;
    }
    return this.text !== null ? this.text.slice(start, end) : buf.toString("utf8", start, end);
  }

  private cut(reason: "file" | "total"): void {
    const f = this.current!;
    if (!f.truncated) {
      f.truncated = true;
      f.truncatedReason = reason;
    }
    this.keep = false;
    if (reason === "total" && !this.budgetOut) {
      this.budgetOut = true;
      this.budgetIndex = this.fileIndex;
    }
  }

  private patchLine(buf: Buffer, start: number, end: number): void {
    const overflow = this.lineOverflow;
    const first = buf[start];
    const inHunk = this.oldLeft > 0 || this.newLeft > 0;
    if (!inHunk && first === 0x64 /* d */ && buf.toString("latin1", start, Math.min(end, start + 11)) === "diff --git ") {
      this.endFile();
      this.fileIndex++;
      const f = this.all[this.fileIndex] ?? null;
      this.current = f;
      this.keep = f !== null && this.isIncluded(this.fileIndex, f) && !this.budgetOut;
      this.fileLines = this.fileBytes = 0;
      this.hunkIndex = -1;
      this.skipHunks = this.keep && this.page && this.includedSeen++ === 0 ? this.page.hunk : 0;
      return;
    }
    if (!this.current && !this.countMode) return;
    if (first === 0x5c /* \ */) {
      if (this.lastLine) this.lastLine.noNewlineAtEnd = true;
      if (this.page && this.lastKept && this.hunk) (this.hunk.lines as unknown as string[]).push("\\ No newline at end of file");
      return;
    }
    if (!inHunk) {
      if (
        first === 0x42 /* B */ &&
        this.countMode &&
        this.current &&
        buf.toString("latin1", start, Math.min(end, start + 13)) === "Binary files "
      )
        this.current.isBinary = true;
      if (first === 0x40 /* @ */) {
        const m = HUNK_RE.exec(buf.toString("utf8", start, end));
        if (!m) return;
        this.oldLeft = m[2] === undefined ? 1 : Number(m[2]);
        this.newLeft = m[4] === undefined ? 1 : Number(m[4]);
        this.lastLine = null;
        this.lastKept = false;
        this.hunkIndex++;
        if (!this.keep || !this.current || this.hunkIndex < this.skipHunks) return ((this.hunk = null), undefined);
        this.hunk = {
          oldStart: Number(m[1]),
          oldLines: this.oldLeft,
          newStart: Number(m[3]),
          newLines: this.newLeft,
          header: m[5] ?? "",
          lines: [],
        };
        this.current.hunks.push(this.hunk);
      }
      return; // extended header lines: metadata comes from the raw records
    }
    let type: DiffLineType;
    if (first === 0x2b /* + */) {
      type = "add";
      this.newLeft--;
    } else if (first === 0x2d /* - */) {
      type = "delete";
      this.oldLeft--;
    } else {
      type = "context";
      this.oldLeft--;
      this.newLeft--;
    }
    if (this.countMode && type !== "context") {
      if (type === "add") {
        this.totalAdditions++;
        if (this.current) this.current.additions++;
      } else {
        this.totalDeletions++;
        if (this.current) this.current.deletions++;
      }
    }
    this.lastKept = false;
    const bytes = end - start - 1;
    if (this.keep && this.current && !this.hunk && this.hunkIndex < this.skipHunks) {
      // a hunk an earlier page sent: it counts towards the file's limits only
      this.fileLines++;
      this.fileBytes += bytes;
      if (this.fileLines > this.limits.maxFileLines || this.fileBytes > this.limits.maxFileBytes) this.cut("file");
    }
    if (!this.keep || !this.hunk || !this.current) {
      this.lastLine = null;
      return;
    }
    const fileFull = this.fileLines + 1 > this.limits.maxFileLines || this.fileBytes + bytes > this.limits.maxFileBytes;
    const totalFull = this.totalLines + 1 > this.limits.maxTotalLines || this.totalBytes + bytes > this.limits.maxTotalBytes;
    if (this.page && totalFull && !fileFull && this.pageFirstHunk !== null && this.hunk !== this.pageFirstHunk) {
      // between hunks: this hunk (and everything after it) is the next page's
      this.current.hunks.pop();
      this.stop = { index: this.fileIndex, file: this.current, hunk: this.hunkIndex };
      this.budgetOut = true;
      this.keep = false;
      this.hunk = this.lastLine = null;
      return;
    }
    if (fileFull || (totalFull && !this.page)) {
      this.cut(fileFull ? "file" : "total");
      this.lastLine = null;
      return;
    }
    this.pageFirstHunk ??= this.hunk;
    this.fileLines++;
    this.totalLines++;
    this.fileBytes += bytes;
    this.totalBytes += bytes;
    if (overflow && !this.current.truncated) {
      this.current.truncated = true;
      this.current.truncatedReason = "file";
    }
    if (this.page) {
      (this.hunk.lines as unknown as string[]).push(this.textAt(buf, start, end));
      this.lastKept = true;
      return;
    }
    const line: DiffLine = { type, content: end > start + 1 ? this.textAt(buf, start + 1, end) : "" };
    this.hunk.lines.push(line);
    this.lastLine = line;
  }
}
