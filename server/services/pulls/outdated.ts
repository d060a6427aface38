/**
 * Outdated threads (docs/pulls.md "Review"): an inline thread is outdated when the lines it is
 * about changed between the commit it was made on and the pull request's current head — computed
 * with git from the one diff model (server/git/diff.ts `diffTrees`), never stored:
 *
 *   RIGHT  the diff commitSha → headSha of the thread's file
 *   LEFT   the diff mergeBase(base, commitSha) → mergeBase(base, headSha) (the base side moves
 *          only when the merge base does: the target was merged into the source, or the pull
 *          request was retargeted / the target moved and the branch rebased)
 *
 * It is outdated when a line of its range was deleted or rewritten, a line was inserted inside
 * the range, or the file was deleted, renamed or turned binary; lines added or removed
 * elsewhere in the file only move it (`currentLine` / `currentStartLine` say where the range is
 * now). A comparison git cannot make (a commit gone after a force-push and gc) counts as
 * outdated. Each (from, to) range is one git run for all the files asked about; results are
 * cached per (repository, from, to, path): commit ids never change.
 */
import { diffTrees, type DiffFile } from "@/server/git/diff";
import { mergeBase } from "@/server/git/commits";

export interface ThreadPosition {
  path: string;
  side: "LEFT" | "RIGHT";
  /** First line of the range (= endLine for a one-line comment). */
  startLine: number;
  endLine: number;
  commitSha: string;
}

export interface Freshness {
  outdated: boolean;
  /** Where the range is at the head (null when outdated). */
  currentStartLine: number | null;
  currentLine: number | null;
}

/** How one file changed between two commits: deleted old lines, insertion points, line mapping. */
interface FileChange {
  gone: boolean;
  deleted: Set<number>;
  /** Old line numbers before which lines were inserted. */
  insertedBefore: number[];
  /** Per hunk: old lines [start, end) covered and the new-minus-old shift after it. */
  hunks: { start: number; end: number; shiftAfter: number }[];
  /** Unchanged old line → new line, inside hunks. */
  context: Map<number, number>;
}

const UNCHANGED: FileChange = { gone: false, deleted: new Set(), insertedBefore: [], hunks: [], context: new Map() };

/** The change of `file` (from a diff whose old side names the thread's path). Pure. */
export function fileChange(file: DiffFile | undefined, path: string): FileChange {
  if (!file) return UNCHANGED;
  if (
    file.status === "deleted" ||
    file.newPath !== path ||
    file.isBinary ||
    file.isSubmodule ||
    (file.truncated && file.hunks.length === 0)
  ) {
    return { ...UNCHANGED, gone: true };
  }
  const c: FileChange = { gone: false, deleted: new Set(), insertedBefore: [], hunks: [], context: new Map() };
  for (const h of file.hunks) {
    // "-k,0": lines inserted after old line k
    let o = h.oldLines === 0 ? h.oldStart + 1 : h.oldStart;
    let n = h.newStart;
    const start = o;
    for (const l of h.lines) {
      if (l.type === "context") c.context.set(o++, n++);
      else if (l.type === "delete") c.deleted.add(o++);
      else {
        c.insertedBefore.push(o);
        n++;
      }
    }
    c.hunks.push({ start, end: o, shiftAfter: n - o });
  }
  if (file.truncated) c.gone = true; // hunks were cut: lines past the cut are unknown
  return c;
}

/** Where the thread stands given its file's change. Pure. */
export function freshnessOf(c: FileChange, startLine: number, endLine: number): Freshness {
  const stale: Freshness = { outdated: true, currentStartLine: null, currentLine: null };
  if (c.gone) return stale;
  for (let l = startLine; l <= endLine; l++) if (c.deleted.has(l)) return stale;
  if (c.insertedBefore.some((p) => p > startLine && p <= endLine)) return stale;
  const map = (l: number): number => {
    const inHunk = c.context.get(l);
    if (inHunk !== undefined) return inHunk;
    let shift = 0;
    for (const h of c.hunks) if (h.end <= l) shift = h.shiftAfter;
    return l + shift;
  };
  return { outdated: false, currentStartLine: map(startLine), currentLine: map(endLine) };
}

const cache = new Map<string, FileChange>();
const CACHE_SIZE = 5_000;

function remember(key: string, c: FileChange): void {
  cache.delete(key);
  cache.set(key, c);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
}

/** The changes of `paths` between commits `from` and `to` (one git run for the paths not cached). Throws when git cannot diff them. */
async function changesOf(gitDir: string, from: string, to: string, paths: string[]): Promise<Map<string, FileChange>> {
  const out = new Map<string, FileChange>();
  const missing: string[] = [];
  for (const p of paths) {
    const hit = from === to ? UNCHANGED : cache.get(`${gitDir}\0${from}\0${to}\0${p}`);
    if (hit) out.set(p, hit);
    else missing.push(p);
  }
  if (missing.length) {
    const diff = await diffTrees(gitDir, from, to, { paths: missing });
    for (const p of missing) {
      const c = fileChange(
        diff.files.find((f) => f.oldPath === p),
        p,
      );
      remember(`${gitDir}\0${from}\0${to}\0${p}`, c);
      out.set(p, c);
    }
  }
  return out;
}

/**
 * Freshness of each thread position (same order) against head `headSha`; `base` is the commit
 * the pull request's diff starts from (services/diff/pull-range.ts `pullBase`). Git runs once per distinct
 * (from, to) pair; errors only mark threads outdated.
 */
export async function threadFreshness(gitDir: string, base: string, headSha: string, threads: ThreadPosition[]): Promise<Freshness[]> {
  const result: Freshness[] = threads.map(() => ({ outdated: true, currentStartLine: null, currentLine: null }));
  const mergeBases = new Map<string, Promise<string | null>>();
  const mb = (sha: string) => {
    if (!mergeBases.has(sha))
      mergeBases.set(
        sha,
        mergeBase(gitDir, base, sha).catch(() => null),
      );
    return mergeBases.get(sha)!;
  };
  // group threads by the (from, to) range their side compares
  const groups = new Map<string, { from: string; to: string; members: number[] }>();
  for (let i = 0; i < threads.length; i++) {
    const t = threads[i];
    let from = t.commitSha;
    let to = headSha;
    if (t.side === "LEFT") {
      const [a, b] = await Promise.all([mb(t.commitSha), mb(headSha)]);
      if (!a || !b) continue;
      from = a;
      to = b;
    }
    const key = `${from}\0${to}`;
    const g = groups.get(key) ?? { from, to, members: [] };
    g.members.push(i);
    groups.set(key, g);
  }
  await Promise.all(
    [...groups.values()].map(async (g) => {
      let changes: Map<string, FileChange>;
      try {
        changes = await changesOf(gitDir, g.from, g.to, [...new Set(g.members.map((i) => threads[i].path))]);
      } catch {
        return; // a commit git cannot read: outdated
      }
      for (const i of g.members)
        result[i] = freshnessOf(changes.get(threads[i].path) ?? UNCHANGED, threads[i].startLine, threads[i].endLine);
    }),
  );
  return result;
}
