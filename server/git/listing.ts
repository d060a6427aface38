/**
 * Bounded listings for the code browser (docs/ui.md "Code view"): every file path at a commit (the
 * file finder, `repos.files`) and the tags (the branch switcher's Tags tab, `repos.tags`). Both
 * read git's output as a stream and stop git once a cap is reached, so a huge repository costs a
 * bounded amount of memory and time. Only commit shas resolved by the caller (never user text) and
 * fixed options reach git's argument list.
 */
import { isSha } from "@/lib/sha";
import { gitText } from "./exec";
import { gitOutput } from "./output-stream";

/** Most paths `listPaths` returns (GitHub's file finder stops near here too). */
export const MAX_LISTED_PATHS = 50_000;
/** Most bytes of `git ls-tree` output `listPaths` reads (8 MiB: ~50,000 paths of 100 characters plus modes and shas). */
export const MAX_LISTED_BYTES = 8 * 1024 * 1024;

export interface PathListing {
  /** File paths (blobs and symlinks; submodules left out), in git's tree order (byte order of full paths). */
  paths: string[];
  /** True when the repository has more files than returned (a cap was reached). */
  truncated: boolean;
}

/** One entry of a recursive tree listing: "<mode> SP <type> SP <object> [SP <size>] TAB <path>" (git-ls-tree(1)). */
export interface TreeRecord {
  /** Octal mode: "100644", "100755", "120000" (symlink), "160000" (submodule). */
  mode: string;
  /** "blob" (files and symlinks) or "commit" (submodules); -r lists no trees. */
  type: string;
  id: string;
  /** Bytes (with `sizes`), else null; null for a submodule too. */
  size: number | null;
  path: string;
}

/**
 * Every entry of the tree of commit `sha`, recursively, in git's tree order (git-ls-tree(1) -r
 * -z --full-tree, with `sizes` -l), handed to `onEntry` as git's output streams in; returning
 * false stops the walk, and so does passing `maxBytes` of output (read in whole chunks; the
 * entries of the last chunk are still handed over). Returns whether the walk stopped early (by
 * `onEntry` or `maxBytes`); git is stopped then. `sha` must be a resolved commit id
 * (`resolveCommit`). Errors: a plain Error when git fails (server fault).
 */
export async function walkTree(
  gitDir: string,
  sha: string,
  opts: { sizes?: boolean; maxBytes?: number },
  onEntry: (entry: TreeRecord) => boolean | void,
): Promise<{ stopped: boolean }> {
  if (!isSha(sha)) throw new Error("walkTree takes a resolved commit id");
  const out = gitOutput(["ls-tree", "-r", "-z", "--full-tree", ...(opts.sizes ? ["-l"] : []), "--end-of-options", sha], { gitDir });
  let pending: Buffer = Buffer.alloc(0);
  let read = 0;
  try {
    for (;;) {
      const chunk = await out.next();
      if (chunk === null) return { stopped: false };
      read += chunk.length;
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let start = 0;
      for (let nul = pending.indexOf(0, start); nul >= 0; nul = pending.indexOf(0, start)) {
        const record = pending.subarray(start, nul);
        start = nul + 1;
        const tab = record.indexOf(9);
        if (tab < 0) continue;
        const [mode, type, id, size] = record.subarray(0, tab).toString("latin1").split(/ +/);
        const entry = {
          mode,
          type,
          id,
          size: size === undefined || size === "-" ? null : Number(size),
          path: record.subarray(tab + 1).toString("utf8"),
        };
        if (onEntry(entry) === false) return { stopped: true };
      }
      pending = pending.subarray(start);
      if (opts.maxBytes !== undefined && read > opts.maxBytes) return { stopped: true };
    }
  } finally {
    out.stop();
  }
}

/**
 * Every file path in the tree of commit `sha` (`walkTree`: blobs, i.e. files and symlinks;
 * submodules left out), up to `maxPaths` paths and `maxBytes` bytes of git output; git is stopped
 * as soon as either cap is reached. `sha` must be a resolved commit id (`resolveCommit`).
 * Errors: a plain Error when git fails (server fault).
 */
export async function listPaths(gitDir: string, sha: string, opts: { maxPaths?: number; maxBytes?: number } = {}): Promise<PathListing> {
  const maxPaths = opts.maxPaths ?? MAX_LISTED_PATHS;
  const paths: string[] = [];
  const { stopped } = await walkTree(gitDir, sha, { maxBytes: opts.maxBytes ?? MAX_LISTED_BYTES }, (e) => {
    if (e.type !== "blob") return;
    if (paths.length === maxPaths) return false;
    paths.push(e.path);
  });
  return { paths, truncated: stopped };
}

export interface Tag {
  name: string;
  /** The commit the tag points at (peeled through annotated tags). */
  sha: string;
  /** ISO date: the tagger date of an annotated tag, else the commit's committer date; null when git has none. */
  date: string | null;
}

/**
 * Tags, newest first (by creator date, then name), at most `limit` (git-for-each-ref(1)
 * `--count`; the last `--sort` is the primary key), plus whether there are more. Tags of non-commit objects (a tagged tree or blob)
 * are left out: they cannot be browsed. Errors: a plain Error when git fails.
 */
export async function listTags(gitDir: string, limit: number): Promise<{ tags: Tag[]; truncated: boolean }> {
  const count = Math.max(1, Math.floor(limit)) + 1;
  const format = "%(refname:strip=2)%00%(objecttype)%00%(objectname)%00%(*objecttype)%00%(*objectname)%00%(creatordate:iso-strict)";
  const out = await gitText(
    ["for-each-ref", `--count=${count}`, "--sort=refname", "--sort=-creatordate", `--format=${format}`, "refs/tags/"],
    { gitDir },
  );
  const tags: Tag[] = [];
  const lines = out.split("\n").filter(Boolean);
  for (const record of lines.slice(0, count - 1)) {
    const [name, type, sha, peeledType, peeledSha, date] = record.split("\0");
    const commit = type === "commit" ? sha : peeledType === "commit" ? peeledSha : null;
    if (!commit) continue;
    const when = date ? new Date(date) : null;
    tags.push({ name, sha: commit, date: when && !Number.isNaN(when.getTime()) ? when.toISOString() : null });
  }
  return { tags, truncated: lines.length === count };
}
