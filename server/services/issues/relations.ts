/**
 * Relations between issues of one repository: blocks | relates_to (symmetric) | duplicates, no
 * self relation, no duplicate row (relates_to counts both directions). Activity relation_added /
 * relation_removed on BOTH issues, as Linear shows them: the source with the type (blocks,
 * relates_to, duplicates), the target with its inverse (blocked_by, relates_to, duplicated_by;
 * see INVERSE) and the other issue's number.
 */
import { type Tx, inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { conflictOnDuplicate } from "@/server/db/prisma-errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import type { RelationType } from "@/lib/issues/model";
import { issueByNumber, issueViewById, recordActivity } from "./core";
import type { IssueView } from "./shapes";
import { applyStatus } from "./status";
import { getRelationNumbers, type Relations } from "./relation-numbers";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

/** The activity `field` a relation shows under on its target issue ("#5 blocks #3" reads "blocked by #5" on #3). */
export const INVERSE: Record<RelationType, string> = { blocks: "blocked_by", relates_to: "relates_to", duplicates: "duplicated_by" };

/** relation_added / relation_removed on both issues of a relation, in the caller's transaction. */
async function recordRelation(
  tx: Tx,
  actor: Actor,
  action: "relation_added" | "relation_removed",
  type: RelationType,
  source: { id: string; repoId: string; number: number },
  target: { id: string; repoId: string; number: number },
): Promise<void> {
  const value = (n: number) => (action === "relation_added" ? { newValue: n } : { oldValue: n });
  await recordActivity(tx, source, actor, [{ action, field: type, ...value(target.number) }]);
  await recordActivity(tx, target, actor, [{ action, field: INVERSE[type], ...value(source.number) }]);
}

/** issues.getRelations → {blocking, blockedBy, related, duplicates, duplicatedBy} (numbers). NOT_FOUND. */
export async function getRelations(db: Db, repo: Repo, number: number): Promise<Relations> {
  const issue = await issueByNumber(db, repo.id, number);
  return getRelationNumbers(db, issue.id);
}

/** issues.isBlocked → {blocked, blockedBy: numbers of OPEN issues blocking it}. Closed blockers don't block. */
export async function isBlocked(db: Db, repo: Repo, number: number): Promise<{ blocked: boolean; blockedBy: number[] }> {
  const issue = await issueByNumber(db, repo.id, number);
  const rows = await db.issueRelation.findMany({
    where: { targetId: issue.id, type: "blocks", source: { state: "open" } },
    select: { source: { select: { number: true } } },
  });
  const blockedBy = rows.map((r) => r.source.number).sort((a, b) => a - b);
  return { blocked: blockedBy.length > 0, blockedBy };
}

/** The existing relation row matching (source, target, type); relates_to matches either direction. */
async function findRelation(tx: Tx, sourceId: string, targetId: string, type: RelationType) {
  return tx.issueRelation.findFirst({
    where:
      type === "relates_to"
        ? {
            type,
            OR: [
              { sourceId, targetId },
              { sourceId: targetId, targetId: sourceId },
            ],
          }
        : { type, sourceId, targetId },
    select: { id: true, sourceId: true },
  });
}

/**
 * issues.addRelation {sourceNumber, targetNumber, type} → the relations of the source.
 * BAD_REQUEST for a self relation or when the reverse "blocks" exists (mutual blocking);
 * CONFLICT when the relation exists. Activity relation_added on both issues (recordRelation).
 */
export async function addRelation(
  db: Db,
  actor: Actor,
  repo: Repo,
  input: { sourceNumber: number; targetNumber: number; type: RelationType },
): Promise<Relations> {
  if (input.sourceNumber === input.targetNumber) throw new AppError("BAD_REQUEST", "an issue cannot be related to itself");
  return inTransaction(db, async (tx) => {
    const source = await issueByNumber(tx, repo.id, input.sourceNumber);
    const target = await issueByNumber(tx, repo.id, input.targetNumber);
    if (await findRelation(tx, source.id, target.id, input.type)) {
      throw new AppError("CONFLICT", `#${input.sourceNumber} already ${input.type.replace("_", " ")} #${input.targetNumber}`);
    }
    if (input.type === "blocks" && (await findRelation(tx, target.id, source.id, "blocks"))) {
      throw new AppError("BAD_REQUEST", `#${input.targetNumber} already blocks #${input.sourceNumber}; two issues cannot block each other`);
    }
    await conflictOnDuplicate(
      tx.issueRelation.create({ data: { sourceId: source.id, targetId: target.id, type: input.type } }),
      "that relation exists",
    );
    await recordRelation(tx, actor, "relation_added", input.type, source, target);
    return getRelationNumbers(tx, source.id);
  });
}

/** issues.removeRelation (same input) → the relations of the source. NOT_FOUND when absent. Activity relation_removed on both issues. */
export async function removeRelation(
  db: Db,
  actor: Actor,
  repo: Repo,
  input: { sourceNumber: number; targetNumber: number; type: RelationType },
): Promise<Relations> {
  return inTransaction(db, async (tx) => {
    const source = await issueByNumber(tx, repo.id, input.sourceNumber);
    const target = await issueByNumber(tx, repo.id, input.targetNumber);
    const existing = await findRelation(tx, source.id, target.id, input.type);
    if (!existing) throw new AppError("NOT_FOUND", `${`relation #${input.sourceNumber} ${input.type} #${input.targetNumber}`} not found`);
    await tx.issueRelation.delete({ where: { id: existing.id } });
    await recordRelation(tx, actor, "relation_removed", input.type, source, target);
    return getRelationNumbers(tx, source.id);
  });
}

/**
 * issues.markAsDuplicate {duplicateNumber, canonicalNumber} → the duplicate issue, now closed
 * with status canceled and a `duplicates` relation to the canonical one (kept if present).
 * BAD_REQUEST when both numbers are equal. Activity relation_added + status_changed.
 */
export async function markAsDuplicate(
  db: Db,
  actor: Actor,
  repo: Repo,
  input: { duplicateNumber: number; canonicalNumber: number },
): Promise<IssueView> {
  if (input.duplicateNumber === input.canonicalNumber) throw new AppError("BAD_REQUEST", "an issue cannot duplicate itself");
  return inTransaction(db, async (tx) => {
    const dup = await issueByNumber(tx, repo.id, input.duplicateNumber);
    const canonical = await issueByNumber(tx, repo.id, input.canonicalNumber);
    if (await findRelation(tx, canonical.id, dup.id, "duplicates")) {
      throw new AppError("CONFLICT", `#${input.canonicalNumber} is marked as a duplicate of #${input.duplicateNumber}`);
    }
    if (!(await findRelation(tx, dup.id, canonical.id, "duplicates"))) {
      await tx.issueRelation.create({ data: { sourceId: dup.id, targetId: canonical.id, type: "duplicates" } });
      await recordRelation(tx, actor, "relation_added", "duplicates", dup, canonical);
    }
    await applyStatus(tx, actor, dup, "canceled");
    return issueViewById(tx, dup);
  });
}
