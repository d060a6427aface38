/**
 * Strategy "rebase" (docs/pulls.md "Merge strategies"): the head's commits replayed
 * onto the target tip exactly as `git rebase <targetTip>` run on the head would (same commits
 * dropped: merges, clean cherry-picks of target commits, commits that become empty; same trees
 * and order; authors and author dates kept; committer = the merger). git 2.39 has neither `git
 * replay` nor `merge-tree --merge-base`, so the replay runs `git rebase` itself in a throwaway
 * detached worktree under `workRoot` (outside the bare repository), which is always removed,
 * whatever happens. No branch of the repository moves: the worktree's HEAD is detached, and the
 * caller moves the target branch by compare-and-swap afterwards.
 */
import { randomUUID } from "node:crypto";
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
 * outside the bare repository (DATA_DIR/tmp) where the throwaway worktree lives. Returns the new
 * tip (equal to `targetTip` when every commit was dropped), or the conflict: the original commit
 * that did not apply and its unmerged paths. Errors: MergeError when git cannot start the rebase.
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
  const name = `rebase-${randomUUID()}`;
  const dir = path.join(input.workRoot, name);
  const env = commitEnv(input.committer);
  try {
    const add = await worktreeAdmin(gitDir, async () => {
      await sweepStale(gitDir, input.workRoot);
      return runGit([...REBASE_CONFIG, "worktree", "add", "--detach", "--quiet", dir, input.head], { gitDir, timeoutMs: 300_000 });
    });
    if (add.code !== 0) throw new Error(`git worktree add failed: ${add.stderr.trim()}`);
    const rebase = await runGit([...REBASE_CONFIG, "rebase", "--quiet", "--no-autostash", input.targetTip], {
      cwd: dir,
      env,
      timeoutMs: 600_000,
    });
    if (rebase.code === 0) {
      const tip = (await runGit(["rev-parse", "HEAD"], { cwd: dir })).stdout.toString().trim();
      if (!SHA_RE.test(tip)) throw new Error("git rebase left no HEAD");
      return { sha: tip };
    }
    const stopped = (await runGit(["rev-parse", "--verify", "--quiet", "REBASE_HEAD"], { cwd: dir })).stdout.toString().trim();
    const unmerged = await runGit(["diff", "--name-only", "-z", "--diff-filter=U"], { cwd: dir });
    const paths = unmerged.stdout
      .toString("utf8")
      .split("\0")
      .filter((p) => p.length > 0);
    if (!SHA_RE.test(stopped)) throw new MergeError(`git rebase failed: ${rebase.stderr.trim().split("\n")[0] ?? rebase.code}`);
    return { conflict: { commit: stopped, paths } };
  } finally {
    await worktreeAdmin(gitDir, () => removeWorktree(gitDir, dir, name));
  }
}

/** The tail of each repository's queue of worktree administration (add, remove, prune). */
const adminQueues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` (a `git worktree add`, `remove` or `prune` of `gitDir`) after the repository's
 * earlier ones in this process have finished. git's worktree administration is not safe beside
 * itself: `worktree add` reads every other worktree's record, and one half-written by a
 * concurrent add or remove fails it ("failed to read …/commondir"; seen with 20 concurrent
 * merges on a loaded machine). The rebases themselves still run side by side.
 */
async function worktreeAdmin<T>(gitDir: string, fn: () => Promise<T>): Promise<T> {
  const previous = adminQueues.get(gitDir) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => {});
  adminQueues.set(gitDir, tail);
  try {
    return await run;
  } finally {
    if (adminQueues.get(gitDir) === tail) adminQueues.delete(gitDir);
  }
}

/** Removes the worktree folder and its administrative folder in the bare repository (worktrees/<name>). */
async function removeWorktree(gitDir: string, dir: string, name: string): Promise<void> {
  const r = await runGit(["worktree", "remove", "--force", "--force", dir], { gitDir });
  if (r.code !== 0) {
    await rm(dir, { recursive: true, force: true });
    await rm(path.join(gitDir, "worktrees", name), { recursive: true, force: true });
  }
}

/** Worktrees older than this (ms) under workRoot are leftovers of a crashed process. */
const STALE_MS = 60 * 60 * 1000;

/**
 * Removes what a crashed rebase left: folders under `workRoot` not touched for STALE_MS, then
 * `git worktree prune` drops the bare repository's records of worktrees whose folder is gone
 * (safe beside a concurrent `worktree add`, which holds its record locked while it starts).
 */
async function sweepStale(gitDir: string, workRoot: string): Promise<void> {
  const now = Date.now();
  for (const entry of await readdir(workRoot)) {
    if (!entry.startsWith("rebase-")) continue;
    const dir = path.join(workRoot, entry);
    const info = await stat(dir).catch(() => null);
    if (info && now - info.mtimeMs > STALE_MS) await rm(dir, { recursive: true, force: true });
  }
  await runGit(["worktree", "prune"], { gitDir });
}
