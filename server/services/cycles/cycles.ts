/**
 * Cycles (sprints; spec: "not shown", kept minimal): {id, repoId, number, name, startsAt,
 * endsAt, createdAt}, numbered per repository. Without `number` the next free one (max + 1) is
 * used; a taken number is CONFLICT. endsAt must be after startsAt (BAD_REQUEST). The list
 * adds exact issue counts (one GROUP BY query) and where the cycle stands in time.
 */
import { inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { conflictOnDuplicate } from "@/server/db/prisma-errors";
import { countsOf, type IssueCounts } from "@/server/services/projects/progress";

export interface CycleView {
  id: string;
  repoId: string;
  number: number;
  name: string | null;
  startsAt: string;
  endsAt: string;
  createdAt: string;
}

const view = (c: {
  id: string;
  repoId: string;
  number: number;
  name: string | null;
  startsAt: Date;
  endsAt: Date;
  createdAt: Date;
}): CycleView => ({
  id: c.id,
  repoId: c.repoId,
  number: c.number,
  name: c.name,
  startsAt: c.startsAt.toISOString(),
  endsAt: c.endsAt.toISOString(),
  createdAt: c.createdAt.toISOString(),
});

/** cycles.create {number?, name?, startsAt, endsAt} (dates as ISO strings) → the cycle. */
export async function createCycle(
  db: Db,
  repo: Pick<AuthorizedRepo, "id">,
  input: { number?: number; name?: string; startsAt: Date; endsAt: Date },
): Promise<CycleView> {
  if (input.endsAt.getTime() <= input.startsAt.getTime()) throw new AppError("BAD_REQUEST", "endsAt must be after startsAt");
  return inTransaction(db, async (tx) => {
    const number =
      input.number ?? ((await tx.cycle.aggregate({ where: { repoId: repo.id }, _max: { number: true } }))._max.number ?? 0) + 1;
    return view(
      await conflictOnDuplicate(
        tx.cycle.create({ data: { repoId: repo.id, number, name: input.name ?? null, startsAt: input.startsAt, endsAt: input.endsAt } }),
        `cycle ${number} exists`,
      ),
    );
  });
}

/** Where a cycle stands at a moment: before startsAt, within [startsAt, endsAt], after endsAt. */
export type CycleTiming = "upcoming" | "current" | "past";

/** A cycle with `issues` counted ({total, open, done, canceled}) and its `timing` now. */
export interface CycleWithProgress extends CycleView {
  issues: IssueCounts;
  timing: CycleTiming;
}

/** The timing of a cycle at `now` (ms since the epoch); the end instant counts as current. */
export function cycleTiming(c: { startsAt: Date; endsAt: Date }, now: number): CycleTiming {
  return now < c.startsAt.getTime() ? "upcoming" : now <= c.endsAt.getTime() ? "current" : "past";
}

/**
 * cycles.list → cycles by number, each with `issues` counted and `timing` (server clock;
 * extension). Two queries whatever the number of cycles.
 */
export async function listCycles(db: Db, repo: Pick<AuthorizedRepo, "id">, now = Date.now()): Promise<CycleWithProgress[]> {
  const [rows, counts] = await Promise.all([
    db.cycle.findMany({ where: { repoId: repo.id }, orderBy: { number: "asc" } }),
    countsOf(db, repo.id, "cycleId"),
  ]);
  return rows.map((c) => ({ ...view(c), issues: counts.get(c.id) ?? countsOf.empty(), timing: cycleTiming(c, now) }));
}
