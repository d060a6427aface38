/**
 * The paged board ("the tracker at scale"): a 10k-issue board must open without
 * reading every card. Each status column is read a page at a time in board order
 * (boardPosition, then number), with keyset cursors, and every column carries its exact issue
 * count and estimate sum so the headers are right before the cards are loaded.
 *
 *   issues.board       {projectId?, cycleId?, limit?}          → every column's first page
 *   issues.boardColumn {status, projectId?, cycleId?, cursor?, limit?} → one column's next page
 *
 * Both are extensions (docs/issues.md "Board"); issues.listGroupedByStatus stays the spec's
 * "everything" call. Queries: counts in one GROUP BY; the cards of every column in ONE statement
 * (a UNION ALL of one index range per column on (repoId, status, boardPosition, number), then the usual
 * joins for just those rows, see ./query.ts) — a constant number whatever the board's size.
 */
import { readRows } from "@/server/db/read";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { getConfig } from "@/server/config";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { BOARD_PAGE_DEFAULT, DEFAULT_STATUSES } from "@/lib/issues/model";
import type { IssueView } from "./shapes";
import { assertProjectCycle } from "./references";
import { Sql, issueSelectSql, rowToView, whereSql, type IssueFilter, type Row } from "./query";

type Repo = Pick<AuthorizedRepo, "id">;

/** One status column of the board. */
export interface BoardColumn {
  status: string;
  /** every issue in the column (all states), not just the page */
  count: number;
  /** sum of the column's estimates (story points; issues without one count 0) */
  estimate: number;
  /** the page, in board order */
  issues: IssueView[];
  /** pass to issues.boardColumn for the cards after this page; null when there are none */
  nextCursor: string | null;
}

export interface BoardFilter {
  projectId?: string;
  cycleId?: string;
}

interface Cursor {
  position: number;
  number: number;
}

/** An opaque cursor for the card after (position, number) in board order. */
export function encodeCursor(c: Cursor): string {
  return Buffer.from(`${c.position}:${c.number}`, "utf8").toString("base64url");
}

/** The position a cursor names; BAD_REQUEST "cursor is invalid" for anything encodeCursor did not make. */
export function decodeCursor(cursor: string): Cursor {
  const m = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?):(\d{1,10})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const position = m ? Number(m[1]) : NaN;
  const number = m ? Number(m[2]) : NaN;
  if (!Number.isFinite(position) || !Number.isSafeInteger(number) || number < 1) throw new AppError("BAD_REQUEST", "cursor is invalid");
  return { position, number };
}

const num = (v: unknown): number => (typeof v === "number" ? v : Number(v));
/** Sums of floats (0.1 + 0.2) shown as people add them: rounded to 6 decimals. */
const roundEstimate = (v: unknown): number => (v === null || v === undefined ? 0 : Math.round(num(v) * 1e6) / 1e6);

const filterOf = (repo: Repo, f: BoardFilter, status?: string): IssueFilter => ({
  repoId: repo.id,
  ...(status ? { statuses: [status] } : {}),
  ...(f.projectId ? { projectId: f.projectId } : {}),
  ...(f.cycleId ? { cycleId: f.cycleId } : {}),
});

/** {status → {count, estimate}} for the filtered board (one GROUP BY query; only the given status when set). */
async function columnTotals(
  db: Db,
  repo: Repo,
  f: BoardFilter,
  status?: string,
): Promise<Map<string, { count: number; estimate: number }>> {
  const sql = new Sql(getConfig().provider);
  const where = whereSql(sql, filterOf(repo, f, status));
  const rows = await readRows<{ status: string; n: unknown; est: unknown }>(
    db,
    `SELECT i."status" AS "status", CAST(COUNT(*) AS INTEGER) AS "n", SUM(i."estimate") AS "est" FROM "Issue" i WHERE ${where.join(" AND ")} GROUP BY i."status"`,
    sql.params,
  );
  return new Map(rows.map((r) => [r.status, { count: num(r.n), estimate: roundEstimate(r.est) }]));
}

/**
 * Up to `limit + 1` cards of each status in `statuses` (after `after` when given, in board
 * order), with their relations, in one statement (pure SQL builder; exported for tests).
 */
