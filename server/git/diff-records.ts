/**
 * The record sections of `git diff --raw [--numstat] -z` output (git-diff(1) "Raw output format",
 * "--numstat", "-z"), read by `DiffParser` (server/git/diff-parse.ts) before the patch:
 *   1. raw records  `:<old mode> <new mode> <old sha> <new sha> <status>NUL<path>NUL[<path>NUL]`
 *   2. numstat      `<added>TAB<deleted>TAB<path>NUL` or, for renames/copies, `…TAB NUL<old>NUL<new>NUL`
 *   3. a NUL, then the patches.
 * Pure: NUL-separated records in, the file list out.
 */
import { isZeroSha } from "@/lib/sha";
import type { DiffCounts, DiffFile, DiffStatus } from "./diff-types";

function statusOf(letter: string): DiffStatus {
  if (letter === "A" || letter === "C") return "added";
  if (letter === "D") return "deleted";
  if (letter === "R") return "renamed";
  return "modified"; // M, T (type change), U, X
}

/**
 * The file list from the records, one `record(text)` call per NUL-terminated record. Files past
 * `maxFiles` are counted (`rawCount`) and not listed. With `counts` (the counts of an earlier run
 * of the same range), additions, deletions and binary flags come from there; a record that does
 * not match throws.
 */
export class DiffRecords {
  readonly files: DiffFile[] = [];
  rawCount = 0;
  totalAdditions = 0;
  totalDeletions = 0;
  private numstatCount = 0;
  private section: "raw" | "numstat" = "raw";
  private needPaths = 0;
  private recordPaths: string[] = [];
  private recordMeta: string | null = null;
  private numstatCounts: [string, string] | null = null;

  constructor(
    private readonly maxFiles: number,
    private readonly counts: DiffCounts | null,
  ) {}

  /**
   * Takes one record. Returns null while records go on; at the NUL that starts the patch,
   * "counted" (the counts are known: from --numstat or `counts`) or "uncounted" (no --numstat:
   * they are in the patch's lines).
   */
  record(rec: string): "counted" | "uncounted" | null {
    if (this.needPaths > 0) {
      this.recordPaths.push(rec);
      if (--this.needPaths === 0) this.completeRecord();
      return null;
    }
    if (this.section === "raw") {
      if (rec === "" && this.rawCount > 0) {
        // no --numstat: the patch follows the raw records; counts come from its lines, or from `counts`
        if (!this.counts) return "uncounted";
        if (this.counts.totalFiles !== this.rawCount) throw new Error("git diff: the counts given are of another range");
        this.totalAdditions = this.counts.totalAdditions;
        this.totalDeletions = this.counts.totalDeletions;
        return "counted";
      }
      if (rec.startsWith(":")) {
        this.recordMeta = rec;
        this.recordPaths = [];
        const status = rec.slice(rec.lastIndexOf(" ") + 1);
        this.needPaths = status[0] === "R" || status[0] === "C" ? 2 : 1;
        return null;
      }
      this.section = "numstat";
    }
    if (this.numstatCount === this.rawCount) {
      if (rec !== "") throw new Error("git diff: unexpected record after --numstat");
      return "counted";
    }
    const parts = rec.split("\t");
    this.numstatCounts = [parts[0], parts[1]];
    this.recordPaths = [];
    if (parts.length >= 3 && parts[2] !== "") this.completeRecord();
    else this.needPaths = 2;
    return null;
  }

  private completeRecord(): void {
    if (this.section === "raw") {
      const [oldMode, newMode, oldSha, newSha, status] = this.recordMeta!.slice(1).split(" ");
      const letter = status[0];
      const [p1, p2] = this.recordPaths;
      const index = this.rawCount++;
      if (index >= this.maxFiles) return;
      const file: DiffFile = {
        oldPath: p1,
        newPath: p2 ?? p1,
        status: statusOf(letter),
        additions: 0,
        deletions: 0,
        hunks: [],
        isBinary: false,
        oldMode: oldMode === "000000" ? null : oldMode,
        newMode: newMode === "000000" ? null : newMode,
        truncated: false,
        isSubmodule: oldMode === "160000" || newMode === "160000",
        oldSha: isZeroSha(oldSha) ? null : oldSha,
        newSha: isZeroSha(newSha) ? null : newSha,
      };
      if (letter === "R" || letter === "C") file.similarity = Number(status.slice(1)) || 0;
      if (letter === "C") file.copiedFrom = p1;
      if (this.counts) {
        const c = this.counts.files[index];
        if (!c || c.oldPath !== file.oldPath || c.newPath !== file.newPath || c.status !== file.status)
          throw new Error("git diff: the counts given are of another range");
        file.additions = c.additions;
        file.deletions = c.deletions;
        file.isBinary = c.isBinary;
      }
      this.files.push(file);
      return;
    }
    const [a, d] = this.numstatCounts!;
    const index = this.numstatCount++;
    const binary = a === "-" && d === "-";
    const additions = binary ? 0 : Number(a) || 0;
    const deletions = binary ? 0 : Number(d) || 0;
    this.totalAdditions += additions;
    this.totalDeletions += deletions;
    const file = this.files[index];
    if (file) Object.assign(file, { additions, deletions, isBinary: binary });
  }
}
