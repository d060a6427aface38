/**
 * The `pulls.refreshAfterPush` job (server/jobs/handlers.ts; docs/pulls.md "Pushes"): what a
 * push means for the pull requests into or out of the branch it moved, beyond the new heads
 * (after-push.ts moves those before the push answers). One job per (repository, branch), however
 * many pull requests target it: a push to `main` with 1,000 open pull requests costs the push
 * one enqueue, and this job
 *   1. reads the open pull requests into or out of the branch — one query per REFRESH_PAGE
 *      (plus the one loading their repositories) — and their cached mergeability rows (one query);
 *   2. per target branch, reads its tip from the ref files and checks every pull request whose
 *      cached row is not for (that tip, its head) with `checkMerges` (server/git/merge-batch.ts:
 *      one `merge-tree --stdin` (git ≥ 2.39) in an object quarantine, else a bounded pool of merge-tree processes, plus
 *      one ahead/behind count each);
 *   3. a head the target already contains is "merged outside svc" (after-push.ts
 *      `markMergedExternally`: event "merged", one guarded transaction each — rare);
 *   4. the other answers are cached in this process and in PullRequestMergeability in one
 *      transaction (two statements per WRITE_CHUNK rows), then each pull request's page is told ("mergeability"
 *      live notice) to re-read its merge box;
 *   5. the pull requests with auto-merge get their `pulls.autoMerge` job (run-auto-merge.ts);
 *   6. the diffs of at most WARM_MAX of them are warmed (the pushed branch's own pull requests
 *      first, then the most recently updated): the diff cache holds 32 ranges, so warming every
 *      pull request into `main` would only evict each other.
 * Idempotent (jobs are delivered at least once): it reads the current tips and heads, and a pull
 * request whose cached row is already current costs nothing (no git, no notice).
 */
import type { Db } from "@/server/db";
import { inTransaction } from "@/server/db/transaction";
import { AppError } from "@/server/errors";
import { warmThreeDot } from "@/server/git/diff";
import { MergeError } from "@/server/git/merge";
import { checkMerges } from "@/server/git/merge-batch";
import { repoGitDir } from "@/server/git/paths";
import { branchTips } from "@/server/git/ref-files";
import { WARM_TIMEOUT_MS } from "@/server/services/diff/warm-pull-diff";
import { mapPool } from "@/lib/map-pool";
import { markMergedExternally } from "./after-push";
import { notifyPull } from "./events";
import { mergeabilityOf, rememberMergeability, type Mergeability } from "./mergeability";
import { queueAutoMerge } from "./auto-merge";

/** Open pull requests read per query; the job pages through all of them. */
export const REFRESH_PAGE = 1000;
/** Cache rows written per statement: 9 values each, under SQLite's 999 bound variables per statement. */
const WRITE_CHUNK = 100;
/** Diffs warmed per job (the diff metadata cache holds 32 ranges, server/git/diff.ts). */
export const WARM_MAX = 8;

/** What one run did (tests and logs). */
export interface RefreshSummary {
  /** Open pull requests into or out of the branch. */
  pulls: number;
  /** Of those, checked with git (the others' cached answer was current, or the target branch is gone). */
  checked: number;
  /** Marked merged outside svc. */
  merged: number;
  /** Diffs warmed. */
  warmed: number;
}

const pullSelect = {
  id: true,
  repoId: true,
  sourceRepoId: true,
  sourceBranch: true,
  targetBranch: true,
  headSha: true,
  updatedAt: true,
  autoMergeStrategy: true,
  repo: { select: { name: true, owner: { select: { username: true } } } },
} as const;

type Pull = Awaited<ReturnType<typeof readPage>>[number];

function readPage(db: Db, repoId: string, branch: string, after: string | null) {
  return db.pullRequest.findMany({
    where: {
      state: "open",
      OR: [
        { repoId, targetBranch: branch },
        { sourceRepoId: repoId, sourceBranch: branch },
      ],
      ...(after ? { id: { gt: after } } : {}),
    },
    select: pullSelect,
    orderBy: { id: "asc" },
    take: REFRESH_PAGE,
  });
}

interface Computed {
  pr: Pull;
  gitDir: string;
  tip: string;
  answer: Mergeability;
}

/**
 * Runs the job for branch `branch` of repository `repoId` (the branch moved or was deleted;
 * `actorId`, the pusher or null, is the actor of "merged" events). Errors: database errors of
 * the reads propagate (the job is retried); git failures of single pull requests and a failed
 * cache write are logged and skipped (the page then computes that answer itself).
 */
