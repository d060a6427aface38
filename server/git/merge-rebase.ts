/**
 * Strategy "rebase" (docs/pulls.md "Merge strategies"): the head's commits replayed
 * onto the target tip exactly as `git rebase <targetTip>` run on the head would (same commits
 * dropped: merges, clean cherry-picks of target commits, commits that become empty; same trees
 * and order; authors and author dates kept; committer = the merger). git 2.39 has neither `git
 * replay` nor `merge-tree --merge-base`, so the replay runs `git rebase` itself in a throwaway
 * repository of its own under `workRoot` (outside the bare repository), which is always removed,
 * whatever happens. That repository has its own HEAD, index and rebase state but no object store:
 * its git processes read and write the bare repository's (`GIT_OBJECT_DIRECTORY`, git(1); a
 * fork's parent through that folder's own alternates), so the new commits land where the caller's
 * compare-and-swap needs them, and nothing of the bare repository but its objects is touched. Two
 * rebases of one repository — in one process or in several — share nothing but the object store,
 * which git writes safely side by side (each object to a temporary file, then renamed), so nothing
 * needs serializing (docs/architecture.md "Locks across processes"; `git worktree add` would write
 * the repository's worktrees/ records, which concurrent adds and removes corrupt). No branch of
 * the repository moves: the caller moves the target branch by compare-and-swap afterwards.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { runGit } from "./exec";
import { SHA_RE } from "@/lib/sha";
import { commitEnv, type Identity } from "./commits";
import { MergeError } from "./merge";

/** The outcome of a rebase: the new tip, or the commit that stopped and its conflicting paths. */
export type RebaseResult = { sha: string } | { conflict: { commit: string; paths: string[] } };

/** Configuration that keeps the repository's own settings (hooks, autostash, signing, gc) out of the replay. */
const REBASE_CONFIG = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "rebase.autoStash=false",
  "-c",
  "rebase.autoSquash=false",
  "-c",
  "rebase.updateRefs=false",
  "-c",
  "rebase.backend=merge",
  "-c",
  "commit.gpgSign=false",
  "-c",
  "gc.auto=0",
  "-c",
  "core.autocrlf=false",
  "-c",
  "advice.detachedHead=false",
];

/**
 * Replays `targetTip..head` onto `targetTip` (`git rebase targetTip` with HEAD detached at
 * `head`) with committer `committer` (name, email, optional date). `workRoot` is a directory
 * outside the bare repository (DATA_DIR/tmp/merge) where the throwaway repository lives. Returns
 * the new tip (equal to `targetTip` when every commit was dropped), or the conflict: the original
 * commit that did not apply and its unmerged paths. Errors: MergeError when git cannot start the
 * rebase; a plain Error when the throwaway repository cannot be made.
 */
export async function rebaseOnto(
  gitDir: string,
  input: { targetTip: string; head: string; committer: Identity; workRoot: string },
): Promise<RebaseResult> {
  for (const [k, v] of [
    ["targetTip", input.targetTip],
    ["head", input.head],
  ] as const)
    if (!SHA_RE.test(v)) throw new MergeError(`${k} is not a full commit sha`);
  await mkdir(input.workRoot, { recursive: true });
  await sweepStale(gitDir, input.workRoot);
  const dir = path.join(input.workRoot, `rebase-${randomUUID()}`);
  // the throwaway repository: its own .git (HEAD, index, rebase state), the bare repository's objects
  const git = (args: string[], timeoutMs = 60_000, extra: Record<string, string> = {}) =>
    runGit([...REBASE_CONFIG, ...args], {
      cwd: dir,
      timeoutMs,
      env: {
        ...extra,
        GIT_DIR: path.join(dir, ".git"),
        GIT_WORK_TREE: dir,
        GIT_OBJECT_DIRECTORY: path.resolve(/*turbopackIgnore: true*/ gitDir, "objects"),
      },
    });
  try {
    const init = await runGit(["init", "--quiet", "--template=", dir]);
    if (init.code !== 0) throw new Error(`git init failed: ${init.stderr.trim()}`);
    const checkout = await git(["checkout", "--quiet", "--detach", input.head], 300_000);
    if (checkout.code !== 0) throw new Error(`git checkout failed: ${checkout.stderr.trim()}`);
    const rebase = await git(["rebase", "--quiet", "--no-autostash", input.targetTip], 600_000, commitEnv(input.committer));
    if (rebase.code === 0) {
      const tip = (await git(["rev-parse", "HEAD"])).stdout.toString().trim();
      if (!SHA_RE.test(tip)) throw new Error("git rebase left no HEAD");
      return { sha: tip };
    }
    const stopped = (await git(["rev-parse", "--verify", "--quiet", "REBASE_HEAD"])).stdout.toString().trim();
    const unmerged = await git(["diff", "--name-only", "-z", "--diff-filter=U"]);
    const paths = unmerged.stdout
      .toString("utf8")
      .split("\0")
      .filter((p) => p.length > 0);
    if (!SHA_RE.test(stopped)) throw new MergeError(`git rebase failed: ${rebase.stderr.trim().split("\n")[0] ?? rebase.code}`);
    return { conflict: { commit: stopped, paths } };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Throwaway repositories older than this (ms) under workRoot are leftovers of a crashed process. */
const STALE_MS = 60 * 60 * 1000;

/**
 * Removes what a crashed rebase left: folders under `workRoot` not touched for STALE_MS; and when
 * the bare repository still has worktree records (worktrees/, made by rebases of earlier svc
 * versions, which used `git worktree add`), `git worktree prune` drops those whose folder is gone.
 * Never throws.
 */
async function sweepStale(gitDir: string, workRoot: string): Promise<void> {
  const now = Date.now();
  for (const entry of await readdir(workRoot).catch(() => [] as string[])) {
    if (!entry.startsWith("rebase-")) continue;
    const dir = path.join(workRoot, entry);
    const info = await stat(dir).catch(() => null);
    if (info && now - info.mtimeMs > STALE_MS) await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
  if (existsSync(path.join(gitDir, "worktrees"))) await runGit(["worktree", "prune"], { gitDir }).catch(() => {});
}
