/**
 * The text side of applying suggestions (docs/pulls.md "Suggestions"), pure and on
 * bytes so a file that is not UTF-8 keeps every byte outside the replaced lines.
 *
 * A file is a list of lines, each with its own terminator ("\n", "\r\n", or "" for a last line
 * without a newline). A suggestion's text is the replacement lines: "\r\n" and "\n" both end a
 * line, one final line ending is optional ("a\nb" and "a\nb\n" are the same two lines), "" is
 * no line at all (the range is deleted) and "\n" is one empty line. Inserted lines take the
 * terminator of the first replaced line (else the file's first terminator, else "\n"), so CRLF
 * files stay CRLF; when the range ends at a last line without a newline, the new last line has
 * none either ("no newline at end of file" is kept).
 */

export interface Line {
  text: Buffer;
  eol: "" | "\n" | "\r\n";
}

/** Splits `content` into lines with their terminators; an empty file has no lines. */
export function splitLines(content: Buffer): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < content.length) {
    const nl = content.indexOf(0x0a, start);
    if (nl < 0) {
      lines.push({ text: content.subarray(start), eol: "" });
      break;
    }
    const cr = nl > start && content[nl - 1] === 0x0d;
    lines.push({ text: content.subarray(start, cr ? nl - 1 : nl), eol: cr ? "\r\n" : "\n" });
    start = nl + 1;
  }
  return lines;
}

/** Joins lines back into file bytes (inverse of splitLines). */
export function joinLines(lines: Line[]): Buffer {
  const parts: Buffer[] = [];
  for (const l of lines) parts.push(l.text, Buffer.from(l.eol));
  return Buffer.concat(parts);
}

/** True when lines `start`..`end` (1-based, inclusive) exist in both and are byte-equal, terminators included. */
export function sameLines(a: Line[], b: Line[], start: number, end: number): boolean {
  if (start < 1 || end < start || end > a.length || end > b.length) return false;
  for (let i = start - 1; i < end; i++) if (a[i].eol !== b[i].eol || !a[i].text.equals(b[i].text)) return false;
  return true;
}

/** The replacement lines of a suggestion's text (see the module comment). */
export function suggestionLines(suggestion: string): string[] {
  if (suggestion === "") return [];
  return suggestion.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
}

/** One replacement: lines `start`..`end` (1-based, inclusive) become `suggestion`'s lines. */
export interface LineEdit {
  start: number;
  end: number;
  suggestion: string;
}

/**
 * Applies non-overlapping `edits` (all within the file's lines) to `lines` and returns the new
 * lines. Edits are applied bottom-up, so every edit's numbers refer to the original file.
 * Errors: a plain Error for overlapping or out-of-range edits (callers check both first).
 */
export function applyLineEdits(lines: Line[], edits: LineEdit[]): Line[] {
  const sorted = [...edits].sort((x, y) => y.start - x.start);
  for (let i = 1; i < sorted.length; i++) if (sorted[i].end >= sorted[i - 1].start) throw new Error("overlapping edits");
  const fileEol = lines.find((l) => l.eol !== "")?.eol ?? "\n";
  let out = [...lines];
  for (const e of sorted) {
    if (e.start < 1 || e.end < e.start || e.end > out.length) throw new Error(`lines ${e.start}-${e.end} are outside the file`);
    const first = out[e.start - 1];
    const eol = first.eol !== "" ? first.eol : fileEol;
    const atEnd = e.end === out.length;
    const noNewlineAtEnd = atEnd && out[out.length - 1].eol === "";
    const inserted: Line[] = suggestionLines(e.suggestion).map((t) => ({ text: Buffer.from(t, "utf8"), eol }));
    out = [...out.slice(0, e.start - 1), ...inserted, ...out.slice(e.end)];
    if (noNewlineAtEnd && out.length > 0) out[out.length - 1] = { ...out[out.length - 1], eol: "" };
  }
  return out;
}
