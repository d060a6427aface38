/**
 * The local engine's conflict resolution (ai.suggestConflictResolution, spec "AI router";
 * docs/ai.md). Input: `git merge-file --diff3` output (server/git/text-merge.ts),
 * cut into clean segments and conflict hunks {ours, base, theirs}. Each hunk gets the first rule
 * that applies:
 *
 *   same         ours and theirs made the identical change          → take it        (high)
 *   one-side     one side equals the base                           → the other side (high)
 *   union        both sides only ADD lines to the base, at different → both, in base  (high)
 *                places of it
 *   union-same   both only add, at the same place (an import list)  → ours then theirs (medium)
 *   whitespace   one side differs from the base only in whitespace  → the other side,  (medium)
 *                                                                      warned
 *   (none)       anything else                                      → conflict markers kept (low)
 *
 * Nothing is dropped silently: the only rule that discards a change (whitespace) says so in a
 * warning, and an unresolved hunk keeps both sides between standard 7-character markers in
 * `resolved`. The file's confidence is the lowest of its hunks' (high with no conflicts).
 */
import { joinBlocks, markedText, parseDiff3, splitKeep, type ConflictHunk, type MergeSegment } from "@/lib/conflict-regions";
import { MERGE_MARKER_SIZE } from "@/server/git/text-merge";

export { hasConflictMarkers, splitKeep, type ConflictHunk, type MergeSegment } from "@/lib/conflict-regions";

export type Confidence = "low" | "medium" | "high";

export type HunkRule = "same" | "ours-only" | "theirs-only" | "union" | "union-same-place" | "whitespace" | "unresolved";

export interface HunkResolution {
  rule: HunkRule;
  confidence: Confidence;
  /** The hunk's resolved lines, or null when unresolved (markers are kept). */
  lines: string[] | null;
  warning?: string;
}

/**
 * Cuts `git merge-file --diff3 --marker-size=MERGE_MARKER_SIZE` output into segments
 * (lib/conflict-regions.ts `parseDiff3`). Returns null when the markers do not nest as git
 * writes them (then nothing can be trusted).
 */
export function parseMerge(text: string): MergeSegment[] | null {
  return parseDiff3(text, MERGE_MARKER_SIZE);
}

const norm = (l: string) => l.replace(/\r?\n$/, "");
const sameLines = (a: string[], b: string[]) => a.length === b.length && a.every((l, i) => norm(l) === norm(b[i]!));
const squash = (lines: string[]) => lines.join("").replace(/\s+/g, "");

/**
 * Where `side` inserts lines into `base` when `side` is `base` with lines added only: for each
 * gap 0..base.length (gap i = before base line i), the inserted lines. null when `side` also
 * removes or changes base lines (greedy in-order match; hunks are small, bounded by MAX_HUNK_LINES).
 */
export function insertionsOf(base: string[], side: string[]): string[][] | null {
  if (side.length < base.length || side.length > MAX_HUNK_LINES) return null;
  const gaps: string[][] = Array.from({ length: base.length + 1 }, () => []);
  let b = 0;
  for (let s = 0; s < side.length; s++) {
    // greedy in-order matching decides "base is a subsequence of side" correctly
    if (b < base.length && norm(side[s]!) === norm(base[b]!)) b++;
    else gaps[b]!.push(side[s]!);
  }
  return b === base.length ? gaps : null;
}

/** Hunks longer than this (lines per side) are not analysed for union. */
export const MAX_HUNK_LINES = 5000;

