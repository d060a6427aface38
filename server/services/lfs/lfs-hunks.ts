/**
 * Hunks of an LFS content diff (server/services/lfs/lfs-diff.ts): `git diff --no-index` output
 * parsed into DiffHunks, counted, and written back as a page's hunks (lines as git prints them).
 */
import type { DiffHunk, DiffLine, DiffPageHunk } from "@/server/git/diff-types";

/**
 * Parses the hunks of a one-file `git diff` patch (after the "@@" header lines); keeps at most
 * `maxLines` lines. Returns the hunks and whether lines were left out.
 */
export function parseHunks(patch: string, maxLines: number): { hunks: DiffHunk[]; truncated: boolean } {
  const hunks: DiffHunk[] = [];
  let hunk: DiffHunk | null = null;
  let kept = 0;
  let truncated = false;
  const lines = patch.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (const raw of lines) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/.exec(raw);
    if (m) {
      if (kept >= maxLines) {
        truncated = true;
        break;
      }
      hunk = {
        oldStart: +m[1],
        oldLines: m[2] === undefined ? 1 : +m[2],
        newStart: +m[3],
        newLines: m[4] === undefined ? 1 : +m[4],
        header: m[5],
        lines: [],
      };
      hunks.push(hunk);
      continue;
    }
    if (!hunk) continue;
    if (raw.startsWith("\\")) {
      const last = hunk.lines[hunk.lines.length - 1];
      if (last) last.noNewlineAtEnd = true;
      continue;
    }
    const type: DiffLine["type"] | null = raw[0] === "+" ? "add" : raw[0] === "-" ? "delete" : raw[0] === " " ? "context" : null;
    if (!type) continue;
    if (kept >= maxLines) {
      truncated = true;
      break;
    }
    hunk.lines.push({ type, content: raw.slice(1) });
    kept++;
  }
  return { hunks, truncated };
}

/** Lines of type `type` in `hunks`. */
export function countLines(hunks: readonly DiffHunk[], type: DiffLine["type"]): number {
  return hunks.reduce((k, h) => k + h.lines.filter((l) => l.type === type).length, 0);
}

/** `hunks` as a page's hunks: lines "+<added>", "-<deleted>", " <context>", and "\ No newline at end of file" after a line git marked. */
export function toPageHunks(hunks: readonly DiffHunk[]): DiffPageHunk[] {
  const marker = { add: "+", delete: "-", context: " " } as const;
  return hunks.map(({ lines, ...h }) => ({
    ...h,
    lines: lines.flatMap((l) =>
      l.noNewlineAtEnd ? [marker[l.type] + l.content, "\\ No newline at end of file"] : [marker[l.type] + l.content],
    ),
  }));
}