export function boardPageSql(
  dialect: "sqlite" | "postgresql",
  repo: Repo,
  f: BoardFilter,
  statuses: string[],
  limit: number,
  after?: Cursor,
): { text: string; params: unknown[] } {
  const sql = new Sql(dialect);
  const ranges = statuses.map((status, k) => {
    const where = whereSql(sql, filterOf(repo, f, status));
    if (after) {
      // (boardPosition, number) > (position, number), written so the index range starts at position
      where.push(
        `i."boardPosition" >= ${sql.p(after.position)} AND (i."boardPosition" > ${sql.p(after.position)} OR i."number" > ${sql.p(after.number)})`,
      );
    }
    return `SELECT c${k}."id" FROM (SELECT i."id" FROM "Issue" i WHERE ${where.join(" AND ")} ORDER BY i."boardPosition" ASC, i."number" ASC LIMIT ${sql.int(limit + 1)}) c${k}`;
  });
  const text = `${issueSelectSql(dialect, `, i."boardPosition" AS "boardPosition"`)}
WHERE i."id" IN (${ranges.join("\nUNION ALL ")})
ORDER BY i."status" ASC, i."boardPosition" ASC, i."number" ASC`;
  return { text, params: sql.params };
}

async function pages(
  db: Db,
  repo: Repo,
  f: BoardFilter,
  statuses: string[],
  limit: number,
  after?: Cursor,
): Promise<Map<string, { issues: IssueView[]; nextCursor: string | null }>> {
  const { text, params } = boardPageSql(getConfig().provider, repo, f, statuses, limit, after);
  const rows = await readRows<Row & { boardPosition: unknown }>(db, text, params);
  const out = new Map<string, { issues: IssueView[]; nextCursor: string | null }>();
  const byStatus = new Map<string, (Row & { boardPosition: unknown })[]>();
  for (const r of rows) byStatus.set(r.status, [...(byStatus.get(r.status) ?? []), r]);
  for (const status of statuses) {
    const list = byStatus.get(status) ?? [];
    const page = list.slice(0, limit);
    const last = page.at(-1);
    out.set(status, {
      issues: page.map(rowToView),
      nextCursor: list.length > limit && last ? encodeCursor({ position: num(last.boardPosition), number: num(last.number) }) : null,
    });
  }
  return out;
}

/**
 * issues.board {projectId?, cycleId?, limit? (1–100, default 50)} → {columns: BoardColumn[]}:
 * every status in board order (empty columns too), each with its exact count and estimate sum
 * over all its issues (open and closed) and its first `limit` cards. NOT_FOUND for a project or
 * cycle of another repository. Three queries at most (project/cycle check, totals, cards).
 */
export async function boardColumns(db: Db, repo: Repo, f: BoardFilter & { limit?: number }): Promise<{ columns: BoardColumn[] }> {
  await assertProjectCycle(db, repo.id, f.projectId, f.cycleId);
  const limit = f.limit ?? BOARD_PAGE_DEFAULT;
  const statuses = DEFAULT_STATUSES.map((s) => s.key);
  const [totals, cards] = await Promise.all([columnTotals(db, repo, f), pages(db, repo, f, statuses, limit)]);
  return {
    columns: statuses.map((status) => ({
      status,
      count: totals.get(status)?.count ?? 0,
      estimate: totals.get(status)?.estimate ?? 0,
      ...(cards.get(status) ?? { issues: [], nextCursor: null }),
    })),
  };
}

/**
 * issues.boardColumn {status, projectId?, cycleId?, cursor?, limit? (1–100, default 50)} →
 * BoardColumn: the column's cards after `cursor` (from a previous page's nextCursor; the first
 * page without one), with the column's current count and estimate sum. Keyset paging on
 * (boardPosition, number): cards moved while paging are neither skipped nor repeated unless
 * they moved across the cursor (clients drop numbers they already show). BAD_REQUEST for an
 * invalid cursor, NOT_FOUND for a project or cycle of another repository.
 */
export async function boardColumn(
  db: Db,
  repo: Repo,
  input: BoardFilter & { status: string; cursor?: string; limit?: number },
): Promise<BoardColumn> {
  const after = input.cursor !== undefined ? decodeCursor(input.cursor) : undefined;
  await assertProjectCycle(db, repo.id, input.projectId, input.cycleId);
  const limit = input.limit ?? BOARD_PAGE_DEFAULT;
  const [totals, cards] = await Promise.all([
    columnTotals(db, repo, input, input.status),
    pages(db, repo, input, [input.status], limit, after),
  ]);
  return {
    status: input.status,
    count: totals.get(input.status)?.count ?? 0,
    estimate: totals.get(input.status)?.estimate ?? 0,
    ...(cards.get(input.status) ?? { issues: [], nextCursor: null }),
  };
}
