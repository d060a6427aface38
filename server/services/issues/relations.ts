/**
 * Sub-issues and relations between issues of one repository (issue #3).
 * Sub-issues: same repository (numbers are per repository), no cycles: an issue's descendant
 * can't become its parent. Relations: blocks | relates_to (symmetric) | duplicates, no self
 * relation, no duplicate row (relates_to counts both directions). Activity: parent_set and
 * parent_removed on the child; relation_added / relation_removed on BOTH issues, as Linear shows
 * them: the source with the type (blocks, relates_to, duplicates), the target with its inverse
 * (blocked_by, relates_to, duplicated_by; see INVERSE) and the other issue's number.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { subIssueProgress, type PriorityKey, type RelationType } from "@/lib/issues/model";
import { inTransaction, issueByNumber, issueViewById, recordActivity, type IssueView, type Tx } from "./core";
import { applyStatus } from "./status";
import { createIssue } from "./issues";
import { queryIssues } from "./query";

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

export interface Relations {
  /** issues this one blocks */
  blocking: number[];
  /** issues that block this one */
  blockedBy: number[];
  /** relates_to in either direction */
  related: number[];
  /** issues this one duplicates */
  duplicates: number[];
  /** issues that duplicate this one */
  duplicatedBy: number[];
}

/** Relations of issue `issueId` as numbers, ascending: two queries. */
export async function getRelationNumbers(db: Db | Tx, issueId: string): Promise<Relations> {
  const [out, inc] = await Promise.all([
    db.issueRelation.findMany({ where: { sourceId: issueId }, select: { type: true, target: { select: { number: true } } } }),
    db.issueRelation.findMany({ where: { targetId: issueId }, select: { type: true, source: { select: { number: true } } } }),
  ]);
  const pick = (rows: { type: string; n: number }[], type: string) => rows.filter((r) => r.type === type).map((r) => r.n);
  const o = out.map((r) => ({ type: r.type, n: r.target.number }));
  const i = inc.map((r) => ({ type: r.type, n: r.source.number }));
  const sort = (a: number[]) => [...new Set(a)].sort((x, y) => x - y);
  return {
    blocking: sort(pick(o, "blocks")),
    blockedBy: sort(pick(i, "blocks")),
    related: sort([...pick(o, "relates_to"), ...pick(i, "relates_to")]),
    duplicates: sort(pick(o, "duplicates")),
    duplicatedBy: sort(pick(i, "duplicates")),
  };
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

/** Ids of `issueId`'s ancestors, nearest first (one query per level; bounded by depth). */
async function ancestors(tx: Tx, issueId: string): Promise<string[]> {
  const out: string[] = [];
  let current: string | null = issueId;
  for (let depth = 0; current && depth < 10_000; depth++) {
    const row: { parentId: string | null } | null = await tx.issue.findUnique({ where: { id: current }, select: { parentId: true } });
    current = row?.parentId ?? null;
    if (current) out.push(current);
  }
  return out;
}

/**
 * issues.setParent: makes #number a sub-issue of #parentNumber → the issue. BAD_REQUEST for a
 * self parent or when #parentNumber is #number's descendant (a cycle). Activity parent_set
 * (oldValue the previous parent's number).
 */
export async function setParent(db: Db, actor: Actor, repo: Repo, number: number, parentNumber: number): Promise<IssueView> {
  if (number === parentNumber) throw new AppError("BAD_REQUEST", "an issue cannot be its own parent");
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    const parent = await issueByNumber(tx, repo.id, parentNumber);
    if ((await ancestors(tx, parent.id)).includes(issue.id)) {
      throw new AppError("BAD_REQUEST", `#${parentNumber} is a sub-issue of #${number}; making it the parent would create a cycle`);
    }
    if (issue.parentId === parent.id) return issueViewById(tx, issue);
    const old = issue.parentId ? await tx.issue.findUnique({ where: { id: issue.parentId }, select: { number: true } }) : null;
    await tx.issue.update({ where: { id: issue.id }, data: { parentId: parent.id } });
    await recordActivity(tx, issue, actor, [
      { action: "parent_set", field: "parent", oldValue: old?.number ?? null, newValue: parentNumber },
    ]);
    return issueViewById(tx, issue);
  });
}

/** issues.removeParent → the issue; activity parent_removed. Without a parent: unchanged. */
export async function removeParent(db: Db, actor: Actor, repo: Repo, number: number): Promise<IssueView> {
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, number);
    if (!issue.parentId) return issueViewById(tx, issue);
    const old = await tx.issue.findUnique({ where: { id: issue.parentId }, select: { number: true } });
    await tx.issue.update({ where: { id: issue.id }, data: { parentId: null } });
    await recordActivity(tx, issue, actor, [{ action: "parent_removed", field: "parent", oldValue: old?.number ?? null }]);
    return issueViewById(tx, issue);
  });
}

/** issues.getSubIssues → the direct sub-issues (full issues), by number ascending. */
export async function getSubIssues(db: Db, repo: Repo, number: number): Promise<IssueView[]> {
  const issue = await issueByNumber(db, repo.id, number);
  return queryIssues(db, { repoId: repo.id, parentId: issue.id }, [{ field: "number", direction: "asc" }]);
}

/** issues.getSubIssueProgress → {total, completed (closed), percentage (integer 0–100, 0 when none)}. */
export async function getSubIssueProgress(db: Db, repo: Repo, number: number) {
  const issue = await issueByNumber(db, repo.id, number);
  const groups = await db.issue.groupBy({ by: ["state"], where: { parentId: issue.id }, _count: { _all: true } });
  const total = groups.reduce((s, g) => s + g._count._all, 0);
  const completed = groups.find((g) => g.state === "closed")?._count._all ?? 0;
  return subIssueProgress(total, completed);
}

/** issues.createSubIssue {parentNumber, title, body?, priority?} → the new issue (as issues.create with parentNumber). */
export function createSubIssue(
  db: Db,
  actor: Actor | null,
  repo: Repo,
  input: { parentNumber: number; title: string; body?: string; priority?: PriorityKey },
): Promise<IssueView> {
  return createIssue(db, actor, repo, input);
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
    try {
      await tx.issueRelation.create({ data: { sourceId: source.id, targetId: target.id, type: input.type } });
    } catch (e) {
      if ((e as { code?: string }).code === "P2002") throw new AppError("CONFLICT", "that relation exists");
      throw e;
    }
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
