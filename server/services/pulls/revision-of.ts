/**
 * Which revision of a pull request a comment or a review was made on (docs/pulls.md "Revisions"):
 * the lowest-numbered revision (PullRequestRevision.number) whose head is the commit it names
 * (`commitSha`); null when no revision has that head (a commit pushed and replaced before it was
 * recorded, or a pull request whose revisions are not backfilled yet). One rule, one SQL
 * expression: pulls.comments' statement (list-comments.ts) and the reviews' reads (`reviewRevisions`)
 * both use `revisionOfShaSql`; "viewed" marks use `headRevisions`, the same rule as a grouped query.
 */
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { readRows } from "@/server/db/read";
import { Sql } from "@/server/services/issues/query";

/**
 * The SQL scalar subquery giving the revision number of head `shaColumn` of pull request
 * `pullColumn` (both already-qualified column references written by svc, never user input), or
 * NULL. Integer type (PostgreSQL answers it as a number; SQLite too).
 */
export function revisionOfShaSql(pullColumn: string, shaColumn: string): string {
  return `(SELECT MIN(rv."number") FROM "PullRequestRevision" rv WHERE rv."pullRequestId" = ${pullColumn} AND rv."headSha" = ${shaColumn})`;
}

/**
 * The revision each review of pull request `prId` was made on (`revisionOfShaSql` of its
 * commitSha), by review id; only the reviews `ids` when given. One SELECT (through `db`, which may
 * be a transaction client: it then sees the transaction's own writes).
 */
export async function reviewRevisions(db: Pick<Db, "$queryRawUnsafe">, prId: string, ids?: string[]): Promise<Map<string, number | null>> {
  const sql = new Sql(getConfig().provider);
  const where = [`r."pullRequestId" = ${sql.p(prId)}`];
  if (ids) where.push(ids.length ? `r."id" IN (${sql.list(ids)})` : "1 = 0");
  const text = `SELECT r."id", ${revisionOfShaSql(`r."pullRequestId"`, `r."commitSha"`)} AS "revision" FROM "PullRequestReview" r WHERE ${where.join(" AND ")}`;
  const rows = await readRows<{ id: string; revision: number | bigint | null }>(db, text, sql.params);
  return new Map(rows.map((r) => [r.id, r.revision === null || r.revision === undefined ? null : Number(r.revision)]));
}

/**
 * The revision of each head in `shas` of pull request `prId` (revision-of's rule: the
 * lowest-numbered revision with that head), by sha; a sha no revision has is absent. One query.
 * Used for "viewed" marks (viewed-files.ts), which keep the head they were set on.
 */
export async function headRevisions(db: Pick<Db, "pullRequestRevision">, prId: string, shas: string[]): Promise<Map<string, number>> {
  if (shas.length === 0) return new Map();
  const rows = await db.pullRequestRevision.groupBy({
    by: ["headSha"],
    where: { pullRequestId: prId, headSha: { in: shas } },
    _min: { number: true },
  });
  return new Map(rows.flatMap((r) => (r._min.number === null ? [] : [[r.headSha, r._min.number] as const])));
}
