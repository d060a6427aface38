/**
 * Pull request revisions (docs/pulls.md "Revisions"): one PullRequestRevision per head a pull
 * request had — revision 1 when it is opened (create-pull-request.ts), one more each time its head
 * moves (after-push.ts `moveHead`, the one place a pull request's head moves). Each revision keeps
 * its head, the merge base with the target branch at that time, and the stable patch id of the
 * diff merge base → head (server/git/patch-id.ts), so a rebase that keeps the change keeps the
 * patch id (branch-protection/stale-approvals.ts compares them).
 *
 * The git work (merge base, patch id) is done by `revisionFacts` before the caller's transaction;
 * `recordRevision` only writes the row inside it.
 *
 * Pull requests opened before revisions were recorded have none: `ensureRevisions` synthesizes
 * them once from the timeline (the "opened" event's head, then each "pushed"/"force_pushed"
 * event's `after`, with its actor and time) and stores them. Their merge bases are taken against
 * the target branch's tip at backfill time — the tip at the time of each push is not known.
 */
import type { Db, Prisma } from "@/server/db";
import { inTransaction } from "@/server/db/transaction";
import { mergeBase } from "@/server/git/commits";
import { patchIdOf } from "@/server/git/patch-id";
import { branchTips } from "@/server/git/ref-files";
import { repoGitDir } from "@/server/git/paths";

type Tx = Prisma.TransactionClient;

/** What git says about a head: its merge base with the target tip and the patch id of the diff between them (each null when git cannot tell). */
export interface RevisionFacts {
  baseSha: string | null;
  patchId: string | null;
}

/** One revision as pulls.revisions answers it. */
export interface RevisionView {
  number: number;
  headSha: string;
  baseSha: string | null;
  patchId: string | null;
  pushedAt: Date;
  pushedBy: { username: string } | null;
  forced: boolean;
}

/** At most this many revisions are listed or synthesized per pull request. */
export const MAX_REVISIONS = 1000;

/**
 * The merge base of `head` with `targetTip` (null: no tip, or unrelated histories) and the patch
 * id of the diff between them, in bare repository `gitDir`. Never throws for git failures.
 */
export async function revisionFacts(gitDir: string, targetTip: string | null | undefined, head: string): Promise<RevisionFacts> {
  const baseSha = targetTip ? await mergeBase(gitDir, targetTip, head).catch(() => null) : null;
  const patchId = baseSha ? await patchIdOf(gitDir, baseSha, head) : null;
  return { baseSha, patchId };
}

/** `revisionFacts` against the current tip of `targetBranch`. */
export async function revisionFactsOnBranch(gitDir: string, targetBranch: string, head: string): Promise<RevisionFacts> {
  const tip = (await branchTips(gitDir, [targetBranch]).catch(() => new Map<string, string>())).get(targetBranch);
  return revisionFacts(gitDir, tip, head);
}

/**
 * Writes the next revision (number = last + 1) of pull request `pullRequestId` in transaction
 * `tx`: head `headSha` with `facts`, pushed by `pushedById` (null unknown), `forced` when the old
 * head is not an ancestor of the new one. The caller's transaction is what orders concurrent
 * writers (it is guarded on the pull request's old head); the unique (pullRequestId, number)
 * makes a lost race fail the transaction rather than number twice.
 */
export async function recordRevision(
  tx: Tx,
  pullRequestId: string,
  headSha: string,
  facts: RevisionFacts,
  pushedById: string | null,
  forced: boolean,
): Promise<void> {
  const last = await tx.pullRequestRevision.findFirst({
    where: { pullRequestId },
    orderBy: { number: "desc" },
    select: { number: true },
  });
  await tx.pullRequestRevision.create({
    data: {
      pullRequestId,
      number: (last?.number ?? 0) + 1,
      headSha,
      baseSha: facts.baseSha,
      patchId: facts.patchId,
      pushedById,
      forced,
    },
  });
}

interface PastHead {
  headSha: string;
  at: Date;
  by: string | null;
  forced: boolean;
}

/** The heads pull request `id` had, oldest first, from its timeline (module comment). */
async function pastHeads(db: Db, id: string): Promise<{ heads: PastHead[]; gitDir: string; targetBranch: string } | null> {
  const pr = await db.pullRequest.findUnique({
    where: { id },
    select: {
      headSha: true,
      createdAt: true,
      authorId: true,
      targetBranch: true,
      repo: { select: { name: true, owner: { select: { username: true } } } },
    },
  });
  if (!pr) return null;
  const events = await db.pullRequestEvent.findMany({
    where: { pullRequestId: id, type: { in: ["opened", "pushed", "force_pushed"] } },
    orderBy: { id: "asc" },
    select: { type: true, data: true, actorId: true, createdAt: true },
    take: MAX_REVISIONS,
  });
  const heads: PastHead[] = [];
  for (const e of events) {
    let data: { headSha?: unknown; before?: unknown; after?: unknown } = {};
    try {
      data = JSON.parse(e.data) as typeof data;
    } catch {
      continue;
    }
    if (e.type === "opened") {
      if (typeof data.headSha === "string" && heads.length === 0)
        heads.push({ headSha: data.headSha, at: e.createdAt, by: e.actorId, forced: false });
      continue;
    }
    if (typeof data.after !== "string") continue;
    if (heads.length === 0 && typeof data.before === "string")
      heads.push({ headSha: data.before, at: pr.createdAt, by: pr.authorId, forced: false });
    heads.push({ headSha: data.after, at: e.createdAt, by: e.actorId, forced: e.type === "force_pushed" });
  }
  if (heads.length === 0) heads.push({ headSha: pr.headSha, at: pr.createdAt, by: pr.authorId, forced: false });
  return { heads, gitDir: repoGitDir(pr.repo.owner.username, pr.repo.name), targetBranch: pr.targetBranch };
}

