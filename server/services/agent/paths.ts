/**
 * The path rule of proposed changes (docs/agent.md "Paths"). A proposed path is
 * normalised ("./a//b" → "a/b", "a/../b" → "b") and refused (BAD_REQUEST, saying why) when it:
 *   - is empty or names the top of the repository;
 *   - is absolute ("/etc/passwd", "C:/x") or escapes the repository (".." above the top);
 *   - is not a path git stores as a file with core.protectHFS and core.protectNTFS on, checked on
 *     the normalised path by server/git/verify-path.ts `verifyPath`, the rule of every path svc
 *     writes: it refuses ".git" in any letter case and the spellings macOS and Windows read as
 *     ".git" (".g\u200cit" with an HFS+-ignored code point, ".git.", ".git ", "git~1",
 *     ".git::$INDEX_ALLOCATION");
 *   - is stricter than git here: a backslash (git on Windows reads it as a separator), a control
 *     character, a segment longer than 255 bytes, or more than 4096 bytes in all.
 * Pure; the same rule for the model's proposeChange tool and for edits drafted by hand.
 */
import { AppError } from "@/server/errors";
import { verifyPath } from "@/server/git/verify-path";

export const MAX_PATH_BYTES = 4096;
export const MAX_SEGMENT_BYTES = 255;

const bad = (raw: string, why: string) => new AppError("BAD_REQUEST", `path "${raw.length > 200 ? `${raw.slice(0, 200)}…` : raw}" ${why}`);

/**
 * The normalised repository path for `raw` (segments joined by "/", no leading or trailing "/").
 * Errors: BAD_REQUEST naming the path and the rule it breaks (see the module comment).
 */
export function normaliseAgentPath(raw: string): string {
  if (raw.trim() === "") throw bad(raw, "is empty: name a file");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw bad(raw, "contains a control character");
  if (raw.includes("\\")) throw bad(raw, "contains a backslash: separate folders with /");
  if (raw.startsWith("/") || /^[A-Za-z]:/.test(raw) || raw.startsWith("~"))
    throw bad(raw, "is absolute: give a path from the top of the repository");
  const out: string[] = [];
  for (const segment of raw.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (!out.length) throw bad(raw, "escapes the repository");
      out.pop();
      continue;
    }
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) throw bad(raw, `has a name longer than ${MAX_SEGMENT_BYTES} bytes`);
    out.push(segment);
  }
  if (!out.length) throw bad(raw, "names the top of the repository, not a file");
  if (raw.endsWith("/")) throw bad(raw, "ends with /: name a file, not a folder");
  const path = out.join("/");
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) throw bad(raw, `is longer than ${MAX_PATH_BYTES} bytes`);
  const problem = verifyPath(path);
  if (problem) throw bad(raw, problem);
  return path;
}

/** File extensions pm mode may propose changes to: documentation and plain text (docs/agent.md "Modes"). */
export const PM_EXTENSIONS = ["md", "mdx", "markdown", "txt", "rst", "adoc", "asciidoc"] as const;

/**
 * True when pm mode may change `path` (normalised): its extension is in PM_EXTENSIONS, case
 * insensitive ("docs/plan.md", "NOTES.TXT"); code, configuration and every other file are code
 * mode's.
 */
export function pmMayChange(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 && (PM_EXTENSIONS as readonly string[]).includes(name.slice(dot + 1).toLowerCase());
}
