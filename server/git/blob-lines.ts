/**
 * A range of a text blob's lines, for the diff viewer's "expand" rows (docs/pulls.md "Viewer",
 * `repos.blobLines` in docs/api.md). The blob's type and size come first from `git cat-file
 * --batch-check`; then `git cat-file blob` is read as a stream: only the asked lines are kept,
 * the rest is only counted (for `totalLines`), so memory stays bounded by the range, not the file.
 */
import { StringDecoder } from "node:string_decoder";
import { AppError } from "@/server/errors";
import { SHA_RE } from "@/lib/sha";
import { objectInfo } from "./objects";
import { gitOutput } from "./output-stream";
import { BINARY_SNIFF_BYTES, looksBinary } from "./repository";

/** Most lines one request returns. */
export const MAX_BLOB_LINES_RANGE = 1_000;
/** Largest blob whose lines are served (bytes): larger files are not expanded (8 MiB). */
export const MAX_BLOB_LINES_BYTES = 8 * 1024 * 1024;
/** Most bytes of the asked lines kept (1 MiB): a range of longer lines is refused. */
export const MAX_BLOB_LINES_OUTPUT = 1024 * 1024;

/** Lines `startLine`..`endLine` (1-based, inclusive; those past the end are left out) and the blob's line count. */
export interface BlobLines {
  /** The lines without their "\n" (a "\r" before it stays, as in diff lines). */
  lines: string[];
  /** Lines of the whole blob (a last line without "\n" counts; 0 for an empty blob). */
  totalLines: number;
}

/**
 * Lines `startLine`..`endLine` of blob `sha` (a full object id) in the repository at `gitDir`.
 * Errors (AppError): BAD_REQUEST for an id that is not a full object id, a range that is empty,
 * starts before line 1 or holds more than MAX_BLOB_LINES_RANGE lines, a blob larger than
 * MAX_BLOB_LINES_BYTES, a binary blob (a NUL in its first 8,000 bytes, git's rule), or asked lines
 * over MAX_BLOB_LINES_OUTPUT bytes; NOT_FOUND when the object is not a blob of this repository's
 * object store. A plain Error when git fails.
 */
export async function readBlobLines(gitDir: string, sha: string, startLine: number, endLine: number): Promise<BlobLines> {
  if (!SHA_RE.test(sha)) throw new AppError("BAD_REQUEST", "sha must be a full object id");
  if (!Number.isInteger(startLine) || !Number.isInteger(endLine) || startLine < 1 || endLine < startLine)
    throw new AppError("BAD_REQUEST", "the range must be 1 ≤ startLine ≤ endLine");
  if (endLine - startLine + 1 > MAX_BLOB_LINES_RANGE)
    throw new AppError("BAD_REQUEST", `at most ${MAX_BLOB_LINES_RANGE} lines per request`);
  const [info] = await objectInfo(gitDir, [sha]);
  if (info?.type !== "blob") throw new AppError("NOT_FOUND", "blob not found");
  if (info.size > MAX_BLOB_LINES_BYTES) throw new AppError("BAD_REQUEST", "the file is too large to show its lines (over 8 MiB)");
  const out = gitOutput(["cat-file", "blob", info.id], { gitDir });
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let line = 1; // the line the next byte belongs to
  let read = 0;
  let sniff = Buffer.alloc(0);
  let last = -1; // the blob's last byte
  try {
    for (;;) {
      const chunk = await out.next();
      if (chunk === null) break;
      if (sniff.length < BINARY_SNIFF_BYTES && read < BINARY_SNIFF_BYTES) {
        sniff = Buffer.concat([sniff, chunk.subarray(0, BINARY_SNIFF_BYTES - sniff.length)]);
        if (looksBinary(sniff)) throw new AppError("BAD_REQUEST", "binary file: no lines to show");
      }
      read += chunk.length;
      last = chunk[chunk.length - 1];
      // the part of this chunk inside the range: from where line startLine begins to where line endLine ends
      let at = 0;
      while (at < chunk.length) {
        const nl = chunk.indexOf(10, at);
        const end = nl < 0 ? chunk.length : nl + 1;
        if (line >= startLine && line <= endLine) {
          keptBytes += end - at;
          if (keptBytes > MAX_BLOB_LINES_OUTPUT) throw new AppError("BAD_REQUEST", "the lines asked for are larger than 1 MiB");
          kept.push(chunk.subarray(at, end));
        }
        if (nl < 0) break;
        line++;
        at = end;
      }
    }
  } finally {
    out.stop();
  }
  const totalLines = read === 0 ? 0 : last === 10 ? line - 1 : line;
  const text = new StringDecoder("utf8").end(Buffer.concat(kept));
  const lines = text === "" ? [] : text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "" && text.endsWith("\n")) lines.pop();
  return { lines, totalLines };
}
