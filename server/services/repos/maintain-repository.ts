/**
 * Repository maintenance (docs/performance.md "Hardening II, item 13"; like Gitea's "git gc"
 * cron): the `repos.maintenance` job runs `git gc --auto` with a prune grace period
 * (server/git/maintenance.ts) on one repository and removes object quarantines a killed process
 * left (server/git/quarantine.ts). It is queued
 *   - after every SVC_GIT_GC_PUSHES-th push to a repository counted by this process
 *     (`queueMaintenanceAfterPush`, called by update-branch.ts `recordBranchUpdates`), and
 *   - for every repository by the daily `repos.maintenanceSweep` job, which queues its own next
 *     run (`scheduleMaintenanceSweep` starts the chain when the server starts).
 * One at a time per repository: the job's singleton key drops a second waiting job, this
 * process never runs two gcs of one repository, and git's `gc.pid` keeps other processes out.
 *
 * A repository with forks is never pruned (`--prune=never`; it is still packed): its forks borrow
 * its objects through alternates (server/git/forks.ts), and an object unreachable from the
 * parent's refs (a force-pushed branch) may still be reachable from a fork's, which the parent's
 * prune cannot see (git-clone(1) `--shared`).
 */
import type { Db } from "@/server/db";
import { enqueue } from "@/server/jobs";
import { REPO_MAINTENANCE, REPO_MAINTENANCE_SWEEP } from "@/server/jobs/names";
import { collectGarbage, countObjects, PRUNE_EXPIRE_RE, PRUNE_NEVER, type GcOutcome, type ObjectCounts } from "@/server/git/maintenance";
import { removeStaleQuarantines } from "@/server/git/quarantine";
import { neverPruneForForks } from "@/server/git/forks";
import { repoGitDir } from "@/server/git/paths";

/** Maintenance settings (README "Configuration"). */
export interface MaintenanceSettings {
  /** Pushes to one repository (counted per process) that queue a maintenance run; 0 = only the daily sweep. */
  pushesPerRun: number;
  /** Loose unreachable objects younger than this survive a gc (git's approxidate, PRUNE_EXPIRE_RE). */
  pruneExpire: string;
}

export const DEFAULT_MAINTENANCE: MaintenanceSettings = { pushesPerRun: 20, pruneExpire: "2.weeks.ago" };

/** SVC_GIT_GC_PUSHES (0–100000, else 20) and SVC_GIT_PRUNE_EXPIRE ("now" or "<n>.<unit>.ago", else "2.weeks.ago"). */
export function maintenanceSettingsFromEnv(env: Record<string, string | undefined> = process.env): MaintenanceSettings {
  const pushes = env.SVC_GIT_GC_PUSHES?.trim();
  const expire = env.SVC_GIT_PRUNE_EXPIRE?.trim();
  return {
    pushesPerRun: pushes && /^\d{1,6}$/.test(pushes) && Number(pushes) <= 100_000 ? Number(pushes) : DEFAULT_MAINTENANCE.pushesPerRun,
    pruneExpire: expire && PRUNE_EXPIRE_RE.test(expire) ? expire : DEFAULT_MAINTENANCE.pruneExpire,
  };
}

/** What one maintenance run did: "gone" when the repository no longer exists. */
export interface MaintenanceRun {
  outcome: GcOutcome | "gone";
  /** Object counts before and after (equal when gc found nothing to do or was busy). */
  before?: ObjectCounts;
  after?: ObjectCounts;
  /** Quarantine directories of killed processes that were removed. */
  staleQuarantines: string[];
}

/**
 * The `repos.maintenance` job: stale quarantines removed, then `git gc --auto --prune=<expire>`
 * (`settings.pruneExpire`, default from the environment; "never" when the repository has forks)
 * on repository `repoId`. A deleted repository is not an error ("gone"). Safe to run twice (jobs
 * are delivered at least once). Errors: a plain Error when git fails (the job is retried).
 */
export async function maintainRepository(
  db: Db,
  repoId: string,
  settings: Pick<MaintenanceSettings, "pruneExpire"> = maintenanceSettingsFromEnv(),
): Promise<MaintenanceRun> {
  const repo = await db.repository.findUnique({
    where: { id: repoId },
    select: { name: true, owner: { select: { username: true } }, _count: { select: { forks: true } } },
  });
  if (!repo) return { outcome: "gone", staleQuarantines: [] };
  const gitDir = repoGitDir(repo.owner.username, repo.name);
  const staleQuarantines = await removeStaleQuarantines(gitDir);
  const before = await countObjects(gitDir);
  if (repo._count.forks > 0) await neverPruneForForks(gitDir);
  const outcome = await collectGarbage(gitDir, repo._count.forks > 0 ? PRUNE_NEVER : settings.pruneExpire);
  return { outcome, before, after: await countObjects(gitDir), staleQuarantines };
}

/** Pushes per repository counted by this process since its last maintenance was queued. */
const pushCounts = new Map<string, number>();

/**
 * Counts one push to repository `repoId`; every `pushesPerRun`-th queues `repos.maintenance`
 * (singleton per repository). Never throws (a failed enqueue is logged; the daily sweep follows).
 */
export async function queueMaintenanceAfterPush(repoId: string, pushesPerRun = maintenanceSettingsFromEnv().pushesPerRun): Promise<void> {
  if (pushesPerRun <= 0) return;
  const n = (pushCounts.get(repoId) ?? 0) + 1;
  if (n < pushesPerRun) {
    pushCounts.set(repoId, n);
    return;
  }
  pushCounts.delete(repoId);
  await enqueue(REPO_MAINTENANCE, { repoId }, { singletonKey: repoId }).catch((e) =>
    console.error(`queueing maintenance of repository ${repoId} failed`, e),
  );
}

/** A day (ms): the sweep's period. */
export const SWEEP_PERIOD_MS = 24 * 60 * 60 * 1000;
/** Repositories read per page by the sweep. */
const SWEEP_PAGE = 500;

/**
 * Queues the daily sweep at `runAt` unless one is already waiting (singleton "daily"): the server
 * calls it at start (in an hour), the sweep itself for its next run (in a day). Errors: database
 * errors (the job was not stored).
 */
export async function scheduleMaintenanceSweep(runAt = new Date(Date.now() + 60 * 60 * 1000)): Promise<void> {
  await enqueue(REPO_MAINTENANCE_SWEEP, {}, { singletonKey: "daily", runAt });
}

/**
 * The `repos.maintenanceSweep` job: queues its next run (a day later), then `repos.maintenance`
 * for every repository (paged by id; a repository with a maintenance job already waiting is
 * skipped by its singleton key). Returns the number of jobs queued. Errors: database errors.
 */
export async function sweepRepositories(db: Db): Promise<number> {
  await scheduleMaintenanceSweep(new Date(Date.now() + SWEEP_PERIOD_MS));
  let queued = 0;
  let after: string | undefined;
  for (;;) {
    const page = await db.repository.findMany({
      select: { id: true },
      orderBy: { id: "asc" },
      take: SWEEP_PAGE,
      ...(after ? { where: { id: { gt: after } } } : {}),
    });
    for (const r of page) if (await enqueue(REPO_MAINTENANCE, { repoId: r.id }, { singletonKey: r.id })) queued++;
    if (page.length < SWEEP_PAGE) return queued;
    after = page[page.length - 1]!.id;
  }
}
