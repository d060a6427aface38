/**
 * A large diff in two parts (docs/pulls.md "Diff", "File list and hunk pages"): the file list
 * once (`diffFiles*`: every file's metadata, no hunks, from the range's cached
 * `--raw --numstat` metadata), and pages of hunks (`diffPage*`: only their files' hunks, from a
 * cursor, cut at a line/byte budget between hunks). A page's git run covers its own files: the
 * first page (cursor at file 0) is the unfiltered diff stopped at the budget; a later page runs
 * `git --literal-pathspecs diff … -- <its files' paths>` chosen from the file list, so reading a
 * whole diff page by page costs git about one diff of the range, not one per page.
 */
import { AppError } from "@/server/errors";
import { mergeBase } from "./commits";
import { DIFF_ARGS, assertSha, emptyTreeFor, parseOutput, rangeKey, rangeMetadata, runParser, type DiffOptions } from "./diff";
import { cachedPatch, followPatch, openPatch, type PatchEntry } from "./diff-patch-cache";
import { borrowedObjectsEnv } from "./forks";
import { gitOutput, type GitOutput } from "./output-stream";
import { DIFF_LIMITS, DiffParser, type DiffFile } from "./diff-parse";
import type { DiffFileList, DiffPage, DiffPageFile, DiffPageHunk } from "./diff-types";

export type { DiffFileList, DiffFileMeta, DiffPage, DiffPageFile, DiffPageHunk } from "./diff-types";

/** Most files one page covers (its git run names each one's paths). */
export const PAGE_MAX_FILES = 500;
/** Most bytes of paths one page's git run names (argument lists are limited: 2 MiB on Linux with the environment). */
const PAGE_PATHSPEC_BYTES = 256 * 1024;

/** Where a page starts: a file of the file list (its index) and a hunk of that file. */
export interface PageCursor {
  file: number;
  hunk: number;
}

const CURSOR_RE = /^(\d{1,6})(?::(\d{1,7}))?$/;

/** The cursor's text: "<file>" or "<file>:<hunk>" (hunk > 0). */
export function formatCursor(c: PageCursor): string {
  return c.hunk > 0 ? `${c.file}:${c.hunk}` : String(c.file);
}

/** The cursor `text` names, or null when it is not "<file>" / "<file>:<hunk>" (decimal). */
export function parseCursor(text: string): PageCursor | null {
  const m = CURSOR_RE.exec(text);
  return m ? { file: Number(m[1]), hunk: m[2] === undefined ? 0 : Number(m[2]) } : null;
}

export interface DiffPageOptions extends Pick<DiffOptions, "timeoutMs" | "borrow" | "limits"> {
  /** Where the page starts (default: the first hunk of the first file). */
  cursor?: PageCursor;
  /** Most files the page covers (1–PAGE_MAX_FILES, default PAGE_MAX_FILES). */
  limit?: number;
}

/** What the page's files are of the file list (blob ids, counts, binary/submodule flags), kept off the wire: `pageFileSides`. */
const sidesOf = new WeakMap<DiffPageFile, DiffFile>();

/**
 * The file-list record a page file was built from (its blob ids `oldSha`/`newSha`, counts and
 * flags; its hunks are not the page's), or undefined for a file the page did not build. Used by
 * steps that rework a page's files by their blobs (server/services/lfs/lfs-diff.ts).
 */
export function pageFileSides(
  f: DiffPageFile,
): Pick<DiffFile, "oldSha" | "newSha" | "isBinary" | "isSubmodule" | "additions" | "deletions"> | undefined {
  return sidesOf.get(f);
}

const same = (a: DiffFile, b: DiffFile) => a.oldPath === b.oldPath && a.newPath === b.newPath && a.status === b.status;

/** A parsed file as a page entry: its index in the file list, and where its hunks start and whether they go on. */
function pageFile(f: DiffFile, index: number, fromHunk: number, stop: PageCursor | null): DiffPageFile {
  const out: DiffPageFile = {
    index,
    oldPath: f.oldPath,
    newPath: f.newPath,
    hunks: f.hunks as unknown as DiffPageHunk[], // page mode keeps lines as git's text (DiffParser `page`)
    truncated: f.truncated,
  };
  if (f.truncatedReason === "file") out.truncatedReason = "file";
  if (fromHunk > 0) out.fromHunk = fromHunk;
  if (stop?.file === index) out.continues = true;
  sidesOf.set(out, f);
  return out;
}

/**
 * A page of `git diff <range…>` (resolved ids; `[from, to]` or `["<base>...<head>"]`) from
 * `opts.cursor`: the files it covers in file-list order, each with only its hunks (lines as git
 * prints them), and `nextCursor` (null after the last file). The budget is `opts.limits`'
 * response totals (lines, bytes; DIFF_LIMITS by default); per-file and per-line limits as in
 * the whole diff. A page always holds at least one hunk when any is left, so it always moves on.
 * Errors: a plain Error when git fails.
 */