/**
 * Makes sure pull request `id` has revisions: when it has none, synthesizes them from its
 * timeline (module comment) and stores them in one transaction that writes only if there still
 * are none (a concurrent backfill or push wins; its rows stay). The git work runs before the
 * transaction. Errors: database errors propagate.
 */
export async function ensureRevisions(db: Db, id: string): Promise<void> {
  if (await db.pullRequestRevision.findFirst({ where: { pullRequestId: id }, select: { id: true } })) return;
  const past = await pastHeads(db, id);
  if (!past) return;
  const tip = (await branchTips(past.gitDir, [past.targetBranch]).catch(() => new Map<string, string>())).get(past.targetBranch);
  const facts: RevisionFacts[] = [];
  for (const h of past.heads) facts.push(await revisionFacts(past.gitDir, tip, h.headSha));
  await inTransaction(db, async (tx) => {
    if (await tx.pullRequestRevision.findFirst({ where: { pullRequestId: id }, select: { id: true } })) return;
    for (const [i, h] of past.heads.entries()) {
      await tx.pullRequestRevision.create({
        data: {
          pullRequestId: id,
          number: i + 1,
          headSha: h.headSha,
          baseSha: facts[i].baseSha,
          patchId: facts[i].patchId,
          pushedAt: h.at,
          pushedById: h.by,
          forced: h.forced,
        },
      });
    }
  }).catch(async (e: unknown) => {
    // a concurrent writer stored revisions first (unique number): theirs stand
    if (await db.pullRequestRevision.findFirst({ where: { pullRequestId: id }, select: { id: true } })) return;
    throw e;
  });
}

/**
 * pulls.revisions: the revisions of pull request `id`, oldest first (at most MAX_REVISIONS),
 * synthesized from its timeline first when it has none (`ensureRevisions`). The caller has read
 * access (the procedure tier).
 */
export async function listRevisions(db: Db, id: string): Promise<RevisionView[]> {
  await ensureRevisions(db, id);
  const rows = await db.pullRequestRevision.findMany({
    where: { pullRequestId: id },
    orderBy: { number: "asc" },
    take: MAX_REVISIONS,
    select: {
      number: true,
      headSha: true,
      baseSha: true,
      patchId: true,
      pushedAt: true,
      forced: true,
      pushedBy: { select: { username: true } },
    },
  });
  return rows.map((r) => ({ ...r, pushedBy: r.pushedBy ? { username: r.pushedBy.username } : null }));
}

/**
 * The patch id pull request `id` had at head `sha`: the latest revision with that head, else
 * computed against the current tip of `targetBranch` in `gitDir`; null when git cannot tell.
 */
export async function patchIdAtHead(db: Db, gitDir: string, id: string, targetBranch: string, sha: string): Promise<string | null> {
  const rev = await db.pullRequestRevision.findFirst({
    where: { pullRequestId: id, headSha: sha },
    orderBy: { number: "desc" },
    select: { patchId: true },
  });
  if (rev) return rev.patchId;
  return (await revisionFactsOnBranch(gitDir, targetBranch, sha)).patchId;
}

/**
 * Whether a review made at head `reviewedSha` is stale at pull request `id`'s head `headSha`
 * (docs/pulls.md "Revisions"): not when it is that head, nor when the latest revision of each
 * head has the same non-null patch id (a rebase or an empty commit kept the change); stale
 * otherwise — also when a head has no revision (the comparison falls back to the commits). One
 * query for all of `reviewedShas`; returns the predicate.
 */
export async function staleReviewCheck(
  db: Db,
  id: string,
  headSha: string,
  reviewedShas: string[],
): Promise<(reviewedSha: string) => boolean> {
  const shas = [...new Set([headSha, ...reviewedShas])];
  const rows =
    shas.length > 1
      ? await db.pullRequestRevision.findMany({
          where: { pullRequestId: id, headSha: { in: shas } },
          orderBy: { number: "asc" },
          select: { headSha: true, patchId: true },
        })
      : [];
  const patchOf = new Map(rows.map((r) => [r.headSha, r.patchId])); // the latest revision of a head wins
  const now = patchOf.get(headSha) ?? null;
  return (reviewedSha) => reviewedSha !== headSha && (now === null || patchOf.get(reviewedSha) !== now);
}
