/**
 * Repository labels {id, name, color (#rrggbb), description?}, unique by name case-insensitively
 * (CONFLICT), shared with pull requests later; and labelling issues. addLabel/removeLabel write
 * labeled/unlabeled (field "label", value = label name); adding a label already on the issue or
 * removing one that isn't changes nothing. deleteLabel writes unlabeled on every issue that had it,
 * in the same transaction.
 *
 * Caps, because every addLabel answers with the whole issue (without them one issue could carry
 * thousands of labels and a batch of addLabel calls return tens of MB): at most MAX_LABELS_PER_ISSUE labels on an
 * issue and MAX_LABELS_PER_REPO labels in a repository, so an issue view stays under ~15 KB of
 * labels and listLabels under ~250 KB.
 */
import { inTransaction, type Tx } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { conflictOnDuplicate } from "@/server/db/prisma-errors";
import { issueByNumber, issueViewById } from "./core";
import { labelSelect, type IssueView, type LabelView } from "./shapes";
import { emitIssueActivityEvents } from "@/server/services/webhooks/issue-events";

type Repo = Pick<AuthorizedRepo, "id">;

/** Labels one issue may carry (create's `labels` input is capped at the same 50 by schemas.ts). */
export const MAX_LABELS_PER_ISSUE = 50;
/** Labels one repository may define. */
export const MAX_LABELS_PER_REPO = 1000;

/** Repository id of a label (the labelId locator). */
export async function labelRepoId(db: Db, id: string): Promise<string | null> {
  return (await db.label.findUnique({ where: { id }, select: { repoId: true } }))?.repoId ?? null;
}

/** issues.listLabels → labels by name. */
export async function listLabels(db: Db, repo: Repo): Promise<LabelView[]> {
  return db.label.findMany({ where: { repoId: repo.id }, orderBy: { nameLower: "asc" }, select: labelSelect });
}

/**
 * issues.createLabel {name, color, description?} → the label. CONFLICT for a taken name;
 * BAD_REQUEST when the repository already has MAX_LABELS_PER_REPO (1000) labels.
 */
export function createLabel(db: Db, repo: Repo, input: { name: string; color: string; description?: string | null }): Promise<LabelView> {
  return inTransaction(db, async (tx) => {
    if ((await tx.label.count({ where: { repoId: repo.id } })) >= MAX_LABELS_PER_REPO) {
      throw new AppError("BAD_REQUEST", `a repository has at most ${MAX_LABELS_PER_REPO} labels; delete unused ones first`);
    }
    return conflictOnDuplicate(
      tx.label.create({
        data: {
          repoId: repo.id,
          name: input.name,
          nameLower: input.name.toLowerCase(),
          color: input.color.toLowerCase(),
          description: input.description ?? null,
        },
        select: labelSelect,
      }),
      `a label named "${input.name}" exists`,
    );
  });
}

