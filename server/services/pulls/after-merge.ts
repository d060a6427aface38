/**
 * What happens after a merge (docs/pulls.md "After a merge"), in the merge's own
 * transaction: issues named by a closing keyword are closed, and pull requests stacked on the
 * merged source branch are retargeted (restack).
 *
 * Closing keywords are GitHub's ("Linking a pull request to an issue"): close, closes, closed,
 * fix, fixes, fixed, resolve, resolves, resolved, case-insensitive, optionally followed by ":",
 * then `#N` (this repository) or `owner/name#N` (another repository the merger can write).
 */
import { recordPullEvent } from "./events";
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { authorizeRepo } from "@/server/services/repos/access";
import { issueCore, recordActivity } from "@/server/services/issues/core";
import type { Tx } from "@/server/db/transaction";
import { applyStatus } from "@/server/services/issues/status";

/** A closing reference: `repo` null means the pull request's own repository. */
export interface ClosingRef {
  repo: { owner: string; name: string } | null;
  number: number;
}

/** Distinct closing references anywhere in `texts`, in order of appearance; at most `limit`. */
export function parseClosingRefs(texts: string[], limit = 100): ClosingRef[] {
  const re = /(?<![\w/])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+(?:([A-Za-z0-9][\w.-]*)\/([\w.-]+))?#(\d{1,9})(?![\w])/gi;
  const seen = new Set<string>();
  const out: ClosingRef[] = [];
  for (const text of texts) {
    for (const m of text.matchAll(re)) {
      const repo = m[1] && m[2] ? { owner: m[1], name: m[2] } : null;
      const key = `${repo ? `${repo.owner}/${repo.name}`.toLowerCase() : ""}#${m[3]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ repo, number: Number(m[3]) });
      if (out.length >= limit) return out;
    }
  }
  return out;
}

/** An issue to close: repository id and number. */
export interface IssueTarget {
  repoId: string;
  number: number;
}

/**
 * Resolves closing references to repositories: `#N` is `repo`; `owner/name#N` is kept only when
 * the actor can write that repository (authorizeRepo at level write: permission and token scope;
 * anything else is skipped silently, as GitHub ignores references it cannot act on).
 */
export async function resolveClosingRefs(
  db: Db,
  actor: Actor,
  repo: { id: string; owner: string; name: string },
  refs: ClosingRef[],
): Promise<IssueTarget[]> {
  const out: IssueTarget[] = [];
  const repoIds = new Map<string, string | null>();
  for (const ref of refs) {
    if (
      !ref.repo ||
      (ref.repo.owner.toLowerCase() === repo.owner.toLowerCase() && ref.repo.name.toLowerCase() === repo.name.toLowerCase())
    ) {
      out.push({ repoId: repo.id, number: ref.number });
      continue;
    }
    const key = `${ref.repo.owner}/${ref.repo.name}`.toLowerCase();
    if (!repoIds.has(key)) {
      try {
        repoIds.set(key, (await authorizeRepo(db, actor, { owner: ref.repo.owner, name: ref.repo.name }, "write")).id);
      } catch {
        repoIds.set(key, null);
      }
    }
    const id = repoIds.get(key);
    if (id) out.push({ repoId: id, number: ref.number });
  }
  return out;
}

/**
 * Closes the open issues among `targets` (a number that is a pull request, or no issue, is
 * skipped): status done (issues' own close: status_changed entries), plus an activity entry
 * status_changed with field "pull_request" and newValue "<owner>/<name>#<number>" naming the
 * merged pull request. Returns the closed issues' ids.
 */
export async function closeReferencedIssues(tx: Tx, actor: Actor, pullRef: string, targets: IssueTarget[]): Promise<string[]> {
  const closed: string[] = [];
  for (const t of targets) {
    const issue = await tx.issue.findUnique({ where: { repoId_number: { repoId: t.repoId, number: t.number } }, select: issueCore });
    if (!issue || issue.state !== "open") continue;
    await applyStatus(tx, actor, issue, "done");
    await recordActivity(tx, issue, actor, [{ action: "status_changed", field: "pull_request", oldValue: null, newValue: pullRef }]);
    closed.push(issue.id);
  }
  return closed;
}

/**
 * Restack: open pull requests of `repoId` whose target branch is the merged pull request's
 * source branch now target the merged pull request's target branch, with baseSha the new tip;
 * each gets a `base_changed` event {from, to}. Only when the merged source branch lives in the
 * same repository (a fork's branch cannot be a target here). Returns the retargeted ids.
 */
export async function restackChildren(
  tx: Tx,
  actor: Actor,
  merged: { id: string; repoId: string; sourceRepoId: string; sourceBranch: string; targetBranch: string },
  newTip: string,
): Promise<string[]> {
  if (merged.sourceRepoId !== merged.repoId) return [];
  const children = await tx.pullRequest.findMany({
    where: { repoId: merged.repoId, state: "open", targetBranch: merged.sourceBranch, id: { not: merged.id } },
    select: { id: true },
  });
  for (const c of children) {
    await tx.pullRequest.update({ where: { id: c.id }, data: { targetBranch: merged.targetBranch, baseSha: newTip } });
    await recordPullEvent(
      tx,
      c.id,
      "base_changed",
      { from: merged.sourceBranch, to: merged.targetBranch, reason: "restack" },
      actor.user.id,
    );
  }
  return children.map((c) => c.id);
}
