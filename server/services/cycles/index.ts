/**
 * Cycles (sprints; spec: "not shown", minimal per issue #3): {id, repoId, number, name, startsAt,
 * endsAt, createdAt}, numbered per repository. Without `number` the next free one (max + 1) is
 * used; a taken number is CONFLICT. endsAt must be after startsAt (BAD_REQUEST).
 */
import type { Db } from "@/server/db";
import { badRequest } from "@/server/errors";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { conflictOnDuplicate, inTransaction } from "@/server/services/issues/core";

export interface CycleView {
  id: string;
  repoId: string;
  number: number;
  name: string | null;
  startsAt: string;
  endsAt: string;
  createdAt: string;
}

const view = (c: { id: string; repoId: string; number: number; name: string | null; startsAt: Date; endsAt: Date; createdAt: Date }): CycleView => ({
  id: c.id, repoId: c.repoId, number: c.number, name: c.name, startsAt: c.startsAt.toISOString(), endsAt: c.endsAt.toISOString(), createdAt: c.createdAt.toISOString(),
});

/** cycles.create {number?, name?, startsAt, endsAt} (dates as ISO strings) → the cycle. */
export async function createCycle(db: Db, repo: Pick<AuthorizedRepo, "id">, input: { number?: number; name?: string; startsAt: Date; endsAt: Date }): Promise<CycleView> {
  if (input.endsAt.getTime() <= input.startsAt.getTime()) throw badRequest("endsAt must be after startsAt");
  return inTransaction(db, async (tx) => {
    const number = input.number ?? ((await tx.cycle.aggregate({ where: { repoId: repo.id }, _max: { number: true } }))._max.number ?? 0) + 1;
    return view(await conflictOnDuplicate(
      tx.cycle.create({ data: { repoId: repo.id, number, name: input.name ?? null, startsAt: input.startsAt, endsAt: input.endsAt } }),
      `cycle ${number} exists`,
    ));
  });
}

/** cycles.list → cycles by number. */
export async function listCycles(db: Db, repo: Pick<AuthorizedRepo, "id">): Promise<CycleView[]> {
  return (await db.cycle.findMany({ where: { repoId: repo.id }, orderBy: { number: "asc" } })).map(view);
}
