/**
 * Which files the semantic index reads (docs/ai.md "Index"), and reading
 * them from git in bulk. Skipped: files over MAX_INDEX_FILE_BYTES, vendored and generated paths
 * (node_modules, vendor, dist, build, lock files, *.min.js, source maps, snapshots), binary
 * files (a NUL in the first 8000 bytes, as git decides) and minified text (very long lines).
 */
import { walkTree } from "@/server/git/listing";
import { readBlobs } from "@/server/git/objects";
import { looksBinary } from "@/server/git/repository";

/** Largest file indexed, in bytes (256 KiB): bigger sources are almost always generated. */
export const MAX_INDEX_FILE_BYTES = 256 * 1024;
/** Most files one index holds (the rest are left out, largest paths last in git's order). */
export const MAX_INDEX_FILES = 50_000;

const SKIP_DIRS =
  /(^|\/)(node_modules|vendor|vendors|third_party|bower_components|dist|build|out|target|coverage|\.next|\.git|__snapshots__|__pycache__|\.venv|venv|generated)\//;
const SKIP_FILES =
  /(\.min\.(js|css)|\.map|\.lock|-lock\.json|\.snap|\.svg|\.png|\.jpe?g|\.gif|\.ico|\.webp|\.pdf|\.zip|\.gz|\.tgz|\.woff2?|\.ttf|\.eot|\.mp[34]|\.wasm|\.bin|\.exe|\.so|\.dylib|\.dll|\.jar|\.class|\.pyc)$/i;
const LOCK_NAMES = new Set([
  "package-lock.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "Cargo.lock",
  "Gemfile.lock",
  "poetry.lock",
  "composer.lock",
  "go.sum",
]);

/** True when `path` is vendored, generated or a non-text format by its name. */
export function skippedPath(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return SKIP_DIRS.test(path) || SKIP_FILES.test(base) || LOCK_NAMES.has(base);
}

/** True when the text looks minified or generated: a line over 1000 characters and an average over 200. */
export function looksMinified(text: string): boolean {
  const lines = text.split("\n");
  let longest = 0;
  for (const l of lines) if (l.length > longest) longest = l.length;
  return longest > 1000 && text.length / lines.length > 200;
}

export interface TreeFile {
  path: string;
  oid: string;
  size: number;
}

/** Bytes of `git ls-tree` output read at most while collecting the files (256 MiB; the rest of a larger tree is left out). */
const MAX_LISTING_BYTES = 256 * 1024 * 1024;

/**
 * The regular files (not symlinks or submodules) of commit `commit` that the index reads: not
 * skipped by path, at most MAX_INDEX_FILE_BYTES (`walkTree` with sizes), at most MAX_INDEX_FILES.
 * Errors: a plain Error when `commit` is not a full commit id or git fails.
 */
export async function indexableFiles(gitDir: string, commit: string): Promise<TreeFile[]> {
  const out: TreeFile[] = [];
  await walkTree(gitDir, commit, { sizes: true, maxBytes: MAX_LISTING_BYTES }, (e) => {
    if (e.type !== "blob" || (e.mode !== "100644" && e.mode !== "100755")) return;
    if (e.size === null || e.size > MAX_INDEX_FILE_BYTES || skippedPath(e.path)) return;
    out.push({ path: e.path, oid: e.id, size: e.size });
    if (out.length >= MAX_INDEX_FILES) return false;
  });
  return out;
}

/**
 * The text of blobs `files` (`readBlobs`: sizes first, then `git cat-file --batch` in bounded
 * runs), null for binary or minified ones; absent for objects the repository lacks.
 */
export async function readTexts(gitDir: string, files: Array<{ oid: string }>): Promise<Map<string, string | null>> {
  const texts = new Map<string, string | null>();
  await readBlobs(
    gitDir,
    files.map((f) => f.oid),
    (oid, body) => {
      const text = looksBinary(body) ? null : body.toString("utf8");
      texts.set(oid, text === null || looksMinified(text) ? null : text);
    },
  );
  return texts;
}
