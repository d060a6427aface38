/**
 * The merge engine's git side (issue #8; docs/pulls.md "Mergeability", "Merge strategies",
 * "Conflicts"). Pure git, no database: every function takes the bare repository's `gitDir` and
 * full commit shas. Nothing here touches a working tree of the bare repository: merges are
 * computed with `git merge-tree --write-tree` (git 2.38+, the "ort" strategy `git merge` uses),
 * new commits are written with `git commit-tree`, and refs move only by compare-and-swap
 * (`git update-ref <ref> <new> <old>`). Rebase replays in a throwaway worktree (merge-rebase.ts).
 *
 * git 2.39 has no `merge-tree --merge-base` and no `git replay`, hence the worktree for rebase.
 */
import { runGit, gitText, userArg } from "./exec";
import { isValidRefName } from "./refs";

/** A 40-hex commit/tree/blob name (SHA-1 repositories). */
export const SHA_RE = /^[0-9a-f]{40}$/;

/** Conflicting paths reported at most (the rest are counted in `conflictsTruncated`). */
export const MAX_CONFLICT_PATHS = 1000;

/** A commit author or committer: name, email and optionally a date in git's format ("<unix seconds> +0000"). */
export interface Identity {
  name: string;
  email: string;
  /** Git date ("1700000000 +0000" or ISO 8601); default now. */
  date?: string;
}

/** The result of merging `head` into `targetTip` (git-merge-tree(1) --write-tree). */
export interface MergeTreeResult {
  /** The merged tree: clean, or with conflict markers when `conflicts` is not empty. */
  tree: string;
  /** Conflicting paths in git's order (the index's unmerged paths after `git merge`), at most MAX_CONFLICT_PATHS. */
  conflicts: string[];
  /** True when more than MAX_CONFLICT_PATHS paths conflict. */
  conflictsTruncated: boolean;
}

