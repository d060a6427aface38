/**
 * Repository maintenance (docs/performance.md "Hardening II, item 13"): packs loose objects and
 * prunes unreachable ones older than a grace period with `git gc --auto`, in the foreground, one
 * run at a time per repository. Pure git, no database; services/repos/maintain-repository.ts
 * decides when (after N pushes, daily).
 *
 * Why `git gc --auto --prune=<expire>` with `gc.autoDetach=false`:
 *   - `--auto` leaves a repository alone under git's own thresholds (gc.auto: ~6,700 loose
 *     objects, estimated from `objects/17`; gc.autoPackLimit: 50 packs), so running it often is
 *     cheap; over them it repacks (incrementally, or everything when there are too many packs),
 *     packs refs, expires reflogs and prunes loose unreachable objects older than `expire`;
 *   - in the foreground git neither consults nor leaves `gc.log`: a detached auto gc that found
 *     too many unreachable loose objects writes its warning there and then refuses to run again
 *     for a day (gc.logExpiry), printing the warning on every push; a foreground run removes it;
 *   - the grace period (`expire`) keeps objects that a concurrent push, merge or rebase wrote but
 *     has not yet referenced (git-gc(1) "NOTES"), so gc is safe beside live pushes.
 * One at a time: this process never runs two for one repository (the second call answers
 * "busy"), and git's own `gc.pid` lock keeps another process's run out (gc --auto then exits
 * quietly).
 */
import { runGit } from "./exec";

/** `git count-objects -v` of a repository. */
export interface ObjectCounts {
  /** Loose objects. */
  loose: number;
  /** Bytes of loose objects on disk. */
  looseBytes: number;
  /** Objects in packs. */
  packed: number;
  /** Pack files. */
  packs: number;
  /** Bytes of packs on disk. */
  packBytes: number;
}

/** `git count-objects -v` of bare repository `gitDir`. Errors: a plain Error when git fails. */
export async function countObjects(gitDir: string): Promise<ObjectCounts> {
  const r = await runGit(["count-objects", "-v"], { gitDir });
  if (r.code !== 0) throw new Error(`git count-objects failed (${r.code}): ${r.stderr.trim()}`);
  const v = new Map<string, number>();
  for (const line of r.stdout.toString("utf8").split("\n")) {
    const m = /^([\w-]+): (\d+)$/.exec(line.trim());
    if (m) v.set(m[1]!, Number(m[2]));
  }
  return {
    loose: v.get("count") ?? 0,
    looseBytes: (v.get("size") ?? 0) * 1024,
    packed: v.get("in-pack") ?? 0,
    packs: v.get("packs") ?? 0,
    packBytes: (v.get("size-pack") ?? 0) * 1024,
  };
}

/** A prune grace period as git's approxidate reads it for `--prune`: "now", or "<n>.<unit>.ago". */
export const PRUNE_EXPIRE_RE = /^(now|[1-9]\d{0,5}\.(second|minute|hour|day|week|month|year)s?\.ago)$/;
/** Never prune (a repository others borrow objects from): packs, keeps every unreachable object. */
export const PRUNE_NEVER = "never";

/** The outcome of `collectGarbage`: "done" (git ran; it may have found nothing to do) or "busy" (a run of this process was under way). */
export type GcOutcome = "done" | "busy";

/** Repositories with a gc of this process under way. */
const running = new Set<string>();

/** Longest a gc may run (ms): a large repository's full repack takes minutes. */
const GC_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * `git -c gc.autoDetach=false gc --auto --quiet --prune=<pruneExpire>` in bare repository `gitDir`
 * (see the module comment), unless this process already runs one there ("busy"). `pruneExpire`
 * must match PRUNE_EXPIRE_RE (e.g. "2.weeks.ago") or be PRUNE_NEVER. Errors: RangeError for another
 * expire; a plain Error when git fails (stderr included).
 */
export async function collectGarbage(gitDir: string, pruneExpire: string): Promise<GcOutcome> {
  if (pruneExpire !== PRUNE_NEVER && !PRUNE_EXPIRE_RE.test(pruneExpire))
    throw new RangeError(`prune expiry must be "now" or "<n>.<unit>.ago" (got "${pruneExpire}")`);
  if (running.has(gitDir)) return "busy";
  running.add(gitDir);
  try {
    const r = await runGit(["-c", "gc.autoDetach=false", "gc", "--auto", "--quiet", `--prune=${pruneExpire}`], {
      gitDir,
      timeoutMs: GC_TIMEOUT_MS,
    });
    if (r.code !== 0) throw new Error(`git gc failed (${r.code}): ${r.stderr.trim()}`);
    return "done";
  } finally {
    running.delete(gitDir);
  }
}
