/**
 * Which files the semantic index reads (docs/ai.md "Index"), and reading
 * them from git in bulk. Skipped: files over MAX_INDEX_FILE_BYTES, vendored and generated paths
 * (node_modules, vendor, dist, build, lock files, *.min.js, source maps, snapshots), binary
 * files (a NUL in the first 8000 bytes, as git decides) and minified text (very long lines).
 */
import { runGit } from "@/server/git/exec";
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

/**
 * The regular files (not symlinks or submodules) of commit `commit` that the index reads: not
 * skipped by path, at most MAX_INDEX_FILE_BYTES (`git ls-tree -r -l -z`), at most MAX_INDEX_FILES.
 */
export async function indexableFiles(gitDir: string, commit: string): Promise<TreeFile[]> {
  if (!/^[0-9a-f]{40,64}$/.test(commit)) throw new Error(`not a commit id: ${commit}`);
  const r = await runGit(["ls-tree", "-r", "-l", "-z", "--full-tree", commit], { gitDir, maxBytes: 256 * 1024 * 1024 });
  if (r.code !== 0) throw new Error(`git ls-tree failed (${r.code}): ${r.stderr.trim()}`);
  const out: TreeFile[] = [];
  for (const rec of r.stdout.toString("utf8").split("\0")) {
    if (!rec) continue;
    const tab = rec.indexOf("\t");
    const [mode, type, oid, size] = rec.slice(0, tab).split(/\s+/);
    const path = rec.slice(tab + 1);
    if (type !== "blob" || (mode !== "100644" && mode !== "100755")) continue;
    if (Number(size) > MAX_INDEX_FILE_BYTES || skippedPath(path)) continue;
    out.push({ path, oid: oid!, size: Number(size) });
    if (out.length >= MAX_INDEX_FILES) break;
  }
  return out;
}

/**
 * The text of blobs `oids` (`git cat-file --batch`), null for binary or minified ones. Read in
 * batches of at most ~8 MiB of output per git process.
 */
export async function readTexts(gitDir: string, files: Array<{ oid: string; size: number }>): Promise<Map<string, string | null>> {
  const texts = new Map<string, string | null>();
  let batch: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (!batch.length) return;
    const r = await runGit(["cat-file", "--batch"], { gitDir, input: batch.join("\n") + "\n", maxBytes: 64 * 1024 * 1024 });
    if (r.code !== 0) throw new Error(`git cat-file --batch failed (${r.code}): ${r.stderr.trim()}`);
    const buf = r.stdout;
    let at = 0;
    while (at < buf.length) {
      const nl = buf.indexOf(10, at);
      if (nl < 0) break;
      const [oid, type, size] = buf.subarray(at, nl).toString().split(" ");
      if (type === "missing" || size === undefined) {
        at = nl + 1;
        continue;
      }
      const n = Number(size);
      const body = buf.subarray(nl + 1, nl + 1 + n);
      at = nl + 1 + n + 1;
      if (type !== "blob") continue;
      const text = looksBinary(body) ? null : body.toString("utf8");
      texts.set(oid!, text === null || looksMinified(text) ? null : text);
    }
    batch = [];
    bytes = 0;
  };
  for (const f of files) {
    batch.push(f.oid);
    bytes += f.size;
    if (bytes > 8 * 1024 * 1024 || batch.length >= 2000) await flush();
  }
  await flush();
  return texts;
}
