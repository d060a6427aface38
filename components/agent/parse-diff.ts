/**
 * A proposed change's `diff` (one file's unified diff as server/git/text-diff.ts writes it) read
 * into the diff model's `DiffFile` (server/git/diff-types.ts), so the change cards draw it with
 * the diff viewer's rows (components/diff/model.ts `fileRows`). Pure; never throws: lines it
 * does not know are skipped. A "\ No newline at end of file" marks the line before it; git's
 * "Binary files … differ" sets `isBinary`; the text diff's own "\ diff truncated at N bytes"
 * sets `truncated`.
 */
import type { DiffFile, DiffHunk } from "@/components/diff/model";

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

/** `text` → one DiffFile for `path` (status from the header: new file → added, deleted file → deleted). */
export function parseUnifiedDiff(text: string, path: string): DiffFile {
  const file: DiffFile = {
    oldPath: path,
    newPath: path,
    status: "modified",
    additions: 0,
    deletions: 0,
    hunks: [],
    isBinary: false,
    oldMode: "100644",
    newMode: "100644",
    truncated: false,
    isSubmodule: false,
    oldSha: null,
    newSha: null,
  };
  let hunk: DiffHunk | null = null;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    const m = HUNK_RE.exec(line);
    if (m) {
      hunk = {
        oldStart: Number(m[1]),
        oldLines: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newLines: m[4] === undefined ? 1 : Number(m[4]),
        header: m[5] ?? "",
        lines: [],
      };
      file.hunks.push(hunk);
      continue;
    }
    if (!hunk) {
      if (line.startsWith("new file mode")) {
        file.status = "added";
        file.oldMode = null;
      } else if (line.startsWith("deleted file mode")) {
        file.status = "deleted";
        file.newMode = null;
      } else if (line.startsWith("Binary files")) file.isBinary = true;
      else if (line.startsWith("\\ diff truncated")) file.truncated = true;
      continue;
    }
    const marker = line[0];
    if (marker === "+") {
      hunk.lines.push({ type: "add", content: line.slice(1) });
      file.additions++;
    } else if (marker === "-") {
      hunk.lines.push({ type: "delete", content: line.slice(1) });
      file.deletions++;
    } else if (marker === " " || line === "") hunk.lines.push({ type: "context", content: line.slice(1) });
    else if (line.startsWith("\\ diff truncated")) file.truncated = true;
    else if (marker === "\\") {
      const last = hunk.lines.at(-1);
      if (last) last.noNewlineAtEnd = true;
    }
  }
  return file;
}
