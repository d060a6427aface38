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
 * Rule: a leftover is stale when it was last modified before this process started and at least
 * `MIN_AGE_MS` ago. Git processes of this process are younger than the process, so they are
 * never touched; another svc process sharing DATA_DIR could only lose a lock it took just before
 * this one started and still holds seconds later, which git's ref updates never do (their locks
 * live for milliseconds).
 */
import { readdir, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";

/** Time this process started (ms since the epoch). */
const PROCESS_START_MS = Date.now() - process.uptime() * 1000;

/** A leftover must be at least this old (ms) to be removed. */
const MIN_AGE_MS = 5_000;

/** Lock files of the repository's top directory that a ref update or config write takes. */
const TOP_LOCKS = ["packed-refs.lock", "HEAD.lock", "config.lock", "shallow.lock"];

/** Push quarantine directories (git's tmp-objdir.c: "tmp_objdir-incoming-XXXXXX"; "incoming-XXXXXX" before git 2.33). */
const QUARANTINE = /^(tmp_objdir-)?incoming-[A-Za-z0-9]{6}$/;

/** Repositories already cleaned by this process (one pass per repository per process). */
const cleaned = new Map<string, Promise<string[]>>();

function isStale(mtimeMs: number, now: number): boolean {
  return mtimeMs < PROCESS_START_MS && now - mtimeMs >= MIN_AGE_MS;
}

async function mtime(p: string): Promise<number | null> {
  return stat(p).then((s) => s.mtimeMs, () => null);
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

async function sweep(gitDir: string): Promise<string[]> {
  const now = Date.now();
  const removed: string[] = [];
  const locks = [...TOP_LOCKS.map((f) => path.join(gitDir, f)), ...(await refLocks(path.join(gitDir, "refs")))];
  for (const file of locks) {
    const m = await mtime(file);
    if (m !== null && isStale(m, now)) {
      await unlink(file).catch(() => {});
      removed.push(path.relative(gitDir, file));
    }
  }
  const objects = path.join(gitDir, "objects");
  for (const name of await readdir(objects).catch(() => [] as string[])) {
    if (!QUARANTINE.test(name)) continue;
    const dir = path.join(objects, name);
    if (isStale(await newestMtime(dir), now)) {
      await rm(dir, { recursive: true, force: true });
      removed.push(path.relative(gitDir, dir));
    }
  }
  if (removed.length > 0) console.warn(`svc: removed what a killed git left in ${gitDir}: ${removed.join(", ")}`);
  return removed;
}

/**
 * Removes stale lock files (`refs/**\/*.lock`, `packed-refs.lock`, `HEAD.lock`, `config.lock`,
 * `shallow.lock`) and stale push quarantines (`objects/tmp_objdir-incoming-*`) of the bare repository
 * `gitDir`, once per repository per process (later calls return the first call's answer).
 * Resolves to the removed paths, relative to `gitDir`. Never throws: an unreadable file is left
 * as it is (git then reports it).
 */
export function clearStaleGitLeftovers(gitDir: string): Promise<string[]> {
  let done = cleaned.get(gitDir);
  if (!done) {
    done = sweep(gitDir).catch(() => []);
    cleaned.set(gitDir, done);
  }
  return done;
}