export async function diffPageRange(gitDir: string, range: string[], opts: DiffPageOptions = {}): Promise<DiffPage> {
  const at = opts.cursor ?? { file: 0, hunk: 0 };
  const limit = Math.min(Math.max(1, opts.limit ?? PAGE_MAX_FILES), PAGE_MAX_FILES);
  const key = rangeKey(gitDir, range, opts.borrow);
  let entry = cachedPatch(key);
  // a later page needs the metadata: its run (when not cached) is the one that fills the patch cache
  if (!entry && at.file > 0) entry = (await rangeMetadata(gitDir, range, opts, true), cachedPatch(key));
  const fromCache = entry && (await pageFromPatch(entry, at, limit, opts));
  if (fromCache) return fromCache;
  if (at.file === 0) {
    // the first page: the unfiltered diff, stopped at the budget (no file list needed). While the
    // range's run of the whole patch is under way (the file list asked at the same time), the page
    // is read from that run's file as git writes it; else git runs, stopped at the budget.
    const follow = followPatch(key);
    const followed =
      follow &&
      (await firstPage(follow, at, limit, opts).catch((e) => {
        if (e instanceof AppError) throw e;
        return null; // the run stopped: git on its own below
      }));
    if (followed) return followed;
    const out = gitOutput([...DIFF_ARGS, ...range], { gitDir, timeoutMs: opts.timeoutMs, env: borrowedObjectsEnv(opts.borrow) });
    return firstPage(out, at, limit, opts);
  }
  const meta = await rangeMetadata(gitDir, range, opts);
  if (at.file >= meta.files.length) return { files: [], nextCursor: null };
  // the page's files: from the cursor, while their changed lines fit the budget (context lines come on top;
  // the parse cuts at the real budget), the one that crosses it included so a boundary can fall inside it
  const budget = opts.limits?.maxTotalLines ?? DIFF_LIMITS.maxTotalLines;
  const picked: { f: DiffFile; index: number }[] = [];
  let lines = 0;
  let bytes = 0;
  for (let i = at.file; i < meta.files.length && picked.length < limit; i++) {
    const f = meta.files[i];
    bytes += Buffer.byteLength(f.oldPath) + (f.oldPath === f.newPath ? 0 : Buffer.byteLength(f.newPath));
    if (picked.length > 0 && (lines >= budget || bytes > PAGE_PATHSPEC_BYTES)) break;
    picked.push({ f, index: i });
    lines += f.additions + f.deletions;
  }
  const pathspecs = [...new Set(picked.flatMap(({ f }) => [f.oldPath, f.newPath]))];
  const wanted = new Set(picked.map(({ f }) => `${f.oldPath}\0${f.newPath}`));
  const parser = new DiffParser({ limits: opts.limits, include: (f) => wanted.has(`${f.oldPath}\0${f.newPath}`), page: { hunk: at.hunk } });
  const part = await runParser(
    gitDir,
    ["--literal-pathspecs", ...DIFF_ARGS, ...range, "--", ...pathspecs],
    parser,
    opts.timeoutMs,
    opts.borrow,
  );
  // the restricted run's files by the file list's index (the metadata run is the reference)
  const indexOf = (f: DiffFile): number => picked.find((p) => same(p.f, f))?.index ?? -1;
  const stopAt = parser.pageStop();
  const stop = stopAt && indexOf(stopAt.file) >= 0 ? { file: indexOf(stopAt.file), hunk: stopAt.hunk } : null;
  const files: DiffPageFile[] = [];
  for (const { f, index } of picked) {
    if (stop && index > stop.file) break;
    const got = part.files.find((x) => same(x, f));
    const entry = got
      ? pageFile(got, index, index === at.file ? at.hunk : 0, stop)
      : // paired differently by the restricted run: listed without hunks, marked cut
        { index, oldPath: f.oldPath, newPath: f.newPath, hunks: [], truncated: f.additions + f.deletions > 0 };
    if (stop && index === stop.file && entry.hunks.length === 0) break;
    files.push(entry);
  }
  const last = picked[picked.length - 1].index;
  const next = stop ?? (last + 1 < meta.files.length ? { file: last + 1, hunk: 0 } : null);
  return { files, nextCursor: next ? formatCursor(next) : null };
}

/** The first page (`at.file` 0) parsed from the whole output `out`: every file's record, then hunks up to the budget. */
async function firstPage(out: GitOutput, at: PageCursor, limit: number, opts: DiffPageOptions): Promise<DiffPage> {
  const parser = new DiffParser({ limits: opts.limits, include: (_, i) => i < limit, page: { hunk: at.hunk } });
  const diff = await parseOutput(out, parser);
  const listed = Math.min(diff.totalFiles, opts.limits?.maxFiles ?? DIFF_LIMITS.maxFiles);
  const stopAt = parser.pageStop();
  const stop = stopAt ? { file: stopAt.index, hunk: stopAt.hunk } : null;
  const files = diff.files
    .map((f, i) => pageFile(f, i, i === 0 ? at.hunk : 0, stop))
    .filter((f) => !stop || f.index < stop.file || (f.index === stop.file && f.hunks.length > 0));
  const next = stop ?? (Math.min(limit, listed) < listed ? { file: limit, hunk: 0 } : null);
  return { files, nextCursor: next ? formatCursor(next) : null };
}

