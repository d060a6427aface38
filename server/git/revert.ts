/**
 * Reverting without a working tree (docs/pulls.md "Revert"). `git revert` needs a working tree,
 * and git 2.39 (the project's) has no `git merge-tree --merge-base`, so the revert is computed as
 * the three-way merge git would run for it — base: the reverted state, ours: the branch tip,
 * theirs: the state before it — with the merge base made explicit by a throwaway commit: the tree
 * before the change, committed with the reverted commit as its only parent. Merging it into a tip
 * that contains the reverted commit has exactly that commit as its merge base, so
 * `git merge-tree --write-tree <onto> <throwaway>` gives the same tree as
 * `git merge-tree --write-tree --merge-base=<reverted> <onto> <before>` (git ≥ 2.40) and as
 * `git revert` (ort). Pure git: the caller writes the revert commit and moves the branch.
 */
import { gitText } from "./exec";
import { commitTree, isAncestor, type Identity } from "./commits";
import { MergeError, mergeTree, type MergeTreeResult } from "./merge";
import { SHA_RE } from "@/lib/sha";

/** The tree id of commit `sha` (git rev-parse `<sha>^{tree}`). Errors: a plain Error when git fails. */
export async function treeOf(gitDir: string, sha: string): Promise<string> {
  if (!SHA_RE.test(sha)) throw new Error("commit is not a full object id");
  const out = (await gitText(["rev-parse", "--verify", "--end-of-options", `${sha}^{tree}`], { gitDir })).trim();
  if (!SHA_RE.test(out)) throw new Error("git rev-parse printed no tree id");
  return out;
}

/**
 * The tree of `onto` with the change `before` → `reverted` undone (`before` is the reverted
 * commit's first parent — mainline 1 for a merge commit — or, for a range, the commit before its
 * first; `reverted` the range's last), plus the conflicting paths (git's order, empty when clean).
 * `env` may be an object quarantine's, so a conflicted attempt leaves nothing behind. Errors:
 * MergeError when `onto` does not contain `reverted` (the branch was rewritten: nothing to revert
 * on it) or merge-tree refuses; plain Errors when git fails.
 */
export async function revertTree(
  gitDir: string,
  input: { onto: string; reverted: string; before: string; committer: Identity },
  env?: Record<string, string>,
): Promise<MergeTreeResult> {
  if (!(await isAncestor(gitDir, input.reverted, input.onto)))
    throw new MergeError("the target branch no longer contains the merged changes");
  const undo = await commitTree(
    gitDir,
    {
      tree: await treeOf(gitDir, input.before),
      parents: [input.reverted],
      message: "svc: revert (temporary)",
      author: input.committer,
      committer: input.committer,
    },
    env,
  );
  return mergeTree(gitDir, input.onto, undo, env);
}
