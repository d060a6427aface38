/**
 * pulls.compareRevisions (docs/pulls.md "Interdiff"): what changed in a pull request's change
 * between two of its revisions, leaving out what came from the target branch moving.
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { interdiff, type Interdiff, type InterdiffRevisions } from "@/server/git/interdiff";
import { diffFilterInput, diffOptions } from "@/server/services/diff/filter";
import type { LfsDiffSource } from "@/server/services/lfs/lfs-diff";
import { withLfsDiffs } from "@/server/services/lfs/lfs-diff-shapes";
import { pullLfsSource } from "@/server/services/diff/pull-range";
import { ensureRevisions, MAX_REVISIONS } from "./revisions";

const revisionNumber = (name: string) =>
  z
    .number({ error: `${name} must be a revision number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`)
    .max(MAX_REVISIONS, `${name} must be at most ${MAX_REVISIONS}`);

/** {from, to, path?, paths?, maxLines?} beside the pull request locator (prId). */
export const compareRevisionsInput = { from: revisionNumber("from"), to: revisionNumber("to"), ...diffFilterInput };

/** One end of the comparison. */
export interface RevisionEnd {
  number: number;
  headSha: string;
  baseSha: string;
}

/** The interdiff (pulls.getDiff's shape plus how it was computed, server/git/interdiff.ts) and its two revisions. */
export type RevisionComparison = Interdiff & { fromRevision: RevisionEnd; toRevision: RevisionEnd };

/**
 * The interdiff of pull request `prId` from revision `from` to revision `to` (numbers as
 * pulls.revisions lists them; revisions are backfilled from the timeline first if the pull request
 * has none): the old change replayed onto the new merge base, diffed against the new head
 * (server/git/interdiff.ts), so a rebase that changed nothing in the change answers `empty: true`.
 * `from` may be greater than `to` (the change undone). Filters and `maxLines` as pulls.getDiff;
 * Git LFS pointer files shown as their objects, as pulls.getDiff shows them (docs/lfs.md "In the
 * browser"; the objects this repository or the pull request's source references). Errors: NOT_FOUND (no such revision),
 * PRECONDITION_FAILED (a revision without a merge base with the target: unrelated histories),
 * CONFLICT (a revision's commit is gone from the repository).
 */
export async function compareRevisions(
  db: Db,
  repo: AuthorizedRepo,
  prId: string,
  input: { from: number; to: number; path?: string; paths?: string[]; maxLines?: number },
): Promise<RevisionComparison> {
  const [[a, b], lfs] = await Promise.all([revisionEnds(db, prId, input.from, input.to), lfsSource(db, repo, prId)]);
  const { path, paths, maxLines } = input;
  const diff = await onRevisions(a, b, () =>
    interdiff(repo.gitDir, interdiffRevisions(a, b), diffOptions({ path, paths, maxLines }), (d) => withLfsDiffs(db, lfs, d)),
  );
  return { ...diff, fromRevision: a, toRevision: b };
}

/**
 * Revisions `from` and `to` of pull request `prId` (backfilled from the timeline first if it has
 * none). Errors: NOT_FOUND (no such revision), PRECONDITION_FAILED (a revision without a merge base).
 */
export async function revisionEnds(db: Db, prId: string, from: number, to: number): Promise<[RevisionEnd, RevisionEnd]> {
  await ensureRevisions(db, prId);
  const rows = await db.pullRequestRevision.findMany({
    where: { pullRequestId: prId, number: { in: [from, to] } },
    select: { number: true, headSha: true, baseSha: true },
  });
  const end = (n: number): RevisionEnd => {
    const r = rows.find((x) => x.number === n);
    if (!r) throw new AppError("NOT_FOUND", `this pull request has no revision ${n}`);
    if (!r.baseSha) throw new AppError("PRECONDITION_FAILED", `revision ${n} has no merge base with the target branch`);
    return { number: r.number, headSha: r.headSha, baseSha: r.baseSha };
  };
  return [end(from), end(to)];
}

/**
 * Where the interdiff's blobs live and whose LFS objects it shows, as pulls.getDiff: the
 * repository's and, for a pull request from a fork, the source's (services/diff/pull-range.ts
 * `pullLfsSource`; docs/lfs.md "Forks"). One query. Errors: NOT_FOUND (no such pull request in `repo`).
 */
export async function lfsSource(db: Db, repo: AuthorizedRepo, prId: string): Promise<LfsDiffSource> {
  const pr = await db.pullRequest.findFirst({ where: { id: prId, repoId: repo.id }, select: { sourceRepoId: true } });
  if (!pr) throw new AppError("NOT_FOUND", "pull request not found");
  return pullLfsSource(repo, pr);
}

/** The git layer's revisions for the interdiff from revision `a` to revision `b`. */
export const interdiffRevisions = (a: RevisionEnd, b: RevisionEnd): InterdiffRevisions => ({
  oldBase: a.baseSha,
  oldHead: a.headSha,
  newBase: b.baseSha,
  newHead: b.headSha,
});

/** Runs `read` (a git read of the interdiff a → b); a git failure (a commit gone) becomes CONFLICT. */
export async function onRevisions<T>(a: RevisionEnd, b: RevisionEnd, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError("CONFLICT", `a commit of revision ${a.number} or ${b.number} is no longer in the repository`);
  }
}
