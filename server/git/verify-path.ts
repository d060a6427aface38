/**
 * The one rule for a path svc writes into a tree (agent proposals and approvals, review
 * suggestions, conflict resolutions): git's own `verify_path` as it runs with both
 * `core.protectHFS` and `core.protectNTFS` on, for regular files. svc's server is Linux, where git
 * leaves protectHFS off, so git itself would store ".g\u200cit/hooks/x"; a clone on macOS reads
 * that as ".git/hooks/x" and runs it. Every writer calls `verifyPath` so that no such tree is made
 * here, whatever the server's platform.
 *
 * Ported from git (github.com/git/git):
 *   - read-cache.c `verify_path` and `verify_dotfile`: no empty, "." or ".." component, no
 *     leading "/", no ".git" component in any letter case; each component (after "/", and with
 *     protectNTFS also after "\\") is checked by the two below;
 *   - utf8.c `is_hfs_dotgit` (`next_hfs_char`, `is_hfs_dot_generic`): HFS+ ignores the code
 *     points U+200C–U+200F, U+202A–U+202E, U+206A–U+206F and U+FEFF in names and folds case, so
 *     "." + "git" with any of them in between, then the end or "/", is ".git";
 *   - path.c `is_ntfs_dotgit`: NTFS trims trailing spaces and periods (".git . ."), gives ".git"
 *     the 8.3 short name "git~1", and reaches a folder by its alternate data stream
 *     (".git::$INDEX_ALLOCATION"), so ".git" or "git~1" followed only by spaces and periods, up to
 *     the end, a separator ("/" or "\\") or ":", is ".git";
 *   - compat/mingw.c `has_dos_drive_prefix` ("C:…"), which git checks on Windows.
 * The rules git adds for symbolic links only (".gitmodules" and its HFS/NTFS spellings such as
 * "gi7eba~1", `is_ntfs_dotgitmodules`) are not ported: svc writes regular files (100644/100755)
 * only, and git refuses other modes there (edit-files.ts).
 */

/** Code points HFS+ ignores in names (utf8.c `next_hfs_char`). */
function hfsIgnored(cp: number): boolean {
  return (cp >= 0x200c && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x206a && cp <= 0x206f) || cp === 0xfeff;
}

/** utf8.c `is_hfs_dotgit`: `rest` (a path from the start of a component) begins with an HFS+ spelling of ".git" as a whole component. */
function isHfsDotgit(rest: string): boolean {
  const chars: string[] = [];
  for (const ch of rest) {
    if (ch === "/") break;
    if (!hfsIgnored(ch.codePointAt(0)!)) chars.push(ch);
    if (chars.length > 4) return false;
  }
  // a code point above 127 never matches (git clamps before tolower)
  return (
    chars.length === 4 &&
    chars[0] === "." &&
    chars.slice(1).join("").toLowerCase() === "git" &&
    chars.every((c) => c.length === 1 && c.charCodeAt(0) < 128)
  );
}

/** path.c `is_ntfs_dotgit`: `rest` (from the start of a component) is an NTFS spelling of ".git". */
function isNtfsDotgit(rest: string): boolean {
  let i: number;
  if (/^\.git/i.test(rest)) i = 4;
  else if (/^git~1/i.test(rest)) i = 5;
  else return false;
  for (; ; i++) {
    const c = rest[i];
    if (c === undefined || c === "/" || c === "\\" || c === ":") return true;
    if (c !== "." && c !== " ") return false;
  }
}

/**
 * Why git would not store `path` (exact, from the top of the tree, "/"-separated) as a regular
 * file with protectHFS and protectNTFS on, or null when it may be written. The answer is a
 * phrase that follows the quoted path ("is empty", "has an empty component", "touches the .git
 * folder, …"). Pure; nothing is normalised here ("a/./b" is refused, not read as "a/b").
 */
export function verifyPath(path: string): string | null {
  if (path === "") return "is empty";
  if (path.includes("\0")) return "contains a NUL byte";
  if (path.startsWith("/")) return "is absolute: give a path from the top of the repository";
  if (/^[A-Za-z]:/.test(path)) return "starts with a drive letter";
  const gitFolder = "touches the .git folder (or a spelling of it macOS or Windows reads as .git), which is git's own";
  let start = 0;
  for (const component of path.split("/")) {
    const rest = path.slice(start);
    start += component.length + 1;
    if (component === "") return "has an empty component (// or a trailing /)";
    if (component === "." || component === "..") return `has a "${component}" component`;
    // verify_dotfile: ".git" in any letter case
    if (/^\.git$/i.test(component)) return gitFolder;
    if (isHfsDotgit(rest) || isNtfsDotgit(rest)) return gitFolder;
    // protectNTFS: a backslash separates components on Windows, so each part after one is checked too
    for (let b = component.indexOf("\\"); b >= 0; b = component.indexOf("\\", b + 1)) {
      if (isNtfsDotgit(component.slice(b + 1))) return gitFolder;
    }
  }
  return null;
}
