/**
 * Diffs between two commits for pull requests, the commit page and the compare page (docs/pulls.md
 * "Diff"). At most one git process per diff, `git diff --raw --patch -z` with rename and copy detection (-M
 * -C), read as a stream by `DiffParser` (server/git/diff-parse.ts) and stopped as soon as nothing
 * more would be kept, so memory and time stay bounded whatever the size of the range; a range's
 * first full run is written into the patch cache (server/git/diff-patch-cache.ts), and later reads
 * of the range parse that file instead of running git. Only resolved
 * commit ids (never user text) and fixed options reach git's argument list; path filters are
 * matched in JavaScript against git's exact (-z) paths.
 */
import { SHA_RE } from "@/lib/sha";
import { AppError } from "@/server/errors";
import { mergeBase } from "./commits";
import { borrowedObjectsEnv } from "./forks";
import { runGitToFile } from "./exec";
import { gitOutput, type GitOutput } from "./output-stream";
import { DIFF_LIMITS, DiffParser, type Diff, type DiffFile, type DiffLimits } from "./diff-parse";
import { acquireLargeDiff, isLargeDiff } from "./diff-gate";
import { cachedPatch, openPatch, patchSettled, recordPatch } from "./diff-patch-cache";

export type { Diff, DiffFile, DiffHunk, DiffLine, DiffLimits, DiffStatus } from "./diff-parse";
export { DIFF_LIMITS, DiffParser } from "./diff-parse";

/** The empty tree's id (SHA-1 and SHA-256 repositories): the "parent" of a root commit. */
const EMPTY_TREE: Record<number, string> = {
  40: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
  64: "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
};

/** The empty tree id for a repository whose commit ids look like `sha`. */
export function emptyTreeFor(sha: string): string {
  return EMPTY_TREE[sha.length] ?? EMPTY_TREE[40];
}

/** Throws unless `sha` is a full object id (only resolved ids reach git's argument list). */
export function assertSha(sha: string, what: string): void {
  if (!SHA_RE.test(sha)) throw new Error(`${what} must be a resolved object id`);
}

/**
 * The fixed options of every diff: raw records and patch in one run (counts come from the patch:
 * adding --numstat makes git diff every file twice), NUL-separated
 * records, full ids, renames (-M, 50 % similarity) and copies (-C: the source must be changed in
 * the same range, git-diff(1)), no external diff drivers or textconv, fixed prefixes, short
 * submodule lines ("Subproject commit <sha>").
 */
export const DIFF_ARGS = [
  "-c",
  "core.quotePath=false",
  "-c",
  "diff.renameLimit=3000",
  "diff",
  "--raw",
  "--patch",
  "-z",
  "--no-abbrev",
  "--find-renames",
  "--find-copies",
  "--no-ext-diff",
  "--no-textconv",
  "--no-color",
  "--no-relative",
  "--src-prefix=a/",
  "--dst-prefix=b/",
  "--submodule=short",
  "--ignore-submodules=none",
];

export interface DiffOptions {
  /** Return (and read hunks of) only the file whose new or old path is this. */
  path?: string;
  /** Return only files whose new or old path is one of these (paging through a large diff). */
  paths?: string[];
  limits?: Partial<DiffLimits>;
  /** Kill git after this many ms (default 60 000). */
  timeoutMs?: number;
  /** Object directories of other repositories git may also read (`borrowedObjectsEnv`, server/git/forks.ts); read-only. */
  borrow?: readonly string[];
}

/**
 * Runs `git <args>` and feeds its stdout to `parser` until it wants no more; git is then stopped
 * (`parseOutput`). Errors: a plain Error when git fails; TOO_MANY_REQUESTS when no slot frees in time.
 */
export function runParser(
  gitDir: string,
  args: string[],
  parser: DiffParser,
  timeoutMs?: number,
  borrow?: readonly string[],
): Promise<Diff> {
  return parseOutput(gitOutput(args, { gitDir, timeoutMs, env: borrowedObjectsEnv(borrow) }), parser);
}

/**
 * Feeds `out` (git's stdout, or a cached patch: server/git/diff-patch-cache.ts) to `parser`
 * until it wants no more, then stops `out`. A parse that grows large waits for a slot of the
 * large-diff gate (server/git/diff-gate.ts) before reading on, and holds it until one macrotask
 * after it ends (its answer serialized). Errors: as `out.next()`; TOO_MANY_REQUESTS when no slot frees in time.
 */
