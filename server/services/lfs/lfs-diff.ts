/**
 * Git LFS files on every diff surface (docs/lfs.md "In the browser"): a changed pointer file is
 * shown as the LFS file. One step, `lfsFileViews`, decides it for a list of files (their blob ids
 * and git's counts); the adapters below apply it to the three diff shapes: a whole diff (`Diff`:
 * pulls.getDiff, repos.commit, repos.compare), a file list (`DiffFileList`: pulls.getDiffFiles) and
 * a page of hunks (`DiffPage`: pulls.getDiffPage, repos.commitDiffPage, repos.compareDiffPage).
 *
 * - candidates are text files whose hunks, when at hand, hold a pointer line, else whose git counts
 *   fit a pointer (≤ POINTER_MAX_LINES lines added and deleted, at least one): no
 *   git process when there are none; their blobs' sizes come from one `cat-file --batch-check`,
 *   the blobs under LFS_POINTER_MAX_BYTES from one `--batch`, and what a blob id is (a pointer or
 *   not) is cached, so a page or diff after the file list of the same range runs no git for it;
 * - a file whose present sides all parse as pointers gets `lfs` {old, new} (oid, size, stored);
 *   which objects are stored comes from one LfsRepoObject query for all oids and a `stat` per oid;
 * - when every present side is stored, text (no NUL in its first 8000 bytes) and at most the
 *   per-file diff limit (DIFF_LIMITS.maxFileBytes), its hunks and counts become `git diff
 *   --no-index` of the content files (`lfs.content` true); when a side is not stored the pointer
 *   diff stays; otherwise (binary, larger) hunks are dropped and counts are 0: the viewer shows
 *   "Stored with Git LFS: <old size> → <new size>" (images too: svc has no image diff view).
 *
 * Bounded: at most MAX_LFS_FILES pointer files per answer (the rest stay pointer diffs), each
 * content diff reads two files of ≤ 1 MiB and keeps ≤ DIFF_LIMITS.maxFileLines lines; content
 * diffs run at most CONTENT_DIFF_CONCURRENCY at a time, and their counts are cached by oid pair
 * (objects are content-addressed), so a file list after a diff of the same range runs no git.
 */
import os from "node:os";
import { stat } from "node:fs/promises";
import type { Db } from "@/server/db";
import { LFS_POINTER_MAX_BYTES, parseLfsPointer, type LfsPointer } from "@/lib/lfs-pointer";
import { runGit } from "@/server/git/exec";
import { borrowedObjectsEnv } from "@/server/git/forks";
import { objectInfo, readBlobs } from "@/server/git/objects";
import { BINARY_SNIFF_BYTES, looksBinary } from "@/server/git/repository";
import { DIFF_LIMITS, type DiffFile, type DiffHunk } from "@/server/git/diff-types";
import { lfsObjectPath } from "./object-path";
import { readLfsHead, type LfsBlob } from "./resolve-lfs-blob";
import { countLines, parseHunks } from "./lfs-hunks";

export { parseHunks } from "./lfs-hunks";

/** Pointer files of one answer shown as their objects. */
export const MAX_LFS_FILES = 100;
/** Most lines git may count added (or deleted) in a file that can be a pointer (version, ext-0..9, oid, size, and slack). */
export const POINTER_MAX_LINES = 16;
const CONTENT_DIFF_CONCURRENCY = 4;
const COUNTS_CACHE_SIZE = 1000;

/** Where a diff's blobs live and which repositories' LfsRepoObject rows make an object served (the caller reads them all). */
export interface LfsDiffSource {
  gitDir: string;
  repoIds: readonly string[];
  /** Extra object folders git reads (a compare across sibling forks; server/git/forks.ts). */
  borrow?: readonly string[];
}

/** What the step needs of a file: its blob ids and git's counts (every diff shape carries them). */
export type LfsDiffCandidate = Pick<DiffFile, "oldSha" | "newSha" | "isBinary" | "isSubmodule" | "additions" | "deletions">;

