/**
 * issues.move: the board's drag and drop. Positions are floats with gaps (POSITION_STEP); a
 * column is renumbered only when a gap is exhausted. Status changes follow the state coupling in
 * ./status.ts.
 */
import { type Tx, inTransaction } from "@/server/db/transaction";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { POSITION_STEP, positionBetween, renumberedPositions } from "@/lib/issues/model";
import { issueByNumber, issueViewById } from "./core";
import type { IssueView } from "./shapes";
import { applyStatus } from "./status";

type Repo = Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate" | "permission">;

/** Renumbers a column STEP, 2·STEP, … in its current order (rare: only when a gap is exhausted). */
async function renumberColumn(tx: Tx, repoId: string, status: string): Promise<void> {
  const rows = await tx.issue.findMany({
    where: { repoId, status },
    orderBy: [{ boardPosition: "asc" }, { number: "asc" }],
    select: { id: true },
  });
  const positions = renumberedPositions(rows.length);
  for (let i = 0; i < rows.length; i++) await tx.issue.update({ where: { id: rows[i].id }, data: { boardPosition: positions[i] } });
}

/** The position for placing an issue before/after `anchor` in `status`, excluding `movingId`; null = renumber first. */
async function placement(
  tx: Tx,
  repoId: string,
  status: string,
  movingId: string,
  anchor: { position: number; side: "before" | "after" },
): Promise<number | null> {
  if (anchor.side === "before") {
    const prev = await tx.issue.findFirst({
      where: { repoId, status, id: { not: movingId }, boardPosition: { lt: anchor.position } },
      orderBy: { boardPosition: "desc" },
      select: { boardPosition: true },
    });
    return positionBetween(prev?.boardPosition ?? null, anchor.position);
  }
  const next = await tx.issue.findFirst({
    where: { repoId, status, id: { not: movingId }, boardPosition: { gt: anchor.position } },
    orderBy: { boardPosition: "asc" },
    select: { boardPosition: true },
  });
  return positionBetween(anchor.position, next?.boardPosition ?? null);
}

/**
 * issues.move {number, status, beforeNumber? | afterNumber?} → the issue (extension for the board's
 * drag and drop). Puts #number in column `status` directly before (above) #beforeNumber or after
 * #afterNumber, or at the end when neither is given. The anchor must be in that column
 * (BAD_REQUEST) and must not be the moved issue. A status change follows the state coupling and
 * writes status_changed; a reorder within a column writes no activity.
 */
export async function moveIssue(
  db: Db,
  actor: Actor,
  repo: Repo,
  input: { number: number; status: string; beforeNumber?: number; afterNumber?: number },
): Promise<IssueView> {
  const anchorNumber = input.beforeNumber ?? input.afterNumber;
  if (anchorNumber === input.number) throw new AppError("BAD_REQUEST", "an issue cannot be placed next to itself");
  return inTransaction(db, async (tx) => {
    const issue = await issueByNumber(tx, repo.id, input.number);
    let position: number | undefined;
    if (anchorNumber !== undefined) {
      const side = input.beforeNumber !== undefined ? "before" : "after";
      let anchor = await issueByNumber(tx, repo.id, anchorNumber);
      if (anchor.status !== input.status) throw new AppError("BAD_REQUEST", `#${anchorNumber} is not in ${input.status}`);
      let pos = await placement(tx, repo.id, input.status, issue.id, { position: anchor.boardPosition, side });
      if (pos === null) {
        await renumberColumn(tx, repo.id, input.status);
        anchor = await issueByNumber(tx, repo.id, anchorNumber);
        pos = await placement(tx, repo.id, input.status, issue.id, { position: anchor.boardPosition, side });
      }
      position = pos ?? anchor.boardPosition + (side === "after" ? POSITION_STEP / 2 : -POSITION_STEP / 2);
    } else if (issue.status === input.status) {
      const last = await tx.issue.findFirst({
        where: { repoId: repo.id, status: input.status, id: { not: issue.id } },
        orderBy: { boardPosition: "desc" },
        select: { boardPosition: true },
      });
      position = (last?.boardPosition ?? 0) + POSITION_STEP;
    }
    await applyStatus(tx, actor, issue, input.status, position);
    return issueViewById(tx, issue);
  });
}