export async function parseOutput(out: GitOutput, parser: DiffParser): Promise<Diff> {
  let release: (() => void) | null = null;
  try {
    for (;;) {
      const chunk = await out.next();
      if (chunk === null) break;
      parser.push(chunk);
      if (!parser.wantsMore()) break;
      if (!release && isLargeDiff(parser.kept())) release = await acquireLargeDiff();
    }
  } finally {
    out.stop();
    // one macrotask later: the answer is built and serialized (synchronously, after the resolver's
    // microtasks) before a parse waiting for the slot reads on
    if (release) setImmediate(release);
  }
  return parser.finish();
}

/** A file named by a filter: its new path, or for a rename its old path too (a copy's source is a file of its own). */
function isWanted(wanted: Set<string>, f: DiffFile): boolean {
  return wanted.has(f.newPath) || (f.status === "renamed" && wanted.has(f.oldPath));
}

/**
 * Metadata (files without hunks, real totals) of ranges already diffed, by "gitDir from to": ids
 * are immutable, so entries never go stale. On globalThis: Next loads server modules in several
 * bundles (the route handlers, and instrumentation.ts, which runs the job worker), and the
 * after-push job's warm-up (`warmThreeDot`) must fill the cache the routes read.
 */
const metadataCache = ((globalThis as unknown as { __svcDiffMetadata?: Map<string, Diff> }).__svcDiffMetadata ??= new Map());
/** Ranges whose metadata is kept (each ≤ 3,000 files of metadata, well under 1 MiB). */
const METADATA_CACHE_SIZE = 32;

function remember(key: string, diff: Diff): void {
  metadataCache.delete(key);
  metadataCache.set(key, { ...diff, files: diff.files.map((f) => ({ ...f, hunks: [], truncated: false, truncatedReason: undefined })) });
  while (metadataCache.size > METADATA_CACHE_SIZE) metadataCache.delete(metadataCache.keys().next().value!);
}

/**
 * The diff from tree-ish `from` to `to` (both resolved ids: commits, or the empty tree), as
 * `git diff from to` shows it (two-dot). Files are in git's order (by path). With `path`/`paths`
 * only those files are returned (by new path; a renamed file also by its old path); totals always cover the whole range. Limits: see `DIFF_LIMITS`.
 *
 * The first run of a range has git write its whole patch into the patch cache
 * (server/git/diff-patch-cache.ts; the line counts of every file come from it) and caches the
 * range's metadata; the answer, and later unfiltered runs, are read from the cached patch with
 * those counts, stopped once the response's budget is spent (from git, stopped the same way,
 * when the patch is not cached: the cache is off, or the range too large for it).
 * A filtered request reads the range's metadata (cached per range, `rangeMetadata`), then runs
 * the patch only for the wanted files' paths (`git --literal-pathspecs diff … -- <old> <new>…`,
 * both sides so renames and copies pair up as in the whole diff): paging through a huge diff
 * costs each page its own files, not the whole range again. Errors: a plain Error when git
 * fails (unknown ids are the caller's check).
 */
export async function diffTrees(gitDir: string, from: string, to: string, opts: DiffOptions = {}): Promise<Diff> {
  assertSha(from, "from");
  assertSha(to, "to");
  return diffRange(gitDir, [from, to], opts);
}

export function rangeKey(gitDir: string, range: string[], borrow?: readonly string[]): string {
  return `${gitDir}\0${range.join("\0")}\0${(borrow ?? []).join("\0")}`;
}

/** Metadata reads under way, by range key: concurrent requests for one range share one git run. */
const metadataReads = ((globalThis as unknown as { __svcDiffMetadataReads?: Map<string, Promise<Diff>> }).__svcDiffMetadataReads ??=
  new Map());

/**
 * The metadata of `range` (resolved ids, as `diffRange`): every listed file without hunks, the
 * real totals. From the cache, else from one run shared by concurrent callers and cached
 * (`readMetadata`). With `withPatch`, cached metadata is not enough while the range's patch is
 * not in the patch cache either (evicted, or the metadata came from a first page's full read):
 * the run is made then, and fills it (unless the cache is off or the range is known too large
 * for it). Errors: a plain Error when git fails.
 */