export async function refreshPullsAfterPush(
  db: Db,
  repoId: string,
  branch: string,
  actorId: string | null = null,
): Promise<RefreshSummary> {
  const summary: RefreshSummary = { pulls: 0, checked: 0, merged: 0, warmed: 0 };
  const toWarm: Computed[] = [];
  for (let after: string | null = null; ;) {
    const page = await readPage(db, repoId, branch, after);
    summary.pulls += page.length;
    const computed = await refreshPage(db, page, actorId, summary);
    toWarm.push(...computed);
    if (page.length < REFRESH_PAGE) break;
    after = page[page.length - 1].id;
  }
  // the pushed branch's own pull requests first, then the most recently updated
  const own = (c: Computed) => (c.pr.sourceRepoId === repoId && c.pr.sourceBranch === branch ? 0 : 1);
  toWarm.sort((a, b) => own(a) - own(b) || b.pr.updatedAt.getTime() - a.pr.updatedAt.getTime());
  const warmed = await mapPool(toWarm.slice(0, WARM_MAX), 2, (c) =>
    warmThreeDot(c.gitDir, c.tip, c.pr.headSha, { timeoutMs: WARM_TIMEOUT_MS }).catch((e) => {
      if (!(e instanceof AppError)) console.error(`warming the diff of pull request ${c.pr.id} failed`, e);
      return false;
    }),
  );
  summary.warmed = warmed.filter(Boolean).length;
  return summary;
}

/** Steps 1–5 for one page of pull requests; returns the answers computed (the candidates for warming). */
async function refreshPage(db: Db, page: Pull[], actorId: string | null, summary: RefreshSummary): Promise<Computed[]> {
  if (page.length === 0) return [];
  const cached = new Map(
    (
      await db.pullRequestMergeability.findMany({
        where: { pullRequestId: { in: page.map((p) => p.id) } },
        select: { pullRequestId: true, baseTip: true, headSha: true, aheadBy: true },
      })
    ).map((r) => [r.pullRequestId, r]),
  );
  const groups = new Map<string, Pull[]>();
  for (const pr of page) {
    const key = `${pr.repoId}\0${pr.targetBranch}`;
    groups.set(key, [...(groups.get(key) ?? []), pr]);
  }
  const computed: Computed[] = [];
  const merged: { pr: Pull; tip: string }[] = [];
  const gone: Pull[] = [];
  for (const pulls of groups.values()) {
    const { repo, targetBranch } = pulls[0];
    const gitDir = repoGitDir(repo.owner.username, repo.name);
    const tip = (await branchTips(gitDir, [targetBranch]).catch(() => new Map<string, string>())).get(targetBranch) ?? null;
    if (!tip) {
      gone.push(...pulls); // the target branch is gone: the merge box says so, nothing to compute
      continue;
    }
    const todo: Pull[] = [];
    for (const pr of pulls) {
      const row = cached.get(pr.id);
      if (row?.baseTip !== tip || row.headSha !== pr.headSha) todo.push(pr);
      else if (row.aheadBy === 0) merged.push({ pr, tip }); // answered before, not recorded (a run cut short)
    }
    const outcomes = await checkMerges(
      gitDir,
      todo.map((pr) => ({ targetTip: tip, head: pr.headSha })),
    );
    summary.checked += todo.length;
    outcomes.forEach((outcome, i) => {
      const pr = todo[i];
      if (outcome instanceof Error && !(outcome instanceof MergeError)) {
        console.error(`checking the mergeability of pull request ${pr.id} failed`, outcome);
        return;
      }
      if (!(outcome instanceof Error) && outcome.aheadBy === 0) {
        merged.push({ pr, tip });
        return;
      }
      const answer = mergeabilityOf(outcome);
      rememberMergeability(pr.id, tip, pr.headSha, answer);
      computed.push({ pr, gitDir, tip, answer });
    });
  }
  await saveRows(db, computed);
  for (const { pr, tip } of merged) {
    // the head is in the target: merged outside svc (guarded: a pull request that moved meanwhile stays)
    if (await markMergedExternally(db, pr.id, pr.headSha, tip, actorId).catch((e) => void console.error(e))) summary.merged++;
  }
  for (const pr of [...computed.map((c) => c.pr), ...gone]) notifyPull(db, pr.id, "mergeability", null);
  // the push may have met the last requirement (up to date, a new head with its statuses): auto-merge decides
  const mergedIds = new Set(merged.map((m) => m.pr.id));
  queueAutoMerge(
    db,
    page.filter((pr) => pr.autoMergeStrategy && !mergedIds.has(pr.id)).map((pr) => pr.id),
  );
  return computed;
}

/**
 * Writes the PullRequestMergeability rows of `computed` in one transaction: a delete and an insert
 * per WRITE_CHUNK rows. A failure is logged: the rows are only a cache.
 */
async function saveRows(db: Db, computed: Computed[]): Promise<void> {
  if (computed.length === 0) return;
  const checkedAt = new Date();
  const data = computed.map(({ pr, tip, answer }) => ({
    pullRequestId: pr.id,
    baseTip: tip,
    headSha: pr.headSha,
    canMerge: answer.canMerge,
    conflicts: JSON.stringify(answer.conflicts),
    aheadBy: answer.aheadBy,
    behindBy: answer.behindBy,
    error: answer.error ?? null,
    checkedAt,
  }));
  try {
    await inTransaction(db, async (tx) => {
      for (let i = 0; i < data.length; i += WRITE_CHUNK) {
        const chunk = data.slice(i, i + WRITE_CHUNK);
        await tx.pullRequestMergeability.deleteMany({ where: { pullRequestId: { in: chunk.map((d) => d.pullRequestId) } } });
        await tx.pullRequestMergeability.createMany({ data: chunk });
      }
    });
  } catch (e) {
    console.error(`caching the mergeability of ${data.length} pull requests failed`, e);
  }
}
