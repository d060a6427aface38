/**
 * issues.bulkUpdate (extension, docs/issues.md "Bulk edit"): one change applied to up to
 * BULK_MAX issues of one repository in one transaction — the issue list's bulk-edit bar and its
 * keyboard pickers. Every issue goes through the same writers as the single-issue procedures
 * (applyFields for status/priority/assignee/due date/estimate, applyStatus for close/reopen,
 * labelIssueTx/unlabelIssueTx for labels, moveIssuesToPlan for project and cycle as projects.addIssue), so
 * each issue gets exactly the activity entries its own update would have written, and a refusal
 * on any issue (unknown number, label cap) rolls back the whole batch.
 */
import { z } from "zod";
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { uuid } from "@/server/validation/ids";
import { issueCore, issueByNumber } from "./core";
import { labelIssueTx, unlabelIssueTx } from "./labels";
import { moveIssuesToPlan } from "./plan-move";
import { queryIssues } from "./query";
import { dueDate, estimate, issueNumber, priority, status } from "./schemas";
import type { IssueView } from "./shapes";
import { applyStatus, statusBeforeClose } from "./status";
import { applyFields } from "./update-issue";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

/** Most issues one bulkUpdate changes. */
export const BULK_MAX = 100;

const labelIds = (field: string) =>
  z.array(uuid(`${field}[]`), { error: `${field} must be a list of label ids` }).max(50, `at most 50 ${field}`);

/** issues.bulkUpdate's input (without the tier's repoId). */
export const bulkUpdateInput = z.object({
  numbers: z
    .array(issueNumber("numbers[]"), { error: "numbers must be a list of issue numbers" })
    .min(1, "numbers must name at least one issue")
    .max(BULK_MAX, `at most ${BULK_MAX} issues at once`),
  patch: z
    .object(
      {
        status: status.optional(),
        priority: priority.optional(),
        /** null unassigns. */
        assigneeId: uuid("assigneeId").nullable().optional(),
        /** null clears it. */
        dueDate: dueDate.nullable().optional(),
        /** null clears it. */
        estimate: estimate.nullable().optional(),
        addLabels: labelIds("addLabels").optional(),
        removeLabels: labelIds("removeLabels").optional(),
        /** null takes the issues out of their project. */
        projectId: uuid("projectId").nullable().optional(),
        /** null takes the issues out of their cycle. */
        cycleId: uuid("cycleId").nullable().optional(),
        /** closed closes (status done), open reopens (to the status before closing). */
        state: z.enum(["open", "closed"], { error: "state must be open or closed" }).optional(),
      },
      { error: "patch must be an object" },
    )
    .refine((p) => p.status === undefined || p.state === undefined, { message: "give status or state, not both", path: ["state"] })
    .refine((p) => Object.values(p).some((v) => v !== undefined), { message: "patch must change something" }),
});
export type BulkUpdateInput = z.input<typeof bulkUpdateInput>;

/**
 * issues.bulkUpdate {numbers (1–100), patch} → the issues, by number, as they are after the
 * change. Write permission (the router's access row, as for the single updates). NOT_FOUND
 * naming the first number that is not an issue of the repository, or for a label, project, cycle
 * of another repository, or an assignee who cannot read it; BAD_REQUEST when an issue would carry
 * more than 50 labels. All or nothing: one transaction.
 */
export async function bulkUpdateIssues(db: Db, actor: Actor, repo: Repo, raw: BulkUpdateInput): Promise<IssueView[]> {
  const { numbers: given, patch } = bulkUpdateInput.parse(raw);
  const numbers = [...new Set(given)].sort((a, b) => a - b);
  const labelIdsWanted = [...new Set([...(patch.addLabels ?? []), ...(patch.removeLabels ?? [])])];
  return inTransaction(db, async (tx) => {
    const issues = await tx.issue.findMany({
      where: { repoId: repo.id, number: { in: numbers } },
      select: { ...issueCore, projectId: true, cycleId: true },
      orderBy: { number: "asc" },
    });
    if (issues.length !== numbers.length) {
      const missing = numbers.find((n) => !issues.some((i) => i.number === n))!;
      await issueByNumber(tx, repo.id, missing); // throws NOT_FOUND with the usual wording
    }
    const labels = labelIdsWanted.length
      ? await tx.label.findMany({ where: { repoId: repo.id, id: { in: labelIdsWanted } }, select: { id: true, name: true } })
      : [];
    if (labels.length !== labelIdsWanted.length) throw new AppError("NOT_FOUND", "label not found");
    const label = (id: string) => labels.find((l) => l.id === id)!;
    if (patch.projectId && !(await tx.project.findFirst({ where: { id: patch.projectId, repoId: repo.id }, select: { id: true } }))) {
      throw new AppError("NOT_FOUND", "project not found");
    }
    if (patch.cycleId && !(await tx.cycle.findFirst({ where: { id: patch.cycleId, repoId: repo.id }, select: { id: true } }))) {
      throw new AppError("NOT_FOUND", "cycle not found");
    }
    for (const issue of issues) {
      const { status: to, priority: p, assigneeId, dueDate: due, estimate: points } = patch;
      await applyFields(tx, actor, repo, issue, { status: to, priority: p, assigneeId, dueDate: due, estimate: points });
      if (patch.state === "closed" && issue.state === "open") await applyStatus(tx, actor, issue, "done");
      if (patch.state === "open" && issue.state === "closed") await applyStatus(tx, actor, issue, await statusBeforeClose(tx, issue.id));
      for (const id of patch.addLabels ?? []) await labelIssueTx(tx, actor, repo, issue, label(id));
      for (const id of patch.removeLabels ?? []) await unlabelIssueTx(tx, actor, repo, issue, label(id));
    }
    const ids = issues.map((i) => i.id);
    if (patch.projectId !== undefined) await moveIssuesToPlan(tx, actor, repo.id, "project", issues, patch.projectId);
    if (patch.cycleId !== undefined) await moveIssuesToPlan(tx, actor, repo.id, "cycle", issues, patch.cycleId);
    return queryIssues(tx, { repoId: repo.id, ids }, [{ field: "number", direction: "asc" }]);
  });
}
