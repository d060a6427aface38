/**
 * Undo of a triage action (the triage queue's Undo toast, docs/ui.md "Pages"), through the existing
 * procedures, so the activity log records both the action and its undo:
 * - accept: `updateStatus` back to triage, and `updatePriority` back if accepting changed it;
 * - decline: `updateStatus` back to triage (reopens it) and `deleteComment` of the "Rejected in
 *   triage: …" comment the decline posted (the newest such comment);
 * - duplicate: `updateStatus` back to triage and `removeRelation` of the `duplicates` relation.
 * Errors (e.g. someone moved the issue meanwhile: no longer what the action left) propagate.
 */
import type { useTRPCClient } from "@/components/trpc/provider";
import type { Issue } from "./model";

type Client = ReturnType<typeof useTRPCClient>;

/** What was done to `issue` (as it was in the queue, before the action). */
export type TriageAction =
  { kind: "accept"; issue: Issue } | { kind: "decline"; issue: Issue } | { kind: "duplicate"; issue: Issue; canonicalNumber: number };

/** Undoes `action` on the server (see above); throws the first failing procedure's error. */
export async function undoTriage(client: Client, repoId: string, action: TriageAction): Promise<void> {
  const base = { repoId, number: action.issue.number };
  await client.issues.updateStatus.mutate({ ...base, status: "triage" });
  if (action.kind === "accept") {
    const now = await client.issues.get.query(base);
    if (now.priority !== action.issue.priority) await client.issues.updatePriority.mutate({ ...base, priority: action.issue.priority });
  } else if (action.kind === "decline") {
    const comments = await client.issues.comments.query(base);
    const reason = [...comments].reverse().find((c) => c.body.startsWith("Rejected in triage: "));
    if (reason) await client.issues.deleteComment.mutate({ commentId: reason.id });
  } else {
    await client.issues.removeRelation.mutate({
      repoId,
      type: "duplicates",
      sourceNumber: action.issue.number,
      targetNumber: action.canonicalNumber,
    });
  }
}
