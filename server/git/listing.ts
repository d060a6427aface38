/**
 * Bounded listings for the code browser (issue #7): every file path at a commit (the file finder,
 * `repos.files`) and the tags (the branch switcher's Tags tab, `repos.tags`). Both read git's
 * output as a stream and stop git once a cap is reached, so a huge repository costs a bounded
 * amount of memory and time. Only commit shas resolved by the caller (never user text) and fixed
 * options reach git's argument list.
 */
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

/**
 * Every file path in the tree of commit `sha` (git-ls-tree(1) -r -z --full-tree), up to
 * `maxPaths` paths and `maxBytes` bytes of git output; git is stopped as soon as either cap is
 * reached. `sha` must be a resolved commit id (`resolveCommit`). Errors: a plain Error when git
 * fails (server fault).
 */
export async function listPaths(gitDir: string, sha: string, opts: { maxPaths?: number; maxBytes?: number } = {}): Promise<PathListing> {
  if (!/^[0-9a-f]{40,64}$/.test(sha)) throw new Error("listPaths takes a resolved commit sha");
  const maxPaths = opts.maxPaths ?? MAX_LISTED_PATHS;
  const maxBytes = opts.maxBytes ?? MAX_LISTED_BYTES;
  const out = gitOutput(["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", sha], { gitDir });
  const paths: string[] = [];
  let pending: Buffer = Buffer.alloc(0);
  let read = 0;
  let truncated = false;
  try {
    for (;;) {
      const chunk = await out.next();
      if (chunk === null) break;
      read += chunk.length;
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let start = 0;
      for (let nul = pending.indexOf(0, start); nul >= 0; nul = pending.indexOf(0, start)) {
        const record = pending.subarray(start, nul);
        start = nul + 1;
        // "<mode> SP <type> SP <object> TAB <path>"
        const tab = record.indexOf(9);
        if (tab < 0) continue;
        const type = record.subarray(record.indexOf(32) + 1, record.lastIndexOf(32, tab)).toString("latin1");
        if (type !== "blob") continue;
        if (paths.length === maxPaths) {
          truncated = true;
          break;
        }
        paths.push(record.subarray(tab + 1).toString("utf8"));
      }
      pending = pending.subarray(start);
      if (truncated) break;
      if (read > maxBytes) {
        truncated = true;
        break;
      }
    }
  } finally {
    out.stop();
  }
  return { paths, truncated };
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
