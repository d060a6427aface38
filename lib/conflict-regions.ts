/**
 * The conflict regions of one file (docs/pulls.md "Conflicts"; the local AI engine,
 * server/ai/conflicts/rules.ts): `git merge-file -p --diff3 --marker-size=MERGE_MARKER_SIZE`
 * output (server/git/text-merge.ts `mergeTexts`) cut into clean segments and conflict regions
 * {ours, base, theirs}; the choices the conflicts view offers per region (ours, theirs, both —
 * ours then theirs —, an edited text, the AI suggestion) and the file they give. Pure and
 * isomorphic: the browser and the server use the same parser.
 *
 * Lines keep their "\n" everywhere (so joining gives the text back exactly); the last line of a
 * file may lack it.
 */

/** Conflict marker length of `mergeTexts` (long, so lines of the files cannot pass for markers). */
export const MERGE_MARKER_SIZE = 31;

/** A conflict block of the merge: each side's lines, each line with its "\n" (the last may lack it). */
export interface ConflictHunk {
  ours: string[];
  base: string[];
  theirs: string[];
}

export type MergeSegment = { kind: "clean"; lines: string[] } | ({ kind: "conflict" } & ConflictHunk);

/** Splits text into lines that keep their "\n" (so joining gives the text back exactly). */
export function splitKeep(text: string): string[] {
  const out = text.split(/(?<=\n)/);
  return out.length === 1 && out[0] === "" ? [] : out;
}

/**
 * Cuts diff3-style merge output whose markers are `markerSize` characters long into segments.
 * Returns null when the markers do not nest as git writes them (then nothing can be trusted).
 */
export function parseDiff3(text: string, markerSize: number = MERGE_MARKER_SIZE): MergeSegment[] | null {
  const [open, mid, sep, close] = ["<", "|", "=", ">"].map((c) => c.repeat(markerSize)) as [string, string, string, string];
  const segments: MergeSegment[] = [];
  let clean: string[] = [];
  let hunk: ConflictHunk | null = null;
  let part: "ours" | "base" | "theirs" = "ours";
  const isMarker = (line: string, m: string) => line === m || line.startsWith(`${m} `) || line.startsWith(`${m}\n`) || line === `${m}\r\n`;
  for (const line of splitKeep(text)) {
    if (isMarker(line, open)) {
      if (hunk) return null;
      if (clean.length) segments.push({ kind: "clean", lines: clean });
      clean = [];
      hunk = { ours: [], base: [], theirs: [] };
      part = "ours";
    } else if (hunk && part === "ours" && isMarker(line, mid)) part = "base";
    else if (hunk && part === "base" && isMarker(line, sep)) part = "theirs";
    else if (hunk && part === "theirs" && isMarker(line, close)) {
      segments.push({ kind: "conflict", ...hunk });
      hunk = null;
    } else if (hunk) hunk[part].push(line);
    else clean.push(line);
  }
  if (hunk) return null;
  if (clean.length) segments.push({ kind: "clean", lines: clean });
  return segments;
}

/**
 * True when `text` still holds a conflict marker line: `<<<<<<<` or `>>>>>>>` at a line start,
 * alone or followed by a space. (`=======` alone is not enough: it underlines Markdown and
 * reStructuredText headings.)
 */
export function hasConflictMarkers(text: string): boolean {
  return /^(?:<{7}|>{7})(?: [^\n]*)?\r?$/m.test(text);
}

/** Joins blocks of lines so that each block starts on a line of its own. */
export function joinBlocks(...blocks: string[][]): string[] {
  const out: string[] = [];
  for (const block of blocks) {
    if (!block.length) continue;
    if (out.length && !out[out.length - 1]!.endsWith("\n")) out[out.length - 1] += "\n";
    out.push(...block);
  }
  return out;
}

/** How a region was resolved in the conflicts view. */
export type RegionChoice = "ours" | "theirs" | "both" | "edit" | "suggestion";

/** A region's resolution: how, and the region's resulting text (whole lines). */
export interface RegionResolution {
  choice: RegionChoice;
  text: string;
}

/** The text of a region for one of the one-click choices ("both": ours' lines, then theirs'). */
export function choiceText(h: ConflictHunk, choice: "ours" | "theirs" | "both"): string {
  const lines = choice === "ours" ? h.ours : choice === "theirs" ? h.theirs : joinBlocks(h.ours, h.theirs);
  return lines.join("");
}

/** The region with git's standard 7-character diff3 markers (where "Edit" starts an unresolved region). */
export function markedText(h: ConflictHunk, labels: { ours: string; theirs: string }): string {
  return joinBlocks([`<<<<<<< ${labels.ours}\n`], h.ours, ["||||||| base\n"], h.base, ["=======\n"], h.theirs, [
    `>>>>>>> ${labels.theirs}\n`,
  ]).join("");
}

/** True when `r` resolves its region: a choice was made and its text holds no conflict markers. */
export function isResolved(r: RegionResolution | null | undefined): boolean {
  return !!r && !hasConflictMarkers(r.text);
}

/** The conflict regions of `segments`, in order. */
export function regionsOf(segments: MergeSegment[]): ConflictHunk[] {
  return segments.filter((s): s is { kind: "conflict" } & ConflictHunk => s.kind === "conflict");
}

/** Regions of `segments` that `resolutions` (one entry per region, in order) leaves unresolved. */
export function conflictsLeft(segments: MergeSegment[], resolutions: ReadonlyArray<RegionResolution | null | undefined>): number {
  return regionsOf(segments).filter((_, i) => !isResolved(resolutions[i])).length;
}

/**
 * The file `segments` give with `resolutions` (one per region, in order; unresolved regions keep
 * `markedText`). A region's text that does not end with "\n" gets one when more lines follow it,
 * or when it is the file's end and a side's last line had one (regions are whole lines).
 */
export function assemble(
  segments: MergeSegment[],
  resolutions: ReadonlyArray<RegionResolution | null | undefined>,
  labels: { ours: string; theirs: string },
): string {
  let out = "";
  let n = 0;
  segments.forEach((seg, i) => {
    if (seg.kind === "clean") {
      out += seg.lines.join("");
      return;
    }
    const r = resolutions[n++];
    let text = r ? r.text : markedText(seg, labels);
    const last = i === segments.length - 1;
    const sideEndsLine = [seg.ours, seg.theirs].some((l) => l.at(-1)?.endsWith("\n"));
    if (text && !text.endsWith("\n") && (!last || sideEndsLine)) text += "\n";
    out += text;
  });
  return out;
}

/**
 * Maps a whole-file suggestion onto the regions: the clean segments are anchors that must appear
 * in `suggested` in order (the first at its start, the last at its end); the text between two
 * anchors is the region's. Returns one text per region, or null when the suggestion changed the
 * lines around the conflicts (then it can only be taken for the whole file).
 */
export function mapSuggestion(segments: MergeSegment[], suggested: string): string[] | null {
  const out: string[] = [];
  let pos = 0;
  let pending = false;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg.kind === "conflict") {
      pending = true;
      continue;
    }
    const anchor = seg.lines.join("");
    const last = i === segments.length - 1;
    const at = !pending
      ? suggested.startsWith(anchor, pos)
        ? pos
        : -1
      : last
        ? suggested.length - anchor.length
        : suggested.indexOf(anchor, pos);
    if (at < pos || !suggested.startsWith(anchor, at)) return null;
    if (pending) out.push(suggested.slice(pos, at));
    pending = false;
    pos = at + anchor.length;
  }
  if (pending) out.push(suggested.slice(pos));
  else if (pos !== suggested.length) return null;
  return out;
}
