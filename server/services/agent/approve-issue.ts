/**
 * Approving a proposed issue (pm mode may propose issues; docs/agent.md "Proposed changes and
 * approval"). The issue is created through the issue service (`createIssue`) as the APPROVING user
 * — author and activity are theirs, with their permission and token scope — never by the model. No
 * commit is made. Order: claim the change (pending → approved, guarded on "still pending", so two
 * approvals cannot both create it), create the issue, record its number; when creating fails (an
 * AppError such as the issue-creation rate limit), the change goes back to pending with the reason,
 * and the result says `success: false`.
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { createIssue } from "@/server/services/issues/create-issue";
import type { AuthorizedRepo } from "@/server/services/repos/access";

export interface IssueApproval {
  success: boolean;
  message: string;
  issueNumber?: number;
}

/** Creates the issue of the pending change `change` (type "issue"); never throws for an AppError of the issue service. */
export async function approveIssueChange(
  db: Db,
  actor: Actor,
  repo: AuthorizedRepo,
  change: { id: string; title: string | null; content: string | null },
): Promise<IssueApproval> {
  const claimed = await db.proposedChange.updateMany({
    where: { id: change.id, status: "pending" },
    data: { status: "approved", reason: null },
  });
  if (claimed.count !== 1) return { success: false, message: "the change was approved or rejected meanwhile" };
  try {
    const issue = await createIssue(db, actor, repo, {
      title: change.title ?? "Untitled",
      ...(change.content ? { body: change.content } : {}),
    });
    await db.proposedChange.update({ where: { id: change.id }, data: { issueNumber: issue.number } });
    return { success: true, message: `created issue #${issue.number}`, issueNumber: issue.number };
  } catch (e) {
    const message =
      e instanceof AppError ? `the issue was not created: ${e.message}` : "the issue was not created: an internal error occurred";
    await db.proposedChange.updateMany({
      where: { id: change.id, status: "approved", issueNumber: null },
      data: { status: "pending", reason: message },
    });
    if (!(e instanceof AppError)) throw e;
    return { success: false, message };
  }
}
