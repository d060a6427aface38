/**
 * The interdiff of a pull request between two revisions (docs/pulls.md "Interdiff"): what the
 * author changed in the change, without what came from the base moving under it. Pure git, no
 * database; inputs are resolved commit ids.
 *
 * The rule: replay the old change (oldBase → oldHead) onto the new base with git's own three-way
 * merge (ort, as `git merge` and `git rebase` run it), giving tree T = "the old change as it
 * would read on the new base"; the interdiff is the diff T → newHead. A rebase that only moved
 * the change gives an empty interdiff; an amended line shows as that line alone. With the same
 * merge base on both sides (or bases with equal trees) nothing is replayed: the diff is
 * oldHead → newHead. A replay that conflicts has no meaningful T, so the interdiff falls back to
 * oldHead → newHead, flagged `rebaseConflicted` (it then includes the base's changes).
 *
 * git ≥ 2.40 says this as `git merge-tree --write-tree --merge-base=<oldBase> <newBase> <oldHead>`;
 * git 2.39 (the project's) has no `--merge-base`, so the merge base is made explicit with
 * throwaway commits (as server/git/revert.ts does): a parentless commit R of oldBase's tree and
 * two children of it, of newBase's and oldHead's trees. Their only common ancestor is R, so
 * `git merge-tree --write-tree <child of newBase> <child of oldHead>` merges with oldBase's tree
 * as the base: the same tree `--merge-base` gives, whatever the real histories (a force-pushed
 * upstream, criss-cross merges). The throwaway commits have a fixed identity and date, so the
 * same revisions give the same ids and the same T: T's diff is then found in the diff caches
 * (server/git/diff.ts keys them by ids). The objects are written into the repository (the diff
 * runs read them), unreferenced: a few small commits plus the merged blobs and trees, pruned by
 * git's gc like any unreachable object.
 */
import { gitText } from "./exec";
import { commitEnv, type Identity } from "./commits";
import { assertSha, diffTrees, type Diff, type DiffOptions } from "./diff";
import { diffPageRange, type DiffPage, type DiffPageOptions } from "./diff-page";
import { mergeTree } from "./merge";
import { SHA_RE } from "@/lib/sha";

/** The two revisions compared: each one's head and its merge base with the target (full commit ids). */
export interface InterdiffRevisions {
  oldBase: string;
  oldHead: string;
  newBase: string;
  newHead: string;
}

/** How the interdiff was computed, next to the diff itself. */
export interface InterdiffInfo {
  /** The tree-ish the diff starts from: T (the replayed old change) or `oldHead` (same base, or the fallback). */
  from: string;
  /** The tree-ish the diff ends at: `newHead`. */
  to: string;
  /** True when the old change was replayed onto a moved base (`from` is T). */
  replayed: boolean;
  /** True when the replay conflicted: the diff is oldHead → newHead and includes the base's changes. */
  rebaseConflicted: boolean;
  /** Paths the replay conflicted on (git's order; empty unless `rebaseConflicted`). */
  conflicts: string[];
}

/** A whole interdiff: the diff in `pulls.getDiff`'s shape plus `InterdiffInfo`. */
export type Interdiff = Diff &
  InterdiffInfo & {
    /** True when no file differs ("this rebase changed nothing in the change"). */
    empty: boolean;
  };

/** A page of an interdiff: `pulls.getDiffPage`'s shape plus `InterdiffInfo` (the file list is `interdiff`'s). */
export type InterdiffPage = DiffPage &
  InterdiffInfo & {
    /** True when the whole interdiff has no file (not only this page): as `Interdiff.empty`. */
    empty: boolean;
  };

/** Author and committer of the throwaway commits: fixed, so the same trees give the same commit ids. */
const REPLAY_IDENTITY: Identity = { name: "svc", email: "svc@localhost", date: "1000000000 +0000" };

/**
 * The tree ids of `shas` (full ids, checked by the caller: nothing reads as an option) in one
 * `git rev-parse` (`--verify` takes a single revision). Errors: a plain Error when git fails (an unknown id).
 */
async function treesOf(gitDir: string, shas: string[]): Promise<string[]> {
  const out = await gitText(["rev-parse", ...shas.map((s) => `${s}^{tree}`)], { gitDir });
  const trees = out.split("\n").filter((l) => l.length > 0);
  if (trees.length !== shas.length || !trees.every((t) => SHA_RE.test(t))) throw new Error("git rev-parse printed no tree ids");
  return trees;
}

/**
 * Replays already made, by "gitDir revs": ids are immutable, so an answer never goes stale, and
 * a second view of the same revisions costs only its diff (from the diff caches). On globalThis,
 * as server/git/diff.ts's caches (Next loads server modules in several bundles).
 */
const replays = ((globalThis as unknown as { __svcInterdiffReplays?: Map<string, InterdiffInfo> }).__svcInterdiffReplays ??= new Map());
/** Replays remembered (an entry is a few ids). */
const REPLAYS_KEPT = 256;

const replayKey = (gitDir: string, r: InterdiffRevisions) => [gitDir, r.oldBase, r.oldHead, r.newBase, r.newHead].join("\0");

/**
 * Where the interdiff of `revs` runs from and to (see the module comment): resolves the trees,
 * and when the bases' trees differ replays the old change onto the new base (three throwaway
 * commits and one `git merge-tree`); remembered per revisions. Errors: a plain Error when git
 * fails (unknown ids are the caller's check); MergeError when merge-tree refuses.
 */
