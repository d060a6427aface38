/**
 * URL rewriting for rendered Markdown (react-markdown's `urlTransform`, applied to every `href`
 * and `src` after sanitizing). Unsafe URLs (javascript:, vbscript:, data: …) become "" (react-markdown's
 * `defaultUrlTransform`). In-page links `#x` point at `#user-content-x`, the clobbered heading id
 * (GitHub does the same with script; here it works without). With a repository base, relative
 * links go to the file browser (`/<owner>/<repo>/blob|tree/<ref>/<path>`) and relative images
 * to the raw route (`/<owner>/<repo>/raw/<ref>/<path>`), both at the Markdown file's ref.
 */
import { defaultUrlTransform } from "react-markdown";
import { codeUrl, encodeSegments, repoUrl } from "@/components/code/urls";
import { CLOBBER_PREFIX } from "./schema";

/** Where a Markdown file lives: relative URLs resolve against it. */
export interface RepoBase {
  owner: string;
  repo: string;
  /** Branch, tag or sha the links point at (not named `ref`: React reserves that prop). */
  gitRef: string;
  /** Directory of the Markdown file ("" = root). */
  dir: string;
}

/** Resolves `rel` against directory `dir` (POSIX-style, no escaping above the root). */
export function resolvePath(dir: string, rel: string): string {
  const parts = rel.startsWith("/") ? [] : dir.split("/").filter(Boolean);
  for (const p of rel.split("/")) {
    if (!p || p === ".") continue;
    if (p === "..") parts.pop();
    else parts.push(p);
  }
  return parts.join("/");
}

function isRelative(url: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith("//") && !url.startsWith("#") && !url.startsWith("?");
}

/** `#x` → `#user-content-x` (unchanged when already prefixed or empty). */
export function fragmentUrl(url: string): string {
  const frag = url.slice(1);
  if (!frag || frag.startsWith(CLOBBER_PREFIX)) return url;
  return `#${CLOBBER_PREFIX}${frag}`;
}

/**
 * A react-markdown `urlTransform`. `key` is the attribute ("href", "src", …); images (`src`) go
 * to the raw route, everything else to blob/tree. Without `base` relative URLs stay as written.
 */
export function markdownUrlTransform(base?: RepoBase) {
  return (url: string, key: string): string => {
    const safe = defaultUrlTransform(url);
    if (!safe) return safe;
    if (safe.startsWith("#")) return fragmentUrl(safe);
    if (!base || !isRelative(safe)) return safe;
    const hashAt = safe.search(/[?#]/);
    const pathPart = hashAt >= 0 ? safe.slice(0, hashAt) : safe;
    const suffix = hashAt >= 0 ? safe.slice(hashAt) : "";
    let decoded = pathPart;
    try {
      decoded = decodeURIComponent(pathPart);
    } catch {
      // keep as written
    }
    const target = resolvePath(base.dir, decoded);
    if (key === "src" || key === "srcSet")
      return `${repoUrl(base.owner, base.repo)}/raw/${encodeSegments(base.gitRef)}/${encodeSegments(target)}`;
    const kind = pathPart.endsWith("/") || !target ? "tree" : "blob";
    return codeUrl(base.owner, base.repo, kind, base.gitRef, target) + suffix;
  };
}

/** Rewrites each URL of a `srcset` list ("a.png 1x, b.png 2x") with `transform`. */
export function transformSrcSet(srcSet: string, transform: (url: string, key: string) => string): string {
  return srcSet
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => {
      const [url, ...descriptor] = c.split(/\s+/);
      const out = transform(url, "srcSet");
      return out ? [out, ...descriptor].join(" ") : "";
    })
    .filter(Boolean)
    .join(", ");
}
