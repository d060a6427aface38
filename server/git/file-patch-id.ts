/**
 * A file's patch id: what stays the same of one file's change when the commits around it move
 * (a rebase onto a newer base, a force-push that only edits other files). Used by the "viewed"
 * marks of the Files changed tab (server/services/pulls/viewed-files.ts, docs/pulls.md "Pages").
 *
 * The rule follows `git patch-id --stable`: SHA-1 of the diff's lines with all whitespace removed
 * and line numbers (hunk headers) ignored. Unlike git it hashes only the changed lines ("+" and
 * "-", in order), not the context: an upstream edit next to the change, or one that joins or splits
 * hunks, leaves the reviewed change as it was. Pure; the same function serves the time a mark is
 * set and the time it is read, so both hash the same thing.
 */
import { createHash } from "node:crypto";
import type { DiffFile } from "./diff-types";

/**
 * The patch id of `file`'s change (40 hex), or null when its hunks do not show the whole change:
 * a binary file, or a file cut by the diff's limits (`truncated`). A change without
 * changed lines (a pure rename or mode change) has the id of the empty list.
 */
export function filePatchId(file: Pick<DiffFile, "hunks" | "isBinary" | "truncated">): string | null {
  if (file.isBinary || file.truncated) return null;
  const hash = createHash("sha1");
  for (const hunk of file.hunks) {
    for (const l of hunk.lines) {
      if (l.type === "context") continue;
      hash.update(`${l.type === "add" ? "+" : "-"}${l.content.replace(/\s+/g, "")}\n`);
    }
  }
  return hash.digest("hex");
}