export async function interdiffRange(gitDir: string, revs: InterdiffRevisions): Promise<InterdiffInfo> {
  for (const [k, v] of Object.entries(revs)) assertSha(v, k);
  const key = replayKey(gitDir, revs);
  const known = replays.get(key);
  if (known) return (replays.delete(key), replays.set(key, known), known);
  const info = await replay(gitDir, revs);
  replays.set(key, info);
  while (replays.size > REPLAYS_KEPT) replays.delete(replays.keys().next().value!);
  return info;
}

/**
 * A throwaway commit of `of`'s tree (`of`: a full commit id, checked; git peels `<id>^{tree}`
 * itself, so no `rev-parse` has to come first) with `parents`, fixed identity and date.
 */
async function replayCommit(gitDir: string, of: string, parents: string[]): Promise<string> {
  const args = ["commit-tree", `${of}^{tree}`];
  for (const p of parents) args.push("-p", p);
  const out = (await gitText(args, { gitDir, input: "svc: interdiff replay (temporary)\n", env: commitEnv(REPLAY_IDENTITY) })).trim();
  if (!SHA_RE.test(out)) throw new Error("git commit-tree printed no object id");
  return out;
}

/**
 * `interdiffRange` without the memory: the replay when the bases differ. Three levels of git
 * processes, each started only when the one before has answered (a process start costs tens of
 * ms in a large server process): the bases' trees (`rev-parse`) beside the root commit, then the
 * two children, then `merge-tree`. Bases with equal trees leave the root commit unused (a small
 * unreferenced object, the same one each time).
 */
async function replay(gitDir: string, revs: InterdiffRevisions): Promise<InterdiffInfo> {
  const plain = { from: revs.oldHead, to: revs.newHead, replayed: false, rebaseConflicted: false, conflicts: [] };
  if (revs.oldBase === revs.newBase) return plain;
  const [[oldBaseTree, newBaseTree], root] = await Promise.all([
    treesOf(gitDir, [revs.oldBase, revs.newBase]),
    replayCommit(gitDir, revs.oldBase, []),
  ]);
  if (oldBaseTree === newBaseTree) return plain;
  const [onto, change] = await Promise.all([replayCommit(gitDir, revs.newBase, [root]), replayCommit(gitDir, revs.oldHead, [root])]);
  const merged = await mergeTree(gitDir, onto, change);
  if (merged.conflicts.length > 0) return { ...plain, rebaseConflicted: true, conflicts: merged.conflicts };
  return { ...plain, from: merged.tree, replayed: true };
}

/**
 * Runs `read` on the interdiff's range. A remembered replay's tree is unreferenced, so git's gc
 * may have pruned it since: when the read fails on a remembered replay, the replay is made again
 * (writing T back) and the read retried once.
 */
async function onRange<T>(gitDir: string, revs: InterdiffRevisions, read: (info: InterdiffInfo) => Promise<T>): Promise<T> {
  const remembered = replays.has(replayKey(gitDir, revs));
  const info = await interdiffRange(gitDir, revs);
  try {
    return await read(info);
  } catch (e) {
    if (!remembered || !info.replayed) throw e;
    replays.delete(replayKey(gitDir, revs));
    return read(await interdiffRange(gitDir, revs));
  }
}

/**
 * The interdiff of `revs` as a whole diff, in `pulls.getDiff`'s shape (server/git/diff.ts
 * `diffTrees`, with its limits, caches and filters: `opts` as there), plus how it was computed
 * and `empty` (no file differs). `decorate` (e.g. the LFS step, services/lfs/lfs-diff-shapes.ts)
 * rewrites the diff while the range is held: a read of a pruned replay's blobs there is retried
 * like the diff's own. Errors: as `interdiffRange` and `diffTrees`, and whatever `decorate` throws.
 */
export async function interdiff(
  gitDir: string,
  revs: InterdiffRevisions,
  opts: DiffOptions = {},
  decorate: (diff: Diff) => Promise<Diff> = async (d) => d,
): Promise<Interdiff> {
  return onRange(gitDir, revs, async (info) => {
    const diff = await decorate(await diffTrees(gitDir, info.from, info.to, opts));
    return { ...diff, ...info, empty: diff.totalFiles === 0 };
  });
}

/**
 * A page of the interdiff of `revs`, in `pulls.getDiffPage`'s shape (server/git/diff-page.ts
 * `diffPageRange` over `[from, to]`: cursor, file limit and line budget as there), plus how it
 * was computed and `empty` (the whole interdiff has no file: read off the first page when the
 * page starts at file 0, else from the two trees being equal). `decorate`: as `interdiff`'s, for
 * the page. Errors: as `interdiffRange` and `diffPageRange`, and whatever `decorate` throws.
 */
export async function interdiffPage(
  gitDir: string,
  revs: InterdiffRevisions,
  opts: DiffPageOptions = {},
  decorate: (page: DiffPage) => Promise<DiffPage> = async (p) => p,
): Promise<InterdiffPage> {
  return onRange(gitDir, revs, async (info) => {
    const page = await decorate(await diffPageRange(gitDir, [info.from, info.to], opts));
    const first = !opts.cursor || (opts.cursor.file === 0 && opts.cursor.hunk === 0);
    let empty: boolean;
    if (first) empty = page.files.length === 0 && page.nextCursor === null;
    else if (page.files.length > 0) empty = false;
    else {
      const [a, b] = await treesOf(gitDir, [info.from, info.to]);
      empty = a === b;
    }
    return { ...page, ...info, empty };
  });
}
