/**
 * An index of one whole `git diff --raw --patch -z` output (the diff model's fixed options,
 * server/git/diff.ts `DIFF_ARGS`), read as it streams into the patch cache
 * (server/git/diff-patch-cache.ts): the file list with the counts `--numstat` would give, and the
 * byte offset at which each listed file's patch starts, so a page of hunks can later be parsed from
 * its files' bytes alone. Pure: bytes in, `PatchIndex` out. No hunk line is kept.
 *
 * The counts follow `DiffParser`'s count mode (server/git/diff-parse.ts) exactly: a hunk's lines
 * are known by the hunk header's line counts (so a content line that looks like a header is
 * content), "+" lines are additions, "-" lines deletions, "\" lines nothing, and a "Binary files …
 * differ" line outside a hunk marks the file binary. Lines are found with `Buffer.indexOf` and
 * only their first bytes are read.
 */
import { DiffRecords } from "./diff-records";
import type { Diff, DiffFile } from "./diff-types";

/** Longest NUL-separated record accepted in the raw section (a path is far shorter). */
const MAX_RECORD_BYTES = 64 * 1024;
/** Bytes of a line kept when it spans two chunks: enough for any header this index reads ("@@ -n,n +n,n @@"). */
const HEAD_BYTES = 128;
const HUNK_HEAD = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/** What `PatchIndexer.finish` returns. */
export interface PatchIndex {
  /** The range's metadata: every listed file without hunks, real counts and totals (as `--raw --numstat`). */
  meta: Diff;
  /** Byte offset (in the whole output) of each listed file's "diff --git" line, and of the first unlisted file's when there is one. */
  offsets: number[];
  /** Bytes of the whole output. */
  size: number;
}

/** Push indexer: `push(chunk)` for each chunk of the output, in order, then `finish()`. */
export class PatchIndexer {
  private readonly rec: DiffRecords;
  private inPatch = false;
  private pending: Buffer = Buffer.alloc(0);
  /** Absolute offset of the next chunk's first byte. */
  private base = 0;
  /** The current line's first bytes when it began in an earlier chunk, and its absolute start. */
  private head: Buffer | null = null;
  private headStart = 0;
  private readonly offsets: number[] = [];
  private fileIndex = -1;
  private current: DiffFile | null = null;
  private oldLeft = 0;
  private newLeft = 0;
  private totalAdditions = 0;
  private totalDeletions = 0;

  /** `maxFiles`: files listed (DiffLimits.maxFiles); later files are counted in the totals only. */
  constructor(private readonly maxFiles: number) {
    this.rec = new DiffRecords(maxFiles, null);
  }

  push(chunk: Buffer): void {
    let start = 0;
    const base = this.base;
    this.base += chunk.length;
    if (!this.inPatch) {
      const buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
      const bufBase = base - this.pending.length;
      while (!this.inPatch) {
        const nul = buf.indexOf(0, start);
        if (nul < 0) break;
        if (this.rec.record(buf.subarray(start, nul).toString("utf8"))) this.inPatch = true;
        start = nul + 1;
      }
      if (!this.inPatch) {
        if (buf.length - start > MAX_RECORD_BYTES) throw new Error("git diff: a raw record is longer than 64 KiB");
        this.pending = Buffer.from(buf.subarray(start));
        return;
      }
      this.pending = Buffer.alloc(0);
      this.lines(buf, start, bufBase);
      return;
    }
    this.lines(chunk, 0, base);
  }

  private lines(buf: Buffer, start: number, base: number): void {
    if (this.head) {
      // the line that began in an earlier chunk
      const nl = buf.indexOf(10, start);
      const end = nl < 0 ? buf.length : nl;
      if (this.head.length < HEAD_BYTES)
        this.head = Buffer.concat([this.head, buf.subarray(start, Math.min(end, start + HEAD_BYTES - this.head.length))]);
      if (nl < 0) return;
      const line = this.head;
      this.head = null;
      this.line(line, 0, line.length, this.headStart);
      start = nl + 1;
    }
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl < 0) {
        if (start < buf.length) {
          this.head = Buffer.from(buf.subarray(start, Math.min(buf.length, start + HEAD_BYTES)));
          this.headStart = base + start;
        }
        return;
      }
      this.line(buf, start, nl, base + start);
      start = nl + 1;
    }
  }

  /** One patch line: `buf[start, end)` (at least its first bytes), starting at absolute offset `at`. */
  private line(buf: Buffer, start: number, end: number, at: number): void {
    const first = buf[start];
    if (this.oldLeft > 0 || this.newLeft > 0) {
      if (first === 0x2b /* + */) {
        this.newLeft--;
        this.totalAdditions++;
        if (this.current) this.current.additions++;
      } else if (first === 0x2d /* - */) {
        this.oldLeft--;
        this.totalDeletions++;
        if (this.current) this.current.deletions++;
      } else if (first !== 0x5c /* \ */) {
        this.oldLeft--;
        this.newLeft--;
      }
      return;
    }
    if (first === 0x64 /* d */ && buf.toString("latin1", start, Math.min(end, start + 11)) === "diff --git ") {
      this.fileIndex++;
      if (this.fileIndex <= this.rec.files.length && this.fileIndex <= this.maxFiles) this.offsets[this.fileIndex] = at;
      this.current = this.rec.files[this.fileIndex] ?? null;
    } else if (first === 0x40 /* @ */) {
      const m = HUNK_HEAD.exec(buf.toString("latin1", start, Math.min(end, start + HEAD_BYTES)));
      if (!m) return;
      this.oldLeft = m[1] === undefined ? 1 : Number(m[1]);
      this.newLeft = m[2] === undefined ? 1 : Number(m[2]);
    } else if (first === 0x42 /* B */ && this.current && buf.toString("latin1", start, Math.min(end, start + 13)) === "Binary files ") {
      this.current.isBinary = true;
    }
  }

  /** The index. Call after the last `push`, with the whole output pushed. */
  finish(): PatchIndex {
    if (this.head) this.line(this.head, 0, this.head.length, this.headStart);
    this.head = null;
    const files = this.rec.files;
    return {
      meta: {
        files,
        totalAdditions: this.totalAdditions,
        totalDeletions: this.totalDeletions,
        totalFiles: this.rec.rawCount,
        truncated: this.rec.rawCount > files.length,
      },
      offsets: this.offsets,
      size: this.base,
    };
  }
}
