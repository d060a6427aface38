/**
 * The LFS diff step (`lfsFileViews`, server/services/lfs/lfs-diff.ts) applied to each diff shape,
 * so every diff surface shows a pointer file alike (docs/lfs.md "In the browser"): a whole diff
 * (`withLfsDiffs`), a file list (`withLfsFileList`) and a page of hunks (`withLfsPage`).
 *
 * Totals: when an answer lists every changed file of the range (no `paths` filter, no file cap),
 * `totalAdditions`/`totalDeletions` take the LFS files' counts in place of the pointers'; a
 * filtered or capped answer keeps git's totals (it does not see every pointer file).
 */
import type { Db } from "@/server/db";
import { pageFileSides } from "@/server/git/diff-page";
import type { Diff, DiffFile, DiffFileList, DiffPage, DiffPageFile } from "@/server/git/diff-types";
import { lfsFileViews, type LfsDiffSource, type LfsFileView } from "./lfs-diff";
import { toPageHunks } from "./lfs-hunks";

const POINTER_LINE = /^(version https:\/\/git-lfs\.github\.com\/spec\/v1|oid sha256:[0-9a-f]{64})$/;

/** Whether hunk lines (a page's "+…" text, or a DiffLine's content) hold a pointer line; undefined when there are none (not known). */
function hint(lines: readonly string[]): boolean | undefined {
  return lines.length === 0 ? undefined : lines.some((l) => POINTER_LINE.test(l));
}

/** `totals` with the views' counts in place of git's, when `files` are all the range's files. */
function adjustTotals<T extends { totalAdditions: number; totalDeletions: number; totalFiles: number }>(
  totals: T,
  files: readonly Pick<DiffFile, "additions" | "deletions">[],
  views: readonly (LfsFileView | null)[],
): T {
  if (files.length !== totals.totalFiles) return totals;
  let add = totals.totalAdditions;
  let del = totals.totalDeletions;
  views.forEach((v, i) => {
    if (!v) return;
    add += v.additions - files[i].additions;
    del += v.deletions - files[i].deletions;
  });
  return { ...totals, totalAdditions: add, totalDeletions: del };
}

/**
 * A whole diff (pulls.getDiff, repos.commit, repos.compare) with its pointer files shown as LFS
 * files: `lfs` set; hunks and counts the objects' content diff, or none and 0 for a size change,
 * or the pointer diff kept (a side not stored). A file whose hunks the response budget left out
 * (`truncatedReason` "total", no hunks) keeps none and stays to load by page, with the LFS counts.
 * Errors: a plain Error when git fails to read blobs.
 */
export async function withLfsDiffs<D extends Diff>(db: Db, src: LfsDiffSource, diff: D): Promise<D> {
  const hints = diff.files.map((f) => hint(f.hunks.flatMap((h) => h.lines.map((l) => l.content))));
  const views = await lfsFileViews(db, src, diff.files, { hunks: true, hints });
  if (views.every((v) => !v)) return diff;
  const files = diff.files.map((f, i): DiffFile => {
    const v = views[i];
    if (!v) return f;
    if (v.hunks === null) return { ...f, lfs: v.lfs };
    const counts = { additions: v.additions, deletions: v.deletions, lfs: v.lfs };
    if (f.truncatedReason === "total" && f.hunks.length === 0 && v.lfs.content) return { ...f, ...counts };
    return {
      ...f,
      ...counts,
      hunks: v.hunks,
      truncated: v.truncated,
      truncatedReason: v.truncated ? "file" : undefined,
    };
  });
  return { ...adjustTotals(diff, diff.files, views), files };
}

/**
 * A file list (pulls.getDiffFiles) with its pointer files' `lfs` and counts as `withLfsDiffs`
 * gives them (counts cached by object pair: no git process for pairs a diff already counted).
 * Errors: a plain Error when git fails to read blobs.
 */
export async function withLfsFileList<L extends DiffFileList>(db: Db, src: LfsDiffSource, list: L): Promise<L> {
  const views = await lfsFileViews(db, src, list.files, { hunks: false });
  if (views.every((v) => !v)) return list;
  const files = list.files.map((f, i) => {
    const v = views[i];
    return v ? { ...f, additions: v.additions, deletions: v.deletions, lfs: v.lfs } : f;
  });
  return { ...adjustTotals(list, list.files, views), files };
}

/**
 * A page of hunks (pulls.getDiffPage, repos.commitDiffPage, repos.compareDiffPage) with its
 * pointer files' hunks as `withLfsDiffs` gives them, and `lfs` set. A content diff comes whole on
 * the page that starts the file (a later part of a cut pointer diff, `fromHunk` > 0, gets none).
 * Errors: a plain Error when git fails to read blobs.
 */
export async function withLfsPage<P extends DiffPage>(db: Db, src: LfsDiffSource, page: P): Promise<P> {
  const sides = page.files.map(pageFileSides);
  const known = page.files.flatMap((f, i) => (sides[i] ? [i] : []));
  const views = await lfsFileViews(
    db,
    src,
    known.map((i) => sides[i]!),
    { hunks: true, hints: known.map((i) => hint(page.files[i].hunks.flatMap((h) => h.lines.map((l) => l.slice(1))))) },
  );
  if (views.every((v) => !v)) return page;
  const files = [...page.files];
  known.forEach((i, k) => {
    const v = views[k];
    if (!v) return;
    const f = page.files[i];
    if (v.hunks === null) {
      files[i] = { ...f, lfs: v.lfs };
      return;
    }
    const { fromHunk, continues, truncatedReason, ...rest } = f;
    void continues;
    void truncatedReason;
    const out: DiffPageFile = { ...rest, hunks: fromHunk ? [] : toPageHunks(v.hunks), truncated: v.truncated, lfs: v.lfs };
    if (v.truncated) out.truncatedReason = "file";
    files[i] = out;
  });
  return { ...page, files };
}
