/**
 * The repository a page belongs to, read from its path: `/<owner>/<repo>/…` where `<owner>` is
 * not one of svc's own top-level routes (app/: new, settings, signin, signup, inbox, api). Used by the
 * repository shortcuts (`g i`, `c` …) and the command menu, which exist on every page.
 */
const RESERVED = new Set(["new", "settings", "signin", "signup", "inbox", "api", "_next"]);

export interface RepoPath {
  owner: string;
  repo: string;
  /** "/<owner>/<repo>" with both segments as they appear in the URL (already encoded). */
  base: string;
}

/** `/<owner>/<repo>/…` → {owner, repo, base}; anything else → null. Malformed escapes are kept as written. */
export function repoFromPath(pathname: string): RepoPath | null {
  const [owner, repo] = pathname.split("/").filter(Boolean);
  if (!owner || !repo || RESERVED.has(owner.toLowerCase())) return null;
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return { owner: decode(owner), repo: decode(repo), base: `/${owner}/${repo}` };
}
