/**
 * The relations of one issue as issue numbers: the read issues.get and the relation writers
 * return. Below both (./get-issue.ts, ./relations.ts), so neither imports the other.
 */
import type { Db, Prisma } from "@/server/db";

type Tx = Prisma.TransactionClient;

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
