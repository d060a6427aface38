/**
 * Leftovers of git processes killed with SIGKILL (a crash of svc, an OOM kill of its process
 * group): git removes its lock files and its push quarantine on exit and on SIGTERM, but not
 * when it is killed outright (git's lockfile.c and tmp-objdir.c clean up in atexit and signal
 * handlers). A stale `refs/heads/main.lock` makes every later push to `main` fail with
 * "cannot lock ref … File exists" until someone removes it by hand (measured with git 2.39; the
 * message tells the user to), and an `objects/tmp_objdir-incoming-*` push quarantine holds up to a
 * whole pushed pack until a `git gc` prunes it, two weeks later (gc.pruneExpire), if gc ever
 * runs. docs/performance.md "Crash recovery".
 *
 * Rules. A lock file is stale when it was last modified before this process started: git
 * processes of this process are younger, and ref locks live for milliseconds, so even another
 * svc process sharing DATA_DIR no longer holds one this process's first push finds (svc takes
 * seconds to start). A quarantine lives as long as its push (minutes), so it must also be idle
 * for `QUARANTINE_IDLE_MS`; a younger one is left for a later push to look at again.
 */
import { readdir, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";

/** Time this process started (ms since the epoch). */
const PROCESS_START_MS = Date.now() - process.uptime() * 1000;

/** A quarantine must have been idle this long (ms) to be removed (no file in it written since). */
const QUARANTINE_IDLE_MS = 30_000;

/** Lock files of the repository's top directory that a ref update or config write takes. */
const TOP_LOCKS = ["packed-refs.lock", "HEAD.lock", "config.lock", "shallow.lock"];

/** Push quarantine directories (git's tmp-objdir.c: "tmp_objdir-incoming-XXXXXX"; "incoming-XXXXXX" before git 2.33). */
const QUARANTINE = /^(tmp_objdir-)?incoming-[A-Za-z0-9]{6}$/;

/** Repositories already cleaned by this process (one pass per repository per process). */
const cleaned = new Map<string, Promise<string[]>>();

interface Sweep {
  removed: string[];
  /** A leftover too young to judge was found: look again at a later push. */
  again: boolean;
}

async function mtime(p: string): Promise<number | null> {
  return stat(p).then(
    (s) => s.mtimeMs,
    () => null,
  );
}

/** `*.lock` files anywhere under `dir` (the loose refs). */
async function refLocks(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && e.name.endsWith(".lock")).map((e) => path.join(e.parentPath, e.name));
}

/** Newest mtime of a quarantine directory and everything in it (a live push keeps writing). */
async function newestMtime(dir: string): Promise<number> {
  let newest = (await mtime(dir)) ?? 0;
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const e of entries) newest = Math.max(newest, (await mtime(path.join(e.parentPath, e.name))) ?? 0);
  return newest;
}

async function sweep(gitDir: string): Promise<Sweep> {
  const now = Date.now();
  const result: Sweep = { removed: [], again: false };
  // turbopackIgnore: repository paths are user data, not app files to trace into the build
  const locks = [
    ...TOP_LOCKS.map((f) => path.join(/*turbopackIgnore: true*/ gitDir, f)),
    ...(await refLocks(path.join(/*turbopackIgnore: true*/ gitDir, "refs"))),
  ];
  for (const file of locks) {
    const m = await mtime(file);
    if (m !== null && m < PROCESS_START_MS) {
      await unlink(file).catch(() => {});
      result.removed.push(path.relative(gitDir, file));
    }
  }
  const objects = path.join(gitDir, "objects");
  for (const name of await readdir(objects).catch(() => [] as string[])) {
    if (!QUARANTINE.test(name)) continue;
    const dir = path.join(objects, name);
    const newest = await newestMtime(dir);
    if (newest >= PROCESS_START_MS) continue; // a push of this process
    if (now - newest < QUARANTINE_IDLE_MS) {
      result.again = true;
      continue;
    }
    await rm(dir, { recursive: true, force: true });
    result.removed.push(path.relative(gitDir, dir));
  }
  if (result.removed.length > 0) console.warn(`svc: removed what a killed git left in ${gitDir}: ${result.removed.join(", ")}`);
  return result;
}

/**
 * Removes stale lock files (`refs/**\/*.lock`, `packed-refs.lock`, `HEAD.lock`, `config.lock`,
 * `shallow.lock`) and stale push quarantines (`objects/tmp_objdir-incoming-*`) of the bare repository
 * `gitDir` (rules in the header), once per repository per process: later calls return the first
 * call's answer, unless that pass found a quarantine too young to judge (then the next call looks again).
 * Resolves to the removed paths, relative to `gitDir`. Never throws: an unreadable file is left
 * as it is (git then reports it).
 */
export function clearStaleGitLeftovers(gitDir: string): Promise<string[]> {
  let done = cleaned.get(gitDir);
  if (!done) {
    const pass = sweep(gitDir).catch((): Sweep => ({ removed: [], again: true }));
    done = pass.then((r) => r.removed);
    cleaned.set(gitDir, done);
    void pass.then((r) => {
      if (r.again) cleaned.delete(gitDir);
    });
  }
  return done;
}
