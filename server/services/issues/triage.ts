/**
 * The triage queue (issues filed by callers with only read permission, docs/issues.md "Triage"):
 * the queue, and accepting an issue into the plan or rejecting it with a reason.
 */
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { PRIORITIES, priorityRank, type PriorityKey } from "@/lib/issues/model";
import { issueByNumber, issueViewById, recordActivity } from "./core";
import type { IssueView } from "./shapes";
import { applyStatus } from "./status";
import { queryIssues } from "./query";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

/** issues.listTriage → open issues in triage, oldest first (the queue order). */
export async function listTriage(db: Db, repo: Repo, page: { limit?: number; offset?: number } = {}): Promise<IssueView[]> {
  return queryIssues(db, { repoId: repo.id, state: "open", statuses: ["triage"] }, [{ field: "number", direction: "asc" }], {
    limit: page.limit ?? 50,
    offset: page.offset ?? 0,
  });
}

/**
 * issues.acceptTriage {number, targetStatus? (backlog), priority?} → the issue. PRECONDITION_FAILED
 * unless it is open and in triage; BAD_REQUEST for targetStatus triage. Activity status_changed
 * (+ priority_changed).
 */
export async function acceptTriage(
  db: Db,
  actor: Actor,
  repo: Repo,
  input: { number: number; targetStatus?: string; priority?: PriorityKey },
): Promise<IssueView> {
  const target = input.targetStatus ?? "backlog";
  if (target === "triage") throw new AppError("BAD_REQUEST", "targetStatus must be a status other than triage");
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, input.number);
    if (issue.state !== "open" || issue.status !== "triage")
      throw new AppError("PRECONDITION_FAILED", `#${input.number} is not awaiting triage`);
    if (input.priority !== undefined && priorityRank(input.priority) !== issue.priority) {
      await tx.issue.update({ where: { id: issue.id }, data: { priority: priorityRank(input.priority) } });
      await recordActivity(tx, issue, actor, [
        { action: "priority_changed", field: "priority", oldValue: PRIORITIES[issue.priority]?.key ?? "none", newValue: input.priority },
      ]);
    }
    await applyStatus(tx, actor, issue, target);
    return issueViewById(tx, issue);
  });
}

/**
 * issues.rejectTriage {number, reason} → the issue, closed with status canceled. The reason
 * (required, non-empty: BAD_REQUEST) is recorded as a comment by the caller ("Rejected in triage:
 * <reason>") and its `commented` activity. PRECONDITION_FAILED unless open and in triage.
 */
export async function rejectTriage(db: Db, actor: Actor, repo: Repo, input: { number: number; reason: string }): Promise<IssueView> {
  const reason = input.reason.trim();
  if (!reason) throw new AppError("BAD_REQUEST", "reason is required to reject an issue in triage");
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, input.number);
    if (issue.state !== "open" || issue.status !== "triage")
      throw new AppError("PRECONDITION_FAILED", `#${input.number} is not awaiting triage`);
    const comment = await tx.issueComment.create({
      data: { issueId: issue.id, authorId: actor.user.id, body: `Rejected in triage: ${reason}` },
      select: { id: true },
    });
    await recordActivity(tx, issue, actor, [{ action: "commented", field: "triage_rejection", newValue: comment.id }]);
    await applyStatus(tx, actor, issue, "canceled");
    return issueViewById(tx, issue);
  });
}
