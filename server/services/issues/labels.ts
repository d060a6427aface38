/**
 * Repository labels {id, name, color (#rrggbb), description?}, unique by name case-insensitively
 * (CONFLICT), shared with pull requests later; and labelling issues. addLabel/removeLabel write
 * labeled/unlabeled (field "label", value = label name); adding a label already on the issue or
 * removing one that isn't changes nothing. deleteLabel writes unlabeled on every issue that had it,
 * in the same transaction.
 */
import type { Db } from "@/server/db";
import { notFound } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { conflictOnDuplicate, inTransaction, issueByNumber, issueViewById, labelSelect, type IssueView, type LabelView } from "./core";

type Repo = Pick<AuthorizedRepo, "id">;

/** Repository id of a label (the labelId locator). */
export async function labelRepoId(db: Db, id: string): Promise<string | null> {
  return (await db.label.findUnique({ where: { id }, select: { repoId: true } }))?.repoId ?? null;
}

/** issues.listLabels → labels by name. */
export async function listLabels(db: Db, repo: Repo): Promise<LabelView[]> {
  return db.label.findMany({ where: { repoId: repo.id }, orderBy: { nameLower: "asc" }, select: labelSelect });
}

/** issues.createLabel {name, color, description?} → the label. CONFLICT for a taken name. */
export function createLabel(db: Db, repo: Repo, input: { name: string; color: string; description?: string | null }): Promise<LabelView> {
  return inTransaction(db, (tx) => conflictOnDuplicate(
    tx.label.create({ data: { repoId: repo.id, name: input.name, nameLower: input.name.toLowerCase(), color: input.color.toLowerCase(), description: input.description ?? null }, select: labelSelect }),
    `a label named "${input.name}" exists`,
  ));
}

/** issues.updateLabel {labelId, name?, color?, description? (null clears)} → the label. CONFLICT for a taken name. */
export function updateLabel(db: Db, repo: Repo, id: string, input: { name?: string; color?: string; description?: string | null }): Promise<LabelView> {
  return inTransaction(db, (tx) => conflictOnDuplicate(
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
  ));
}

/** issues.deleteLabel {labelId} → {id, deleted: true}; unlabeled activity on each issue that had it. */
export async function deleteLabel(db: Db, actor: Actor, repo: Repo, id: string): Promise<{ id: string; deleted: true }> {
  return inTransaction(db, async (tx) => {
    const label = await tx.label.findFirst({ where: { id, repoId: repo.id }, select: { id: true, name: true, issues: { select: { issueId: true } } } });
    if (!label) throw notFound("label");
    if (label.issues.length) {
      await tx.issueActivity.createMany({
        data: label.issues.map((i) => ({ repoId: repo.id, issueId: i.issueId, action: "unlabeled", field: "label", oldValue: label.name, actorId: actor.user.id })),
      });
    }
    await tx.label.delete({ where: { id } });
    return { id, deleted: true as const };
  });
}

async function labelOf(db: Db, repo: Repo, labelId: string) {
  const label = await db.label.findFirst({ where: { id: labelId, repoId: repo.id }, select: { id: true, name: true } });
  if (!label) throw notFound("label");
  return label;
}

/** issues.addLabel {number, labelId} → the issue. NOT_FOUND for a label of another repository. Activity labeled. */
export async function addLabel(db: Db, actor: Actor, repo: Repo, number: number, labelId: string): Promise<IssueView> {
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    const label = await labelOf(tx as Db, repo, labelId);
    const has = await tx.issueLabel.findUnique({ where: { issueId_labelId: { issueId: issue.id, labelId } }, select: { labelId: true } });
    if (!has) {
      await tx.issueLabel.create({ data: { issueId: issue.id, labelId } });
      await tx.issue.update({ where: { id: issue.id }, data: { updatedAt: new Date() } });
      await tx.issueActivity.create({ data: { repoId: repo.id, issueId: issue.id, action: "labeled", field: "label", newValue: label.name, actorId: actor.user.id } });
    }
    return issueViewById(tx, issue);
  });
}

/** issues.removeLabel {number, labelId} → the issue. Activity unlabeled. */
export async function removeLabel(db: Db, actor: Actor, repo: Repo, number: number, labelId: string): Promise<IssueView> {
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    const label = await labelOf(tx as Db, repo, labelId);
    const removed = await tx.issueLabel.deleteMany({ where: { issueId: issue.id, labelId } });
    if (removed.count) {
      await tx.issue.update({ where: { id: issue.id }, data: { updatedAt: new Date() } });
      await tx.issueActivity.create({ data: { repoId: repo.id, issueId: issue.id, action: "unlabeled", field: "label", oldValue: label.name, actorId: actor.user.id } });
    }
    return issueViewById(tx, issue);
  });
}