/** Mergeability of `head` into `targetTip`: the merge tree plus how far apart they are. */
export interface MergeCheck extends MergeTreeResult {
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

function identityEnv(kind: "AUTHOR" | "COMMITTER", who: Identity): Record<string, string> {
  const env: Record<string, string> = { [`GIT_${kind}_NAME`]: who.name, [`GIT_${kind}_EMAIL`]: who.email };
  if (who.date) env[`GIT_${kind}_DATE`] = who.date;
  return env;
}

/** Environment making `who` both author and committer unless `author` is given. */
export function commitEnv(committer: Identity, author: Identity = committer): Record<string, string> {
  return { ...identityEnv("AUTHOR", author), ...identityEnv("COMMITTER", committer) };
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

/**
 * Three-way merges `theirs` into `ours` as `git merge` would (ort; merge base found by git,
 * recursive for criss-cross histories) and writes the result tree, without a working tree:
 * `git merge-tree --write-tree -z --name-only --no-messages ours theirs`. Exit 0 clean, 1
 * conflicted. Errors: MergeError for unrelated histories or unknown commits.
 */
export async function mergeTree(gitDir: string, ours: string, theirs: string): Promise<MergeTreeResult> {
  const r = await runGit(["merge-tree", "--write-tree", "-z", "--name-only", "--no-messages", sha(ours, "ours"), sha(theirs, "theirs")], {
    gitDir,
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

/** `[behindBy, aheadBy]`: `git rev-list --left-right --count target...head`. */
export async function aheadBehind(gitDir: string, targetTip: string, head: string): Promise<{ aheadBy: number; behindBy: number }> {
  const r = await runGit(["rev-list", "--left-right", "--count", `${sha(targetTip, "target")}...${sha(head, "head")}`], { gitDir });
  if (r.code !== 0) throw mergeTreeFailure(r.stderr);
  const [behind, ahead] = r.stdout.toString().trim().split(/\s+/).map(Number);
  return { aheadBy: ahead ?? 0, behindBy: behind ?? 0 };
}

/**
 * Mergeability of `head` into `targetTip`: mergeTree and aheadBehind, run in parallel (two git
 * processes). Errors: MergeError (see mergeTree).
 */
export async function checkMerge(gitDir: string, targetTip: string, head: string): Promise<MergeCheck> {
  const [merged, counts] = await Promise.all([mergeTree(gitDir, targetTip, head), aheadBehind(gitDir, targetTip, head)]);
  return { ...merged, ...counts };
}

/** The best common ancestor of `a` and `b` (`git merge-base`), or null when unrelated. */
export async function mergeBase(gitDir: string, a: string, b: string): Promise<string | null> {
  const r = await runGit(["merge-base", sha(a, "a"), sha(b, "b")], { gitDir });
  const out = r.stdout.toString().trim();
  return r.code === 0 && SHA_RE.test(out) ? out : null;
}

/** True when commit `a` is an ancestor of (or equal to) `b` (`git merge-base --is-ancestor`). */
export async function isAncestor(gitDir: string, a: string, b: string): Promise<boolean> {
  const r = await runGit(["merge-base", "--is-ancestor", sha(a, "a"), sha(b, "b")], { gitDir });
  return r.code === 0;
}

/** One commit of a range, for messages (squash list, `fixes #N` scanning, Co-authored-by). */
export interface RangeCommit {
  sha: string;
  authorName: string;
  authorEmail: string;
  /** Full message (subject, blank line, body), trailing newline removed. */
  message: string;
}

/** Commits listed at most by `commitsInRange`. */
export const MAX_RANGE_COMMITS = 250;

/**
 * Commits reachable from `head` and not from `base`, oldest first (`git rev-list --reverse
 * base..head`), at most `limit` (the oldest ones); messages cut at 64 KiB each.
 */
export async function commitsInRange(gitDir: string, base: string, head: string, limit = MAX_RANGE_COMMITS): Promise<RangeCommit[]> {
  const out = await runGit(
    ["log", "-z", "--reverse", "--topo-order", "--format=%H%x01%an%x01%ae%x01%B", `${sha(base, "base")}..${sha(head, "head")}`],
    { gitDir, maxBytes: 16 * 1024 * 1024 },
  );
  if (out.code !== 0) throw new Error(`git log failed: ${out.stderr.trim()}`);
  const records = out.stdout
    .toString("utf8")
    .split("\0")
    .filter((r) => r.length > 0)
    .slice(0, limit);
  return records.map((rec) => {
    const [s, authorName, authorEmail, ...rest] = rec.split("\x01");
    return {
      sha: s!,
      authorName: authorName ?? "",
      authorEmail: authorEmail ?? "",
      message: rest.join("\x01").replace(/\n+$/, "").slice(0, 65536),
    };
  });
}

/**
 * Writes a commit object (`git commit-tree <tree> -p …`, message on stdin) and returns its sha.
 * The commit is not referenced by any ref until `casUpdateRef`.
 */
export async function commitTree(
  gitDir: string,
  input: { tree: string; parents: string[]; message: string; author: Identity; committer: Identity },
): Promise<string> {
  const args = ["commit-tree", sha(input.tree, "tree")];
  for (const p of input.parents) args.push("-p", sha(p, "parent"));
  const message = input.message.endsWith("\n") ? input.message : `${input.message}\n`;
  const out = (await gitText(args, { gitDir, input: message, env: commitEnv(input.committer, input.author) })).trim();
  if (!SHA_RE.test(out)) throw new Error("git commit-tree printed no sha");
  return out;
}

/**
 * The merge commit of strategy "merge" (`git merge --no-ff`): the merged tree of head into
 * targetTip, parents [targetTip, head], author and committer `committer`. Returns null plus the
 * conflicts when the merge does not apply cleanly.
 */
export async function createMergeCommit(
  gitDir: string,
  input: { targetTip: string; head: string; message: string; committer: Identity },
): Promise<{ sha: string } | { conflicts: string[] }> {
  const merged = await mergeTree(gitDir, input.targetTip, input.head);
  if (merged.conflicts.length) return { conflicts: merged.conflicts };
  return {
    sha: await commitTree(gitDir, {
      tree: merged.tree,
      parents: [input.targetTip, input.head],
      message: input.message,
      author: input.committer,
      committer: input.committer,
    }),
  };
}

/**
 * The commit of strategy "squash" (`git merge --squash` then `git commit`): one commit on
 * targetTip whose tree is the merged tree, authored by `author` (the pull request's author),
 * committed by `committer`.
 */
export async function createSquashCommit(
  gitDir: string,
  input: { targetTip: string; head: string; message: string; author: Identity; committer: Identity },
): Promise<{ sha: string } | { conflicts: string[] }> {
  const merged = await mergeTree(gitDir, input.targetTip, input.head);
  if (merged.conflicts.length) return { conflicts: merged.conflicts };
  return {
    sha: await commitTree(gitDir, {
      tree: merged.tree,
      parents: [input.targetTip],
      message: input.message,
      author: input.author,
      committer: input.committer,
    }),
  };
}

function checkRef(ref: string): void {
  userArg(ref, "ref");
  if (!ref.startsWith("refs/") || !isValidRefName(ref)) throw new MergeError(`"${ref}" is not a valid ref name`);
}

/**
 * Moves `ref` from `oldSha` to `newSha` atomically (`git update-ref -m <reason> <ref> <new>
 * <old>`; git-update-ref(1): "verifies that the current value of the ref matches <old-value>").
 * `oldSha` null creates the ref (it must not exist). Returns false when the ref no longer points
 * to `oldSha` (someone else moved it): nothing changed.
 */
export async function casUpdateRef(gitDir: string, ref: string, newSha: string, oldSha: string | null, reason: string): Promise<boolean> {
  checkRef(ref);
  const r = await runGit(["update-ref", "-m", reason, ref, sha(newSha, "new"), oldSha === null ? "0".repeat(40) : sha(oldSha, "old")], {
    gitDir,
  });
  return r.code === 0;
}

/** Deletes `ref` only while it points to `oldSha` (`git update-ref -d <ref> <old>`). False when it moved or is gone. */
export async function casDeleteRef(gitDir: string, ref: string, oldSha: string): Promise<boolean> {
  checkRef(ref);
  const r = await runGit(["update-ref", "-d", ref, sha(oldSha, "old")], { gitDir });
  return r.code === 0;
}