export function rangeMetadata(
  gitDir: string,
  range: string[],
  opts: Pick<DiffOptions, "borrow" | "timeoutMs" | "limits"> = {},
  withPatch = false,
): Promise<Diff> {
  const key = rangeKey(gitDir, range, opts.borrow);
  const hit = metadataCache.get(key);
  if (hit && (!withPatch || patchSettled(key))) return Promise.resolve(hit);
  let read = metadataReads.get(key);
  if (!read) {
    read = readMetadata(gitDir, range, opts).finally(() => metadataReads.delete(key));
    metadataReads.set(key, read);
  }
  return read;
}

/**
 * The range's metadata, cached: from its cached patch when there is one; else from one run of
 * the whole patch, written by git into the patch cache and indexed there
 * (server/git/diff-patch-cache.ts: git computes every file's diff once, for the metadata and for
 * every later page); with the patch cache off, or the range too large for it, from
 * `git diff --raw --numstat -z` (every file's counts, no patch: little output).
 */
async function readMetadata(gitDir: string, range: string[], opts: Pick<DiffOptions, "borrow" | "timeoutMs" | "limits">): Promise<Diff> {
  const key = rangeKey(gitDir, range, opts.borrow);
  const env = borrowedObjectsEnv(opts.borrow);
  let meta: Diff;
  const cached = cachedPatch(key);
  const index = cached
    ? cached.index
    : patchSettled(key)
      ? null
      : await recordPatch(
          key,
          (fd) => runGitToFile([...DIFF_ARGS, ...range], fd, { gitDir, timeoutMs: opts.timeoutMs, env }),
          opts.limits?.maxFiles ?? DIFF_LIMITS.maxFiles,
        );
  if (index) meta = index.meta;
  else {
    const metaArgs = DIFF_ARGS.map((a) => (a === "--patch" ? "--numstat" : a));
    meta = await runParser(
      gitDir,
      [...metaArgs, ...range],
      new DiffParser({ limits: opts.limits, metadataOnly: true }),
      opts.timeoutMs,
      opts.borrow,
    );
  }
  remember(key, meta);
  return meta;
}

/**
 * `git diff <range…>` (`[from, to]` or `["<base>...<head>"]`, resolved ids only) read into a
 * `Diff`, with the metadata cache and path filtering described at `diffTrees`.
 */
async function diffRange(gitDir: string, range: string[], opts: DiffOptions): Promise<Diff> {
  const key = rangeKey(gitDir, range, opts.borrow);
  const wanted =
    opts.paths || opts.path !== undefined ? new Set([...(opts.paths ?? []), ...(opts.path !== undefined ? [opts.path] : [])]) : null;
  let meta: Diff | undefined = metadataCache.get(key);
  if (!wanted) {
    // the first read of a range: one run of the whole patch, written into the patch cache, gives every file's counts;
    // the answer is then read from the cache
    if (!meta && !patchSettled(key)) meta = await rangeMetadata(gitDir, range, opts, true);
    if (meta) {
      // counts known: git is stopped once the budget is spent instead of printing the rest for its line counts;
      // a cached patch is read instead of running git
      const parser = new DiffParser({ limits: opts.limits, counts: meta });
      const entry = cachedPatch(key);
      const cached = entry && (await openPatch(entry, 0, entry.index.size));
      const diff = await (
        cached ? parseOutput(cached, parser) : runParser(gitDir, [...DIFF_ARGS, ...range], parser, opts.timeoutMs, opts.borrow)
      ).catch((e: Error) => {
        if (/counts given are of another range/.test(e.message)) return null; // never expected: then count from the patch
        throw e;
      });
      if (diff) return diff;
    }
    const diff = await runParser(gitDir, [...DIFF_ARGS, ...range], new DiffParser({ limits: opts.limits }), opts.timeoutMs, opts.borrow);
    remember(key, diff);
    return diff;
  }
  if (!meta) meta = await rangeMetadata(gitDir, range, opts);
  const picked = meta.files.filter((f) => isWanted(wanted, f));
  const same = (a: DiffFile, b: DiffFile) => a.oldPath === b.oldPath && a.newPath === b.newPath;
  let files: DiffFile[] = [];
  if (picked.length > 0) {
    const pathspecs = [...new Set(picked.flatMap((f) => [f.oldPath, f.newPath]))];
    const args = ["--literal-pathspecs", ...DIFF_ARGS, ...range, "--", ...pathspecs];
    const pairs = new Set(picked.map((f) => `${f.oldPath}\0${f.newPath}`));
    const part = await runParser(
      gitDir,
      args,
      new DiffParser({ limits: opts.limits, include: (f) => pairs.has(`${f.oldPath}\0${f.newPath}`) }),
      opts.timeoutMs,
      opts.borrow,
    );
    // the metadata run is the reference: a file the restricted run paired differently keeps its metadata, without hunks
    files = picked.map((p) => {
      const f = part.files.find((x) => same(x, p) && x.status === p.status);
      return (
        f ?? {
          ...p,
          hunks: [],
          truncated: !p.isBinary && p.additions + p.deletions > 0,
          truncatedReason: p.isBinary || p.additions + p.deletions === 0 ? undefined : ("total" as const),
        }
      );
    });
  }
  return {
    files,
    totalAdditions: meta.totalAdditions,
    totalDeletions: meta.totalDeletions,
    totalFiles: meta.totalFiles,
    truncated: files.some((f) => f.truncated) || meta.truncated,
  };
}

