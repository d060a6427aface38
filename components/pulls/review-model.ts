/**
 * Pure helpers of the Files changed tab's review UI (docs/pulls.md "Review",
 * "Suggestions"): where a thread shows in the diff, the lines a suggestion replaces, and the
 * ```suggestion block of a comment form.
 */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import type { DiffFile } from "@/components/diff/model";
import type { LineSide } from "@/components/diff/diff-viewer";

/** An inline thread as pulls.comments answers it: the root comment with its replies. */
export type Thread = inferRouterOutputs<AppRouter>["pulls"]["comments"][number];
export type ThreadComment = Thread["replies"][number];

/** A line (range) the reader is writing a comment on: `start..end` of `side` in `path`. */
export interface Draft {
  path: string;
  side: LineSide;
  start: number;
  end: number;
}

/** "RIGHT:12": the key of a line in the diff viewer's `lineSlots`. */
export function slotKey(side: LineSide, line: number): string {
  return `${side}:${line}`;
}

/**
 * Where a thread shows: its side and the line its range ends on at the head
 * (`currentLine`); an outdated thread stays at the line it was written on (with its badge).
 * null for general comments (no path).
 */
export function threadAnchor(t: Thread): { path: string; side: LineSide; line: number } | null {
  if (!t.path || t.line === null) return null;
  const side: LineSide = t.side === "LEFT" ? "LEFT" : "RIGHT";
  return { path: t.path, side, line: t.isOutdated ? t.line : (t.currentLine ?? t.line) };
}

/** Threads grouped by path, then by slot key. */
export function threadsByLine(threads: Thread[]): Map<string, Map<string, Thread[]>> {
  const out = new Map<string, Map<string, Thread[]>>();
  for (const t of threads) {
    const a = threadAnchor(t);
    if (!a) continue;
    let byLine = out.get(a.path);
    if (!byLine) out.set(a.path, (byLine = new Map()));
    const key = slotKey(a.side, a.line);
    byLine.set(key, [...(byLine.get(key) ?? []), t]);
  }
  return out;
}

/** The text of the new file's lines `start..end` as the diff shows them; null when one of them is not in the diff. */
export function rightLines(f: DiffFile, start: number, end: number): string[] | null {
  const byNo = new Map<number, string>();
  for (const h of f.hunks) {
    let n = h.newStart;
    for (const l of h.lines) {
      if (l.type === "delete") continue;
      byNo.set(n++, l.content.replace(/\r$/, ""));
    }
  }
  const out: string[] = [];
  for (let n = start; n <= end; n++) {
    const s = byNo.get(n);
    if (s === undefined) return null;
    out.push(s);
  }
  return out;
}

/** A ```suggestion block holding `lines` (what "Insert suggestion" puts in the form). */
export function suggestionBlock(lines: string[]): string {
  return "```suggestion\n" + lines.map((l) => `${l}\n`).join("") + "```";
}

const BLOCK = /```suggestion[ \t]*\r?\n([\s\S]*?)^```[ \t]*$/m;

/**
 * Splits a form's text into the comment body and the suggested lines of its first
 * ```suggestion block (null when there is none). The body keeps the text around the block.
 */
export function splitSuggestion(text: string): { body: string; suggestion: string | null } {
  const m = BLOCK.exec(text);
  if (!m) return { body: text, suggestion: null };
  return { body: (text.slice(0, m.index) + text.slice(m.index + m[0].length)).trim(), suggestion: m[1] };
}

/** The slot keys ("RIGHT:12", "LEFT:3") of the lines `f`'s loaded hunks show: where a thread can sit. */
export function diffLineKeys(f: DiffFile): Set<string> {
  const out = new Set<string>();
  for (const h of f.hunks) {
    let o = h.oldStart;
    let n = h.newStart;
    for (const l of h.lines) {
      if (l.type !== "add") out.add(slotKey("LEFT", o++));
      if (l.type !== "delete") out.add(slotKey("RIGHT", n++));
    }
  }
  return out;
}

/**
 * The threads of `f` (`byLine`: threadsByLine's entry for its path) that no line of its diff can
 * hold — mostly outdated threads whose line is gone since they were written — shown at the top
 * of the file instead (GitHub's "N outdated comments"). A file whose hunks are not loaded yet
 * ("Load diff", a large pull request's later files) keeps its threads for its lines: none here.
 */
export function threadsAtFileTop(f: DiffFile, byLine: Map<string, Thread[]> | undefined): Thread[] {
  if (!byLine || (f.hunks.length === 0 && f.truncated)) return [];
  const shown = diffLineKeys(f);
  return [...byLine.entries()].filter(([key]) => !shown.has(key)).flatMap(([, ts]) => ts);
}

/** Inline threads on paths that are not a file of the diff any more (shown at the top of the tab), in the server's order. */
export function threadsOffDiff(threads: Thread[], paths: ReadonlySet<string>): Thread[] {
  return threads.filter((t) => threadAnchor(t) !== null && !paths.has(t.path!));
}

/** The commentIds a batch may hold: suggestions of `threads` still in `ids` (applied or vanished ones drop out). */
export function liveBatch(ids: readonly string[], threads: Thread[]): string[] {
  const open = new Set<string>();
  for (const t of threads)
    for (const c of [t as ThreadComment, ...t.replies]) if (c.suggestion !== null && !c.appliedSha && !c.isDeleted) open.add(c.id);
  return ids.filter((id) => open.has(id));
}

const COMMENT_ID = /\bcomment ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/gi;

/**
 * A server message naming comments by id ("comment 5f…: …", pulls.applySuggestions' refusals)
 * made readable: each known id becomes "@author's suggestion" (unknown ids stay as they are).
 */
export function nameComments(message: string, threads: Thread[]): string {
  const authors = new Map<string, string>();
  for (const t of threads)
    for (const c of [t as ThreadComment, ...t.replies]) authors.set(c.id.toLowerCase(), c.author?.username ?? "ghost");
  return message.replace(COMMENT_ID, (whole, id: string) =>
    authors.has(id.toLowerCase()) ? `@${authors.get(id.toLowerCase())}'s suggestion` : whole,
  );
}