/** The first rule (module comment) that resolves `h`. */
export function resolveHunk(h: ConflictHunk): HunkResolution {
  if (sameLines(h.ours, h.theirs)) return { rule: "same", confidence: "high", lines: h.ours };
  if (sameLines(h.ours, h.base)) return { rule: "theirs-only", confidence: "high", lines: h.theirs };
  if (sameLines(h.theirs, h.base)) return { rule: "ours-only", confidence: "high", lines: h.ours };
  const ins = insertionsOf(h.base, h.ours);
  const tins = insertionsOf(h.base, h.theirs);
  if (ins && tins) {
    const samePlace = ins.some((block, i) => block.length > 0 && tins[i]!.length > 0);
    const lines: string[] = [];
    for (let i = 0; i <= h.base.length; i++) {
      // a line both sides added at the same place is kept once
      lines.push(...ins[i]!, ...tins[i]!.filter((l) => !ins[i]!.some((o) => norm(o) === norm(l))));
      if (i < h.base.length) lines.push(h.base[i]!);
    }
    return samePlace
      ? {
          rule: "union-same-place",
          confidence: "medium",
          lines: fixNewlines(lines),
          warning: "both sides added lines at the same place: kept both, ours first; check the order",
        }
      : { rule: "union", confidence: "high", lines: fixNewlines(lines) };
  }
  if (squash(h.ours) === squash(h.base) && h.ours.length) {
    return {
      rule: "whitespace",
      confidence: "medium",
      lines: h.theirs,
      warning: "ours changed only whitespace here; theirs' change was taken and ours' whitespace change dropped",
    };
  }
  if (squash(h.theirs) === squash(h.base) && h.theirs.length) {
    return {
      rule: "whitespace",
      confidence: "medium",
      lines: h.ours,
      warning: "theirs changed only whitespace here; ours' change was taken and theirs' whitespace change dropped",
    };
  }
  return { rule: "unresolved", confidence: "low", lines: null };
}

/** Every line but the last ends with "\n" (lines joined from different sides). */
function fixNewlines(lines: string[]): string[] {
  return lines.map((l, i) => (i < lines.length - 1 && !l.endsWith("\n") ? `${l}\n` : l));
}

const RANK: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };
/** The lower of two confidences. */
export const lower = (a: Confidence, b: Confidence): Confidence => (RANK[a] <= RANK[b] ? a : b);

/** A conflict block with git's standard 7-character markers, labelled. */
export function markers(h: ConflictHunk, labels: { ours: string; theirs: string }): string[] {
  return splitKeep(markedText(h, labels));
}

export interface LocalResolution {
  resolved: string;
  confidence: Confidence;
  /** Rule per conflict hunk, in order. */
  rules: HunkRule[];
  warnings: string[];
  /** Conflict hunks left with markers. */
  unresolved: number;
  alternatives: Array<{ content: string; description: string }>;
}

/**
 * Applies the rules to merged segments (from `parseMerge`). `labels` name the sides in the
 * markers kept for unresolved hunks. Alternatives: every conflict taken from ours, from
 * theirs, and both (ours first) — the changes git merged cleanly are in all three.
 */
export function resolveSegments(segments: MergeSegment[], labels: { ours: string; theirs: string }): LocalResolution {
  const out: string[][] = [];
  const alt = { ours: [] as string[][], theirs: [] as string[][], union: [] as string[][] };
  let confidence: Confidence = "high";
  const rules: HunkRule[] = [];
  const warnings: string[] = [];
  let unresolved = 0;
  let n = 0;
  for (const seg of segments) {
    if (seg.kind === "clean") {
      for (const list of [out, alt.ours, alt.theirs, alt.union]) list.push(seg.lines);
      continue;
    }
    n++;
    const r = resolveHunk(seg);
    rules.push(r.rule);
    confidence = lower(confidence, r.confidence);
    if (r.warning) warnings.push(`conflict ${n}: ${r.warning}`);
    if (r.lines) out.push(r.lines);
    else {
      unresolved++;
      out.push(markers(seg, labels));
    }
    alt.ours.push(seg.ours);
    alt.theirs.push(seg.theirs);
    alt.union.push(seg.ours, seg.theirs);
  }
  if (unresolved)
    warnings.push(
      `${unresolved} conflict${unresolved === 1 ? "" : "s"} could not be resolved safely: the conflict markers are kept; edit them by hand`,
    );
  const text = (blocks: string[][]) => joinBlocks(...blocks).join("");
  return {
    resolved: text(out),
    confidence,
    rules,
    warnings,
    unresolved,
    alternatives: [
      { content: text(alt.ours), description: `Keep ${labels.ours} (ours) in every conflict; changes git merged cleanly stay` },
      { content: text(alt.theirs), description: `Keep ${labels.theirs} (theirs) in every conflict; changes git merged cleanly stay` },
      { content: text(alt.union), description: "Keep both sides in every conflict, ours first (check for duplicates)" },
    ],
  };
}
