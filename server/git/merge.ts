/**
 * The merge engine's git side (docs/pulls.md "Mergeability", "Merge strategies", "Conflicts").
 * Pure git, no database: every function takes the bare repository's `gitDir` and full commit
 * shas. Nothing here touches a working tree of the bare repository: merges are computed with
 * `git merge-tree --write-tree` (git 2.38+, the "ort" strategy `git merge` uses), new commits are
 * written with `commitTree` (commits.ts), and the caller moves refs by compare-and-swap
 * (update-ref.ts). Rebase replays in a throwaway worktree (merge-rebase.ts). A mergeability
 * check only asks, so its merge-tree writes into an object quarantine (quarantine.ts) and leaves
 * nothing in the repository; `mergeTree` writes for real, for a merge about to be committed.
 *
 * git 2.39 has no `merge-tree --merge-base` and no `git replay`, hence the worktree for rebase.
 */
import { SHA_RE } from "@/lib/sha";
import { aheadBehind } from "./commits";
import { runGit, type GitResult } from "./exec";
import { withObjectQuarantine } from "./quarantine";

/** Conflicting paths reported at most (the rest are counted in `conflictsTruncated`). */
export const MAX_CONFLICT_PATHS = 1000;

/** The result of merging `head` into `targetTip` (git-merge-tree(1) --write-tree). */
export interface MergeTreeResult {
  /** The merged tree: clean, or with conflict markers when `conflicts` is not empty. */
  tree: string;
  /** Conflicting paths in git's order (the index's unmerged paths after `git merge`), at most MAX_CONFLICT_PATHS. */
  conflicts: string[];
  /** True when more than MAX_CONFLICT_PATHS paths conflict. */
  conflictsTruncated: boolean;
}

/**
 * Mergeability of `head` into `targetTip`: the conflicts plus how far apart they are. No tree: the
 * check's merge was written into a quarantine that is gone (a merge runs `mergeTree` itself).
 */
export interface MergeCheck extends Omit<MergeTreeResult, "tree"> {
  /** Commits on the head not on the target (`rev-list --count target..head`). */
  aheadBy: number;
  /** Commits on the target not on the head (`rev-list --count head..target`). */
  behindBy: number;
}

/** Thrown for merges git refuses (unrelated histories, missing objects). `message` is safe to show. */
export class MergeError extends Error {}

function sha(value: string, what: string): string {
  if (!SHA_RE.test(value)) throw new MergeError(`${what} is not a full commit sha`);
  return value;
}

/**
 * The error for a `git merge-tree` that printed no tree (it exits 1 for a missing commit too):
 * MergeError (shown to the caller) for unrelated histories or a missing/non-commit object,
 * otherwise a plain Error (a server fault; stderr is logged, never shown).
 */
export function mergeTreeFailure(stderr: string): Error {
  if (/unrelated histories/.test(stderr)) return new MergeError("the branches have no common history");
  if (/not something we can merge|bad object|not a valid|unknown revision|expected commit type|Invalid symmetric difference/i.test(stderr))
    return new MergeError("a commit of the pull request is missing from the repository");
  return new Error(`git merge-tree failed: ${stderr.trim()}`);
}

/** Options of `runMergeTree`. */
export interface MergeTreeRun {
  /** Written to git's stdin (`--stdin` batches, merge-batch.ts). */
  input?: string;
  /** Kill git after this many ms (default: exec.ts's 60 000). */
  timeoutMs?: number;
  /** An object quarantine's environment (withObjectQuarantine): the merges' objects are thrown away with it. */
  env?: Record<string, string>;
}

/**
 * Starts `git merge-tree <args>` in bare repository `gitDir`: the one place every merge-tree
 * run (`mergeTree` here, the `--stdin` batch in merge-batch.ts) gets its environment, so what
 * applies to speculative merges applies to both. Never throws for a non-zero exit (runGit).
 */
export function runMergeTree(gitDir: string, args: string[], run: MergeTreeRun = {}): Promise<GitResult> {
  return runGit(["merge-tree", ...args], { gitDir, ...run });
}

/**
 * Three-way merges `theirs` into `ours` as `git merge` would (ort; merge base found by git,
 * recursive for criss-cross histories) and writes the result tree, without a working tree:
 * `git merge-tree --write-tree -z --name-only --no-messages ours theirs`. Exit 0 clean, 1
 * conflicted. The result's objects are written into the repository, unless `env` is an object
 * quarantine's (withObjectQuarantine: then they are gone with it). Errors: MergeError for
 * unrelated histories or unknown commits.
 */
export async function mergeTree(gitDir: string, ours: string, theirs: string, env?: Record<string, string>): Promise<MergeTreeResult> {
  const r = await runMergeTree(gitDir, ["--write-tree", "-z", "--name-only", "--no-messages", sha(ours, "ours"), sha(theirs, "theirs")], {
    env,
  });
  if (r.code !== 0 && r.code !== 1) throw mergeTreeFailure(r.stderr);
  const parts = r.stdout
    .toString("utf8")
    .split("\0")
    .filter((p) => p.length > 0);
  const tree = parts[0] ?? "";
  if (!SHA_RE.test(tree)) throw mergeTreeFailure(r.stderr);
  const all = r.code === 1 ? parts.slice(1) : [];
  return { tree, conflicts: all.slice(0, MAX_CONFLICT_PATHS), conflictsTruncated: all.length > MAX_CONFLICT_PATHS };
}

/**
 * Mergeability of `head` into `targetTip`: mergeTree in an object quarantine (nothing is left in
 * the repository) and aheadBehind (commits.ts), run in parallel (two git processes). Errors:
 * MergeError (see mergeTree; a failed count is classified by git's message the same way).
 */
export async function checkMerge(gitDir: string, targetTip: string, head: string): Promise<MergeCheck> {
  const counts = aheadBehind(gitDir, sha(targetTip, "target"), sha(head, "head")).catch((e: Error) => {
    throw mergeTreeFailure(e.message);
  });
  counts.catch(() => {}); // awaited below; a quarantine that fails first must not leave it unhandled
  const { tree: _gone, ...merged } = await withObjectQuarantine(gitDir, (env) => mergeTree(gitDir, targetTip, head, env));
  return { ...merged, ...(await counts) };
}
