/**
 * issues.create: number, status (backlog or triage by the caller's permission), template,
 * labels, project, cycle, parent and assignee, all in one transaction with its activity.
 * Rules: docs/issues.md; field shapes: spec "Issue".
 */
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { atLeast, type AuthorizedRepo } from "@/server/services/repos/access";
import { priorityRank, stateForStatus, type PriorityKey } from "@/lib/issues/model";
import { issueByNumber, issueViewById, recordActivity, requireActor } from "./core";
import type { IssueView } from "./shapes";
import { endOfColumn } from "./status";
import { createInput, type CreateIssueInput } from "./schemas";
import { takeIssueCreation } from "./limits";
import { assertCanRead, labelIdsByName } from "./references";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

/**
 * Fields that place an issue in the team's plan or change other issues: a caller with only read
 * permission (or a repo:read token) files into triage and may not set them (docs/issues.md
 * "Triage"). They are refused, not kept as a proposal: whoever accepts the issue
 * sets them.
 */
export const TRIAGE_REFUSED_FIELDS = ["status", "assigneeId", "parentNumber", "project", "cycle", "estimate"] as const;

/** FORBIDDEN naming the fields a read-only caller may not set on a new issue, if any are given. */
function assertTriageInput(input: Partial<Record<(typeof TRIAGE_REFUSED_FIELDS)[number], unknown>>): void {
  const given = TRIAGE_REFUSED_FIELDS.filter((f) => input[f] !== undefined && input[f] !== null);
  if (given.length) {
    throw new AppError(
      "FORBIDDEN",
      `setting ${given.join(", ")} needs write permission; issues you file go to triage, where a maintainer plans them`,
    );
  }
}

/**
 * issues.create. Status: backlog for callers with write permission (an explicit `status` may
 * override), triage for callers with only read permission, who may not set status, assignee,
 * parent, project, cycle or estimate (FORBIDDEN, see TRIAGE_REFUSED_FIELDS). `templateId` fills title/body/labels/priority where the input leaves them out.
 * `labels` are label names of the repository (BAD_REQUEST for unknown ones). `project` (name),
 * `cycle` (number), `parentNumber` and `templateId` must exist (NOT_FOUND). The number comes from
 * Repository.nextIssueNumber, incremented in the same transaction as the insert. Activity:
 * created (+ parent_set for a sub-issue).
 */
export async function createIssue(db: Db, caller: Actor | null, repo: Repo, raw: CreateIssueInput): Promise<IssueView> {
  const actor = requireActor(caller);
  const input = createInput.parse(raw);
  const canWrite = atLeast(repo.permission, "write");
  await takeIssueCreation(actor.user.id, repo.permission); // per-user limit (./limits.ts), before any write
  if (!canWrite) assertTriageInput(input);
  return inTransaction(db, async (tx) => {
    const template = input.templateId ? await tx.issueTemplate.findFirst({ where: { id: input.templateId, repoId: repo.id } }) : null;
    if (input.templateId && !template) throw new AppError("NOT_FOUND", "template not found");
    const title = input.title ?? template?.title?.trim();
    if (!title) throw new AppError("BAD_REQUEST", "title is required (the template has no title)");
    const labelIds = input.labels
      ? await labelIdsByName(tx, repo.id, input.labels)
      : await labelIdsByName(tx, repo.id, template ? (JSON.parse(template.labels) as string[]) : [], true);
    const priority: PriorityKey = input.priority ?? (template?.priority as PriorityKey | null) ?? "none";
    const project = input.project
      ? await tx.project.findUnique({
          where: { repoId_nameLower: { repoId: repo.id, nameLower: input.project.toLowerCase() } },
          select: { id: true },
        })
      : null;
    if (input.project && !project) throw new AppError("NOT_FOUND", `${`project "${input.project}"`} not found`);
    const cycle =
      input.cycle !== undefined
        ? await tx.cycle.findUnique({ where: { repoId_number: { repoId: repo.id, number: input.cycle } }, select: { id: true } })
        : null;
    if (input.cycle !== undefined && !cycle) throw new AppError("NOT_FOUND", `${`cycle ${input.cycle}`} not found`);
    const parent = input.parentNumber !== undefined ? await issueByNumber(tx, repo.id, input.parentNumber) : null;
    if (input.assigneeId) await assertCanRead(tx, repo, input.assigneeId);
    const status = canWrite ? (input.status ?? "backlog") : "triage";
    const state = stateForStatus(status);
    // The counter first: on PostgreSQL its row lock orders concurrent creators, so the column end
    // read next already sees the previous creator's issue.
    const counter = await tx.repository.update({
      where: { id: repo.id },
      data: { nextIssueNumber: { increment: 1 } },
      select: { nextIssueNumber: true },
    });
    const boardPosition = await endOfColumn(tx, repo.id, status);
    const created = await tx.issue.create({
      data: {
        repoId: repo.id,
        number: counter.nextIssueNumber - 1,
        title,
        body: input.body ?? template?.body ?? null,
        status,
        state,
        closedAt: state === "closed" ? new Date() : null,
        priority: priorityRank(priority),
        dueDate: input.dueDate ?? null,
        estimate: input.estimate ?? null,
        parentId: parent?.id ?? null,
        projectId: project?.id ?? null,
        cycleId: cycle?.id ?? null,
        authorId: actor.user.id,
        assigneeId: input.assigneeId ?? null,
        boardPosition,
        labels: { create: labelIds.map((labelId) => ({ labelId })) },
      },
      select: { id: true, repoId: true },
    });
    await recordActivity(tx, created, actor, [
      { action: "created", field: "status", newValue: status },
      ...(parent ? [{ action: "parent_set" as const, field: "parent", newValue: parent.number }] : []),
    ]);
    return issueViewById(tx, created);
  });
}
