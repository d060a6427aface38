/**
 * URL scheme of the code browser (docs/ui.md "URL scheme"):
 *   /<owner>/<repo>                         default branch, root directory
 *   /<owner>/<repo>/tree/<ref>/<dir path>   a directory at a ref
 *   /<owner>/<repo>/blob/<ref>/<file path>  a file at a ref
 *   /<owner>/<repo>/commits/<ref>/<path?>   commit history at a ref (of a file or directory)
 *   /<owner>/<repo>/settings                repository settings (admins)
 * <ref> keeps its slashes (feature/login); every segment is percent-encoded on its own.
 * The server splits ref from path by the longest prefix of segments that names a branch.
 */
export type CodeKind = "tree" | "blob" | "commits";

/** Percent-encodes each "/"-separated segment, keeping the separators. */
export function encodeSegments(value: string): string {
  return value
    .split("/")
    .filter((s) => s !== "")
    .map(encodeURIComponent)
    .join("/");
}

export function repoUrl(owner: string, repo: string): string {
  return `/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
}

/** URL of a directory (tree), a file (blob) or the history (commits) of a path at a ref. */
export function codeUrl(owner: string, repo: string, kind: CodeKind, ref: string, path = ""): string {
  const tail = path ? `/${encodeSegments(path)}` : "";
  return `${repoUrl(owner, repo)}/${kind}/${encodeSegments(ref)}${tail}`;
}

/** Parent directory of a path ("" for top-level entries). */
export function parentPath(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** The repository settings page (admins only). */
export function settingsUrl(owner: string, repo: string): string {
  return `${repoUrl(owner, repo)}/settings`;
}

/** The commit page: /<owner>/<repo>/commit/<sha>. */
export function commitUrl(owner: string, repo: string, sha: string): string {
  return `${repoUrl(owner, repo)}/commit/${encodeURIComponent(sha)}`;
}

/** The compare page: /<owner>/<repo>/compare/<base>...<head> (refs keep their slashes). */
export function compareUrl(owner: string, repo: string, base: string, head: string): string {
  return `${repoUrl(owner, repo)}/compare/${encodeSegments(base)}...${encodeSegments(head)}`;
}

/** `#L10` → {start: 10, end: 10}; `#L20-L10` → {start: 10, end: 20}; anything else → null. */
export function parseLineHash(hash: string): { start: number; end: number } | null {
  const m = /^#L(\d{1,7})(?:-L?(\d{1,7}))?$/.exec(hash);
  if (!m) return null;
  const a = Number(m[1]);
  const b = m[2] ? Number(m[2]) : a;
  if (a < 1 || b < 1) return null;
  return { start: Math.min(a, b), end: Math.max(a, b) };
}

/** The hash for a range: `#L7` for one line, `#L7-L9` for several. */
export function lineHash(start: number, end: number): string {
  const [a, b] = start <= end ? [start, end] : [end, start];
  return a === b ? `#L${a}` : `#L${a}-L${b}`;
}
