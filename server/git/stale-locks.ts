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
 * Rules. Ages are measured on the filesystem's own clock — a file's mtime is stamped by the
 * machine that holds the files (the NFS server, for a shared DATA_DIR), not by the svc process
 * that wrote it — so a probe file is written beside the leftovers and its mtime taken as "now";
 * this process's clock is never compared with an mtime (another host's may differ by minutes).
 * Nothing depends on when this process started: another svc process sharing DATA_DIR may hold a
 * lock, or be killed and leave one, at any time.
 * - A lock file is stale when it is LOCK_STALE_MS old. git holds its ref, HEAD, packed-refs,
 *   config and shallow locks for milliseconds (and itself waits at most 1 s for another git's:
 *   core.packedRefsTimeout), so 10 s is ten times git's own patience; a younger lock makes the
 *   next push look again, so a push refused by a just-killed git's lock is followed by one that
 *   is not.
 * - A quarantine is stale when nothing in it was written for `quarantineIdleMs` (default
 *   QUARANTINE_STALE_MS): longer than a live push can sit idle before svc stops its git (the
 *   caller passes its limit: server/http/git/http-limits.ts processIdleMs plus the kill grace).
 *   Quarantines only hold disk space, so a younger one waits for the next look.
 * A repository is looked at on the first push of this process and again RESWEEP_MS later (a
 * lock left by another process killed after this one looked).
 */
import { randomBytes } from "node:crypto";
import { readdir, rm, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

/** A lock file this old (ms, on the filesystem's clock) is a leftover of a killed git. */
export const LOCK_STALE_MS = 10_000;
/** Default: a quarantine idle this long (ms, on the filesystem's clock) is a leftover of a killed push. */
export const QUARANTINE_STALE_MS = 15 * 60_000;
/** A repository already looked at is looked at again on a push this long (ms) after. */
const RESWEEP_MS = 10 * 60_000;

/** Lock files of the repository's top directory that a ref update or config write takes. */
const TOP_LOCKS = ["packed-refs.lock", "HEAD.lock", "config.lock", "shallow.lock"];

/** Push quarantine directories (git's tmp-objdir.c: "tmp_objdir-incoming-XXXXXX"; "incoming-XXXXXX" before git 2.33). */
const QUARANTINE = /^(tmp_objdir-)?incoming-[A-Za-z0-9]{6}$/;

/** Repositories looked at by this process: when (performance.now(), ms: monotonic) and the answer. */
const cleaned = new Map<string, { at: number; done: Promise<string[]> }>();

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

/**
 * "Now" on the clock of the filesystem holding `gitDir` (ms since the epoch): the mtime of a
 * probe file created there and removed at once. This process's clock when the file cannot be
 * written (git then could not take its locks there either).
 */
async function filesystemNow(gitDir: string): Promise<number> {
  const probe = path.join(/*turbopackIgnore: true*/ gitDir, `svc-clock-${randomBytes(6).toString("hex")}`);
  try {
    await writeFile(probe, "", { flag: "wx" });
    return (await stat(probe)).mtimeMs;
  } catch {
    return Date.now();
  } finally {
    await unlink(probe).catch(() => {});
  }
}

async function sweep(gitDir: string, quarantineIdleMs: number): Promise<Sweep> {
  const result: Sweep = { removed: [], again: false };
  let now: number | undefined; // the filesystem's, read once there is something to judge
  // turbopackIgnore: repository paths are user data, not app files to trace into the build
  const locks = [
    ...TOP_LOCKS.map((f) => path.join(/*turbopackIgnore: true*/ gitDir, f)),
    ...(await refLocks(path.join(/*turbopackIgnore: true*/ gitDir, "refs"))),
  ];
  for (const file of locks) {
    const m = await mtime(file);
    if (m === null) continue;
    now ??= await filesystemNow(gitDir);
    if (now - m < LOCK_STALE_MS) {
      result.again = true; // held now, or left a moment ago: look again at the next push
      continue;
    }
    await unlink(file).catch(() => {});
    result.removed.push(path.relative(gitDir, file));
  }
  const objects = path.join(gitDir, "objects");
  for (const name of await readdir(objects).catch(() => [] as string[])) {
    if (!QUARANTINE.test(name)) continue;
    const dir = path.join(objects, name);
    const newest = await newestMtime(dir);
    now ??= await filesystemNow(gitDir);
    if (now - newest < quarantineIdleMs) continue; // a live push, or not idle long enough yet
    await rm(dir, { recursive: true, force: true });
    result.removed.push(path.relative(gitDir, dir));
  }
  if (result.removed.length > 0) console.warn(`svc: removed what a killed git left in ${gitDir}: ${result.removed.join(", ")}`);
  return result;
}

/**
 * Removes stale lock files (`refs/**\/*.lock`, `packed-refs.lock`, `HEAD.lock`, `config.lock`,
 * `shallow.lock`) and stale push quarantines (`objects/tmp_objdir-incoming-*`) of the bare
 * repository `gitDir` (rules in the header). Looks once per repository per RESWEEP_MS: calls in
 * between return that pass's answer, unless it found a lock too young to judge (then the next
 * call looks again). `quarantineIdleMs`: how long a live push may leave its quarantine untouched
 * (default QUARANTINE_STALE_MS). Resolves to the removed paths, relative to `gitDir`. Never
 * throws: an unreadable file is left as it is (git then reports it).
 */
export function clearStaleGitLeftovers(gitDir: string, quarantineIdleMs = QUARANTINE_STALE_MS): Promise<string[]> {
  const seen = cleaned.get(gitDir);
  if (seen && performance.now() - seen.at < RESWEEP_MS) return seen.done;
  const pass = sweep(gitDir, quarantineIdleMs).catch((): Sweep => ({ removed: [], again: true }));
  const entry = { at: performance.now(), done: pass.then((r) => r.removed) };
  cleaned.set(gitDir, entry);
  void pass.then((r) => {
    if (r.again && cleaned.get(gitDir) === entry) cleaned.delete(gitDir);
  });
  return entry.done;
}