/**
 * A page read from the range's cached patch (server/git/diff-patch-cache.ts): the bytes of files
 * [cursor, cursor + limit) parsed as the first page parses git's output (cut at the budget
 * between hunks), so a page costs no git process. Null when the cached file is gone.
 */
async function pageFromPatch(entry: PatchEntry, at: PageCursor, limit: number, opts: DiffPageOptions): Promise<DiffPage | null> {
  const { meta, offsets, size } = entry.index;
  const listed = meta.files.length;
  if (at.file >= listed) return { files: [], nextCursor: null };
  const last = Math.min(at.file + limit, listed);
  const files: DiffFile[] = [];
  for (let i = at.file; i < last; i++) files[i] = { ...meta.files[i], hunks: [], truncated: false };
  const out = await openPatch(entry, offsets[at.file] ?? size, offsets[last] ?? size);
  if (!out) return null;
  const parser = new DiffParser({ limits: opts.limits, page: { hunk: at.hunk }, from: { files, index: at.file } });
  const diff = await parseOutput(out, parser);
  const stopAt = parser.pageStop();
  const stop = stopAt ? { file: stopAt.index, hunk: stopAt.hunk } : null;
  const page = diff.files
    .map((f, k) => pageFile(f, at.file + k, k === 0 ? at.hunk : 0, stop))
    .filter((f) => !stop || f.index < stop.file || (f.index === stop.file && f.hunks.length > 0));
  const next = stop ?? (last < listed ? { file: last, hunk: 0 } : null);
  return { files: page, nextCursor: next ? formatCursor(next) : null };
}

/**
 * The file list of `git diff <range…>`: every listed file's metadata without hunks (at most
 * DIFF_LIMITS.maxFiles, `truncated` when more changed), the totals. From the range's cached
 * metadata (one `--raw --numstat` run, shared by concurrent callers). Errors: a plain Error when git fails.
 */
export async function diffFilesRange(
  gitDir: string,
  range: string[],
  opts: Pick<DiffOptions, "timeoutMs" | "borrow"> = {},
): Promise<DiffFileList> {
  const meta = await rangeMetadata(gitDir, range, opts);
  return {
    files: meta.files.map(({ hunks, truncated, truncatedReason, ...f }) => (void hunks, void truncated, void truncatedReason, f)),
    totalAdditions: meta.totalAdditions,
    totalDeletions: meta.totalDeletions,
    totalFiles: meta.totalFiles,
    truncated: meta.totalFiles > meta.files.length,
  };
}

/** `base...head` (resolved ids) with its merge base; BAD_REQUEST when the histories are unrelated. */
async function threeDot<T>(
  gitDir: string,
  base: string,
  head: string,
  borrow: readonly string[] | undefined,
  work: (range: string[]) => Promise<T>,
) {
  assertSha(base, "base");
  assertSha(head, "head");
  const result = work([`${base}...${head}`]);
  result.catch(() => {}); // awaited below unless the merge base fails first
  const mb = await mergeBase(gitDir, base, head, borrow);
  if (!mb) throw new AppError("BAD_REQUEST", "the two commits have entirely different histories: nothing to compare");
  return { ...(await result), mergeBaseSha: mb };
}

/** A page of the three-dot diff `base...head` (as `diffThreeDot`), plus `mergeBaseSha`. Errors: as `diffThreeDot`. */
export function diffPageThreeDot(
  gitDir: string,
  base: string,
  head: string,
  opts: DiffPageOptions = {},
): Promise<DiffPage & { mergeBaseSha: string }> {
  return threeDot(gitDir, base, head, opts.borrow, (range) => diffPageRange(gitDir, range, opts));
}

/** The file list of the three-dot diff `base...head`, plus `mergeBaseSha`. Errors: as `diffThreeDot`. */
export function diffFilesThreeDot(
  gitDir: string,
  base: string,
  head: string,
  opts: Pick<DiffOptions, "timeoutMs" | "borrow"> = {},
): Promise<DiffFileList & { mergeBaseSha: string }> {
  return threeDot(gitDir, base, head, opts.borrow, (range) => diffFilesRange(gitDir, range, opts));
}

/** A page of a commit's own changes (its first parent, or the empty tree for a root commit → the commit), as `diffCommit`. */
export function diffPageCommit(gitDir: string, sha: string, parents: string[], opts: DiffPageOptions = {}): Promise<DiffPage> {
  const from = parents[0] ?? emptyTreeFor(sha);
  assertSha(from, "from");
  assertSha(sha, "to");
  return diffPageRange(gitDir, [from, sha], opts);
}