/** issues.updateLabel {labelId, name?, color?, description? (null clears)} → the label. CONFLICT for a taken name. */
export function updateLabel(
  db: Db,
  repo: Repo,
  id: string,
  input: { name?: string; color?: string; description?: string | null },
): Promise<LabelView> {
  return inTransaction(db, (tx) =>
    conflictOnDuplicate(
      tx.label.update({
        where: { id, repoId: repo.id },
        data: {
          ...(input.name !== undefined ? { name: input.name, nameLower: input.name.toLowerCase() } : {}),
          ...(input.color !== undefined ? { color: input.color.toLowerCase() } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
        },
        select: labelSelect,
      }),
      `a label named "${input.name}" exists`,
    ),
  );
}

/** issues.deleteLabel {labelId} → {id, deleted: true}; unlabeled activity on each issue that had it. */
export async function deleteLabel(db: Db, actor: Actor, repo: Repo, id: string): Promise<{ id: string; deleted: true }> {
  return inTransaction(db, async (tx) => {
    const label = await tx.label.findFirst({
      where: { id, repoId: repo.id },
      select: { id: true, name: true, issues: { select: { issueId: true } } },
    });
    if (!label) throw new AppError("NOT_FOUND", "label not found");
    if (label.issues.length) {
      await tx.issueActivity.createMany({
        data: label.issues.map((i) => ({
          repoId: repo.id,
          issueId: i.issueId,
          action: "unlabeled",
          field: "label",
          oldValue: label.name,
          actorId: actor.user.id,
        })),
      });
    }
    await tx.label.delete({ where: { id } });
    return { id, deleted: true as const };
  });
}

async function labelOf(db: Db, repo: Repo, labelId: string) {
  const label = await db.label.findFirst({ where: { id: labelId, repoId: repo.id }, select: { id: true, name: true } });
  if (!label) throw new AppError("NOT_FOUND", "label not found");
  return label;
}

/**
 * Puts `label` on `issue` inside the caller's transaction (issues.addLabel and issues.bulkUpdate):
 * nothing when it is already there; BAD_REQUEST when the issue already has MAX_LABELS_PER_ISSUE
 * labels. Activity labeled.
 */
export async function labelIssueTx(
  tx: Tx,
  actor: Actor,
  repo: Repo,
  issue: { id: string },
  label: { id: string; name: string },
): Promise<void> {
  const has = await tx.issueLabel.findUnique({
    where: { issueId_labelId: { issueId: issue.id, labelId: label.id } },
    select: { labelId: true },
  });
  if (has) return;
  // Touching the issue first locks its row (PostgreSQL), so concurrent adds count in turn.
  await tx.issue.update({ where: { id: issue.id }, data: { updatedAt: new Date() } });
  if ((await tx.issueLabel.count({ where: { issueId: issue.id } })) >= MAX_LABELS_PER_ISSUE) {
    throw new AppError("BAD_REQUEST", `an issue has at most ${MAX_LABELS_PER_ISSUE} labels; remove one first`);
  }
  await tx.issueLabel.create({ data: { issueId: issue.id, labelId: label.id } });
  await tx.issueActivity.create({
    data: { repoId: repo.id, issueId: issue.id, action: "labeled", field: "label", newValue: label.name, actorId: actor.user.id },
  });
  await emitIssueActivityEvents(tx, { id: issue.id, repoId: repo.id }, actor.user, [{ action: "labeled", newValue: label.name }]);
}

/** Takes `label` off `issue` inside the caller's transaction (issues.removeLabel and issues.bulkUpdate); nothing when it is not there. Activity unlabeled. */
export async function unlabelIssueTx(
  tx: Tx,
  actor: Actor,
  repo: Repo,
  issue: { id: string },
  label: { id: string; name: string },
): Promise<void> {
  const removed = await tx.issueLabel.deleteMany({ where: { issueId: issue.id, labelId: label.id } });
  if (!removed.count) return;
  await tx.issue.update({ where: { id: issue.id }, data: { updatedAt: new Date() } });
  await tx.issueActivity.create({
    data: { repoId: repo.id, issueId: issue.id, action: "unlabeled", field: "label", oldValue: label.name, actorId: actor.user.id },
  });
  await emitIssueActivityEvents(tx, { id: issue.id, repoId: repo.id }, actor.user, [{ action: "unlabeled", oldValue: label.name }]);
}

/**
 * issues.addLabel {number, labelId} → the issue. NOT_FOUND for a label of another repository;
 * BAD_REQUEST when the issue already has MAX_LABELS_PER_ISSUE (50) labels. Activity labeled.
 */
export async function addLabel(db: Db, actor: Actor, repo: Repo, number: number, labelId: string): Promise<IssueView> {
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    await labelIssueTx(tx, actor, repo, issue, await labelOf(tx as Db, repo, labelId));
    return issueViewById(tx, issue);
  });
}

/** issues.removeLabel {number, labelId} → the issue. Activity unlabeled. */
export async function removeLabel(db: Db, actor: Actor, repo: Repo, number: number, labelId: string): Promise<IssueView> {
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    await unlabelIssueTx(tx, actor, repo, issue, await labelOf(tx as Db, repo, labelId));
    return issueViewById(tx, issue);
  });
}