/** How a pointer file is shown. */
export interface LfsFileView {
  lfs: NonNullable<DiffFile["lfs"]>;
  /**
   * The objects' content diff (`lfs.content`; empty when hunks were not asked for), `[]` for a
   * size change (binary or larger objects), null to keep the pointer diff (a side not stored).
   */
  hunks: DiffHunk[] | null;
  /** Lines added/deleted: the content diff's, 0 for a size change, git's for a pointer diff kept. */
  additions: number;
  deletions: number;
  /** The content diff passed DIFF_LIMITS.maxFileLines. */
  truncated: boolean;
}

type Counts = { additions: number; deletions: number; truncated: boolean };
const countsCache = new Map<string, Counts>();

/** Whether file `f` may be a pointer file: its hunks hold a pointer line (`hint` true; a page's counts may be 0), or, hunks unknown, git's counts fit a pointer. */
function pointerShaped(f: LfsDiffCandidate, hint: boolean | undefined): boolean {
  if (hint === false || f.isBinary || f.isSubmodule || (!f.oldSha && !f.newSha)) return false;
  return hint === true || (f.additions + f.deletions > 0 && f.additions <= POINTER_MAX_LINES && f.deletions <= POINTER_MAX_LINES);
}

/** The content diff of two stored objects (null: a side absent), or null when git fails or the output is too large. */
async function contentHunks(oldBlob: LfsBlob | null, newBlob: LfsBlob | null): Promise<{ hunks: DiffHunk[]; truncated: boolean } | null> {
  const args = ["-c", "core.quotePath=false", "diff", "--no-index", "--no-color", "--no-ext-diff", "--no-textconv", "-U3", "--"];
  args.push(oldBlob?.path ?? "/dev/null", newBlob?.path ?? "/dev/null");
  try {
    const r = await runGit(args, { cwd: os.tmpdir(), timeoutMs: 30_000, maxBytes: 4 * DIFF_LIMITS.maxFileBytes + 64 * 1024 });
    if (r.code !== 0 && r.code !== 1) return null;
    return parseHunks(r.stdout.toString("utf8"), DIFF_LIMITS.maxFileLines);
  } catch {
    return null;
  }
}

async function isSmallText(blob: LfsBlob): Promise<boolean> {
  return blob.size <= DIFF_LIMITS.maxFileBytes && !looksBinary(await readLfsHead(blob, BINARY_SNIFF_BYTES));
}

/** Runs `work` on each item, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Blob id → its pointer (null: not a pointer): blobs are content-addressed, so this holds in every repository. */
const pointerCache = new Map<string, LfsPointer | null>();
const POINTER_CACHE_SIZE = 20_000;

function remember(id: string, p: LfsPointer | null) {
  pointerCache.delete(id);
  pointerCache.set(id, p);
  while (pointerCache.size > POINTER_CACHE_SIZE) pointerCache.delete(pointerCache.keys().next().value!);
}

/**
 * The pointers of each file's present sides (null: absent), for files whose every present side is
 * a pointer. Blobs not in the cache: sizes from one `--batch-check`, those under
 * LFS_POINTER_MAX_BYTES read by one `--batch` (`readBlobs`); none when every blob is cached.
 */
async function pointersOf(
  src: LfsDiffSource,
  files: readonly LfsDiffCandidate[],
  hints: readonly (boolean | undefined)[],
): Promise<Map<number, [LfsPointer | null, LfsPointer | null]>> {
  const found = new Map<number, [LfsPointer | null, LfsPointer | null]>();
  const candidates = files.flatMap((f, i) => (pointerShaped(f, hints[i]) ? [i] : []));
  if (candidates.length === 0) return found;
  const ids = [...new Set(candidates.flatMap((i) => [files[i].oldSha, files[i].newSha]).filter((s): s is string => !!s))];
  const unknown = ids.filter((id) => !pointerCache.has(id));
  if (unknown.length > 0) {
    const env = borrowedObjectsEnv(src.borrow) ?? {};
    const infos = await objectInfo(src.gitDir, unknown, env);
    const small = new Set(unknown.filter((_, k) => infos[k]?.type === "blob" && infos[k]!.size < LFS_POINTER_MAX_BYTES));
    const read = new Map<string, LfsPointer | null>();
    if (small.size > 0) await readBlobs(src.gitDir, [...small], (id, c) => read.set(id, parseLfsPointer(c.toString("utf8"))), env);
    unknown.forEach((id, k) => {
      if (infos[k] && (read.has(id) || !small.has(id))) remember(id, read.get(id) ?? null); // a missing object is not cached
    });
  }
  for (const i of candidates) {
    const [o, n] = [files[i].oldSha, files[i].newSha].map((s) => (s ? (pointerCache.get(s) ?? undefined) : null));
    if (o === undefined || n === undefined) continue; // a present side that is not a pointer
    found.set(i, [o, n]);
    if (found.size >= MAX_LFS_FILES) break;
  }
  return found;
}

