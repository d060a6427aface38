/**
 * Exact issue counts per project or per cycle in one SQL query (the projects and cycles pages show
 * progress without one query per row). Portable SQL (SQLite and PostgreSQL): COUNT and
 * SUM(CASE …) grouped by the issue's projectId or cycleId.
 */
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { Sql } from "@/server/services/issues/query";

/**
 * Issues of a project or cycle: `total` (every state and status), `open` (state open), `done`
 * (status done), `canceled` (status canceled). Progress as Linear shows it is
 * done / (total − canceled).
 */
export interface IssueCounts {
  total: number;
  open: number;
  done: number;
  canceled: number;
}

interface Row {
  groupId: string;
  total: unknown;
  open: unknown;
  done: unknown;
  canceled: unknown;
}

/**
 * Counts of the repository's issues grouped by `column` ("projectId" or "cycleId"), keyed by that
 * id; groups without issues are absent (use `countsOf.empty()`). `only` restricts to one id.
 */
export async function countsOf(db: Db, repoId: string, column: "projectId" | "cycleId", only?: string): Promise<Map<string, IssueCounts>> {
  const col = column === "projectId" ? `"projectId"` : `"cycleId"`; // one of two fixed identifiers, never input
  const sql = new Sql(getConfig().provider);
  const n = (cond: string) => `CAST(SUM(CASE WHEN ${cond} THEN 1 ELSE 0 END) AS INTEGER)`;
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT ${col} AS "groupId", CAST(COUNT(*) AS INTEGER) AS "total", ${n(`"state" = 'open'`)} AS "open",
       ${n(`"status" = 'done'`)} AS "done", ${n(`"status" = 'canceled'`)} AS "canceled"
     FROM "Issue" WHERE "repoId" = ${sql.p(repoId)} AND ${col} ${only ? `= ${sql.p(only)}` : "IS NOT NULL"}
     GROUP BY ${col}`,
    ...sql.params,
  );
  return new Map(
    rows.map((r) => [
      r.groupId,
      { total: Number(r.total), open: Number(r.open ?? 0), done: Number(r.done ?? 0), canceled: Number(r.canceled ?? 0) },
    ]),
  );
}

/** Zero counts, for a project or cycle without issues. */
countsOf.empty = (): IssueCounts => ({ total: 0, open: 0, done: 0, canceled: 0 });