/**
 * Three-dot diff (`git diff base...head`): changes on `head` since its merge base with `base`,
 * as GitHub's compare and pull request "Files changed" show. The diff runs as `git diff
 * base...head` (git takes the same first merge base as `mergeBase`) side by side with the
 * (cached) merge-base lookup, so neither waits for the other. Errors: BAD_REQUEST when the two
 * commits share no history; a plain Error when git fails (e.g. an unknown id).
 */
export async function diffThreeDot(
  gitDir: string,
  base: string,
  head: string,
  opts: DiffOptions = {},
): Promise<Diff & { mergeBaseSha: string }> {
  assertSha(base, "base");
  assertSha(head, "head");
  const diff = diffRange(gitDir, [`${base}...${head}`], opts);
  diff.catch(() => {}); // awaited below unless the merge base fails first
  const mb = await mergeBase(gitDir, base, head, opts.borrow);
  if (!mb) throw new AppError("BAD_REQUEST", "the two commits have entirely different histories: nothing to compare");
  return { ...(await diff), mergeBaseSha: mb };
}

/** Whether the metadata of `base...head` (resolved ids) is cached in this process, i.e. its next unfiltered `diffThreeDot` stops git at the line budget. */
export function threeDotCached(gitDir: string, base: string, head: string, borrow?: readonly string[]): boolean {
  return metadataCache.has(rangeKey(gitDir, [`${base}...${head}`], borrow));
}

/**
 * Prepares `diffThreeDot(gitDir, base, head)` ahead of its first request (the after-push job,
 * docs/pulls.md "Git processes and caches"): caches the merge base and the range's metadata
 * from one `git diff --raw --numstat -z base...head` (git computes every file's diff once, as
 * the first view would; node reads only the per-file records, no patch), so the first unfiltered
 * request takes its counts from the cache and stops git once its line budget is spent, and
 * `paths` pages skip their metadata run. Nothing is done when the range's metadata is already
 * cached. Returns whether git ran. The answers are exactly those of an unwarmed run (the counts
 * path is tested equal to a full read). Errors: as `diffThreeDot` (BAD_REQUEST for unrelated
 * histories, a plain Error when git fails or passes `timeoutMs`).
 */
export async function warmThreeDot(
  gitDir: string,
  base: string,
  head: string,
  opts: Pick<DiffOptions, "borrow" | "timeoutMs"> = {},
): Promise<boolean> {
  assertSha(base, "base");
  assertSha(head, "head");
  const range = [`${base}...${head}`];
  if (threeDotCached(gitDir, base, head, opts.borrow) && patchSettled(rangeKey(gitDir, range, opts.borrow))) return false;
  const meta = rangeMetadata(gitDir, range, opts, true);
  meta.catch(() => {}); // awaited below unless the merge base fails first
  const mb = await mergeBase(gitDir, base, head, opts.borrow);
  if (!mb) throw new AppError("BAD_REQUEST", "the two commits have entirely different histories: nothing to compare");
  await meta;
  return true;
}

/**
 * A commit's own changes: the diff from its first parent (first-parent view of merges, as
 * GitHub's commit page), or from the empty tree for a root commit.
 */
export async function diffCommit(gitDir: string, sha: string, parents: string[], opts: DiffOptions = {}): Promise<Diff> {
  return diffTrees(gitDir, parents[0] ?? emptyTreeFor(sha), sha, opts);
}