/** The objects among `pointers` that the source's repositories serve: one query for all oids, one stat per oid. */
async function storedObjects(db: Db, src: LfsDiffSource, pointers: LfsPointer[]): Promise<Map<string, LfsBlob>> {
  const oids = [...new Set(pointers.map((p) => p.oid))];
  const rows = oids.length
    ? await db.lfsRepoObject.findMany({ where: { repoId: { in: [...src.repoIds] }, oid: { in: oids } }, select: { oid: true } })
    : [];
  const out = new Map<string, LfsBlob>();
  await Promise.all(
    [...new Set(rows.map((r) => r.oid))].map(async (oid) => {
      const path = lfsObjectPath(oid);
      const st = await stat(path).catch(() => null);
      if (st?.isFile()) out.set(oid, { oid, size: st.size, path });
    }),
  );
  return out;
}

/**
 * The LFS view of each of `files` (same order; null for a file that is not a pointer file or
 * past MAX_LFS_FILES), per the module comment. `hunks`: false when only counts are wanted (a
 * file list): cached counts then spare the content diff. `hints[i]`: false when file i's hunks
 * are known and hold no pointer line (it is skipped: no git process for a diff without
 * pointers), true or undefined to look at its blobs. Errors: a plain Error when git fails to read blobs.
 */
export async function lfsFileViews(
  db: Db,
  src: LfsDiffSource,
  files: readonly LfsDiffCandidate[],
  opts: { hunks: boolean; hints?: readonly (boolean | undefined)[] },
): Promise<(LfsFileView | null)[]> {
  const views: (LfsFileView | null)[] = files.map(() => null);
  const pointers = await pointersOf(src, files, opts.hints ?? []);
  if (pointers.size === 0) return views;
  const stored = await storedObjects(
    db,
    src,
    [...pointers.values()].flat().filter((p): p is LfsPointer => !!p),
  );
  const blobOf = (p: LfsPointer) => {
    const b = stored.get(p.oid);
    return b && b.size === p.size ? b : null;
  };
  await eachLimited([...pointers.entries()], CONTENT_DIFF_CONCURRENCY, async ([i, [o, n]]) => {
    const f = files[i];
    const side = (p: LfsPointer | null) => (p ? { oid: p.oid, size: p.size, stored: blobOf(p) !== null } : null);
    const lfs = { old: side(o), new: side(n), content: false };
    const blobs = [o, n].filter((p): p is LfsPointer => !!p).map(blobOf);
    if (!blobs.every((b): b is LfsBlob => b !== null)) {
      views[i] = { lfs, hunks: null, additions: f.additions, deletions: f.deletions, truncated: false };
      return;
    }
    const sizeOnly = { lfs, hunks: [], additions: 0, deletions: 0, truncated: false };
    const key = `${o?.oid ?? ""}:${n?.oid ?? ""}`;
    const cached = opts.hunks ? undefined : countsCache.get(key);
    if (cached) {
      views[i] = { lfs: { ...lfs, content: true }, hunks: [], ...cached };
      return;
    }
    if (!(await Promise.all(blobs.map(isSmallText))).every(Boolean)) {
      views[i] = sizeOnly;
      return;
    }
    const diffed = await contentHunks(o && blobOf(o), n && blobOf(n));
    if (!diffed) {
      views[i] = sizeOnly;
      return;
    }
    const counts = {
      additions: countLines(diffed.hunks, "add"),
      deletions: countLines(diffed.hunks, "delete"),
      truncated: diffed.truncated,
    };
    countsCache.delete(key);
    countsCache.set(key, counts);
    while (countsCache.size > COUNTS_CACHE_SIZE) countsCache.delete(countsCache.keys().next().value!);
    views[i] = { lfs: { ...lfs, content: true }, hunks: opts.hunks ? diffed.hunks : [], ...counts };
  });
  return views;
}
