/**
 * Object quarantine for speculative git work (docs/performance.md "Hardening II, item 13").
 * `git merge-tree --write-tree` writes every blob and tree of its result into the repository,
 * conflicted ones included, even when nobody will ever commit it: a mergeability check or a
 * conflict listing is a question, not a merge. Run such commands inside `withObjectQuarantine`:
 * git then writes new objects into a throwaway directory (`GIT_OBJECT_DIRECTORY`) and still reads
 * every object of the repository (and, through that folder's own `info/alternates`, of a fork's
 * parent) as an alternate (`GIT_ALTERNATE_OBJECT_DIRECTORIES`), the way receive-pack quarantines
 * a push (git-receive-pack(1) "QUARANTINE ENVIRONMENT"). The directory is removed when the
 * callback settles, whatever happens, so nothing the callback's git processes wrote survives.
 *
 * Every speculative `merge-tree` goes through here: pass the env the callback gets to each git
 * process of the callback (GitOptions.env), e.g.
 *
 *   await withObjectQuarantine(gitDir, (env) => runGit(["merge-tree", "--stdin", …], { gitDir, env, input }));
 *
 * A merge that is committed runs its merge-tree outside (services/pulls/merge.ts,
 * resolve-conflicts.ts), so its objects stay. Results that name a quarantined object (the merged
 * tree's id, a conflicted blob's id) must not be used after the callback returns: the objects
 * are gone.
 *
 * The directory is `objects/tmp_objdir-svc-XXXXXX`, on the repository's own filesystem; a
 * process killed before removing it leaves it to `removeStaleQuarantines` (the maintenance job)
 * or git's own prune (`git prune` removes `objects/tmp_*` older than its expiry).
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { borrowedObjectsEnv } from "./forks";

/** Name prefix of a quarantine directory inside `objects/` (git prunes `tmp_*` there itself). */
export const QUARANTINE_PREFIX = "tmp_objdir-svc-";

/** A quarantine untouched this long (ms) is a leftover of a killed process (speculative git calls time out after 60 s). */
export const STALE_QUARANTINE_MS = 60 * 60 * 1000;

/**
 * Runs `fn` with the environment of a new object quarantine of bare repository `gitDir`: every git
 * process given `env` writes new objects to the quarantine, reads the repository's (and `borrow`'s,
 * as borrowedObjectsEnv) as alternates, and may not update refs (`GIT_QUARANTINE_PATH`, as in
 * receive-pack). The quarantine is removed after `fn` settles (resolved, thrown, or its git timed
 * out). Returns what `fn` returns. Errors: `fn`'s; a plain Error when the directory cannot be made.
 */
export async function withObjectQuarantine<T>(
  gitDir: string,
  fn: (env: Record<string, string>) => Promise<T>,
  borrow: readonly string[] = [],
): Promise<T> {
  // turbopackIgnore: repository paths are user data, not app files to trace into the build
  const objects = path.resolve(/*turbopackIgnore: true*/ gitDir, "objects");
  const dir = await mkdtemp(path.join(objects, QUARANTINE_PREFIX));
  try {
    return await fn({
      GIT_OBJECT_DIRECTORY: dir,
      GIT_QUARANTINE_PATH: dir,
      ...borrowedObjectsEnv([objects, ...borrow.map((b) => path.resolve(b))]),
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Removes quarantines of `gitDir` (QUARANTINE_PREFIX) whose directory was last modified more than
 * `olderThanMs` ago: leftovers of a process killed inside `withObjectQuarantine`. Returns the
 * names removed. Never throws (an unreadable entry is left for git's prune).
 */
export async function removeStaleQuarantines(gitDir: string, olderThanMs = STALE_QUARANTINE_MS): Promise<string[]> {
  const objects = path.join(/*turbopackIgnore: true*/ gitDir, "objects");
  const removed: string[] = [];
  const now = Date.now();
  for (const name of await readdir(objects).catch(() => [] as string[])) {
    if (!name.startsWith(QUARANTINE_PREFIX)) continue;
    const dir = path.join(objects, name);
    const info = await stat(dir).catch(() => null);
    if (!info || now - info.mtimeMs <= olderThanMs) continue;
    await rm(dir, { recursive: true, force: true }).then(
      () => removed.push(name),
      () => {},
    );
  }
  return removed;
}
