/**
 * pulls.list (spec "Pull request router"): {state? (open|closed|merged), authorId?, limit
 * (1–100, 20), offset (0)} → pull requests newest first (by number), each with author and
 * labels, plus (extensions) `commentCount` and `reviewDecision` for the list rows. ONE SQL statement (the page is chosen in a subquery on the (repoId, state, number) /
 * (repoId, authorId, state, number) indexes, then author joined and labels aggregated as JSON),
 * plus the authorization query the repo tier already ran. Both providers; every value bound.
 */
import { readRows } from "@/server/db/read";
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { isoOf, boolOf } from "@/server/db/raw";
import { Sql, type Dialect } from "@/server/services/issues/query";
import { listPullsInput, type ListPullsInput } from "./schemas";
import { toPullView, type PullLabel, type PullView } from "./view";

/**
 * A pull request's review decision (extension, as GitHub's list shows it): each reviewer's latest
 * review that is not a plain comment counts; any "changes_requested" → changes_requested, else any
 * "approved" → approved, else a pending review request → review_required, else NULL.
 */
const latestReviewIs = (
  state: string,
) => `EXISTS (SELECT 1 FROM "PullRequestReview" rv WHERE rv."pullRequestId" = p."id" AND rv."state" = '${state}'
    AND NOT EXISTS (SELECT 1 FROM "PullRequestReview" later WHERE later."pullRequestId" = p."id" AND later."authorId" = rv."authorId" AND later."state" <> 'commented' AND later."createdAt" > rv."createdAt"))`;
const REVIEW_DECISION_SQL = `CASE WHEN ${latestReviewIs("changes_requested")} THEN 'changes_requested'
    WHEN ${latestReviewIs("approved")} THEN 'approved'
    WHEN EXISTS (SELECT 1 FROM "PullRequestReviewRequest" rq WHERE rq."pullRequestId" = p."id") THEN 'review_required'
    ELSE NULL END`;

/**
 * The labels of pull request `p` as one JSON text value (a scalar subquery; `[{id, name, color}]`
 * by name): PostgreSQL `json_agg`, SQLite `json_group_array` over an ordered subquery (it has no
 * ORDER BY of its own). Shared by the statements that list pull requests (this one, the inbox).
 */
export function pullLabelsSql(dialect: Dialect): string {
  return dialect === "postgresql"
    ? `(SELECT COALESCE(json_agg(json_build_object('id', l."id", 'name', l."name", 'color', l."color") ORDER BY l."nameLower")::text, '[]') FROM "PullRequestLabel" pl JOIN "Label" l ON l."id" = pl."labelId" WHERE pl."pullRequestId" = p."id")`
    : `(SELECT json_group_array(json_object('id', l."id", 'name', l."name", 'color', l."color")) FROM (SELECT l."id", l."name", l."color" FROM "PullRequestLabel" pl JOIN "Label" l ON l."id" = pl."labelId" WHERE pl."pullRequestId" = p."id" ORDER BY l."nameLower") l)`;
}

/** The columns `pullRowToView` reads (the list row extras `commentCount` and `reviewDecision` included), over aliases p (PullRequest) and au (its author, LEFT JOINed). */
export function pullColumnsSql(dialect: Dialect): string {
  return `p."id", p."number", p."title", p."body", p."state", p."sourceBranch", p."targetBranch", p."headSha", p."baseSha",
  p."authorId", p."isDraft", p."createdAt", p."updatedAt", p."mergedAt", p."closedAt",
  au."username" AS "authorUsername", au."name" AS "authorName",
  ${pullLabelsSql(dialect)} AS "labels",
  (SELECT COUNT(*) FROM "PullRequestComment" c WHERE c."pullRequestId" = p."id" AND c."isPending" = false AND c."deletedAt" IS NULL) AS "commentCount",
  ${REVIEW_DECISION_SQL} AS "reviewDecision"`;
}

/** The list statement for `repoId` and `filter` (pure; exported for the benchmark). */
export function pullsListSql(
  dialect: Dialect,
  repoId: string,
  filter: { state?: string; authorId?: string; limit: number; offset: number },
): { text: string; params: unknown[] } {
  const sql = new Sql(dialect);
  const where = [`p."repoId" = ${sql.p(repoId)}`];
  if (filter.state) where.push(`p."state" = ${sql.p(filter.state)}`);
  if (filter.authorId) where.push(`p."authorId" = ${sql.p(filter.authorId)}`);
  // the page's ids from the index first (a CTE), then the columns, author and labels of those rows only
  const text = `WITH page AS (SELECT p."id" FROM "PullRequest" p WHERE ${where.join(" AND ")} ORDER BY p."number" DESC LIMIT ${sql.int(filter.limit)} OFFSET ${sql.int(filter.offset)})
SELECT ${pullColumnsSql(dialect)}
FROM page JOIN "PullRequest" p ON p."id" = page."id"
LEFT JOIN "User" au ON au."id" = p."authorId"
ORDER BY p."number" DESC`;
  return { text, params: sql.params };
}

/** A row of `pullColumnsSql` as the drivers return it. */
export interface PullListRow {
  id: string;
  number: unknown;
  title: string;
  body: string | null;
  state: string;
  sourceBranch: string;
  targetBranch: string;
  headSha: string;
  baseSha: string;
  authorId: string | null;
  isDraft: unknown;
  createdAt: unknown;
  updatedAt: unknown;
  mergedAt: unknown;
  closedAt: unknown;
  authorUsername: string | null;
  authorName: string | null;
  labels: unknown;
  commentCount: unknown;
  reviewDecision: ReviewDecision | null;
}

/** A list row: the spec's pull request plus `commentCount` (submitted, not deleted) and `reviewDecision` (extensions). */
export type PullListItem = PullView & { commentCount: number; reviewDecision: ReviewDecision | null };
export type ReviewDecision = "approved" | "changes_requested" | "review_required";

const optionalIso = (v: unknown): string | null => (v === null || v === undefined ? null : isoOf(v));

/** The pull request of a `pullColumnsSql` row (either driver's values). */
export function pullRowToView(r: PullListRow): PullListItem {
  const labels = (typeof r.labels === "string" ? JSON.parse(r.labels) : (r.labels ?? [])) as PullLabel[];
  const view = toPullView({
    id: r.id,
    number: Number(r.number),
    title: r.title,
    body: r.body,
    state: r.state,
    sourceBranch: r.sourceBranch,
    targetBranch: r.targetBranch,
    headSha: r.headSha,
    baseSha: r.baseSha,
    authorId: r.authorId,
    author: r.authorId && r.authorUsername ? { id: r.authorId, username: r.authorUsername, name: r.authorName } : null,
    labels: labels.filter((l) => l && l.id).map((label) => ({ label })),
    isDraft: boolOf(r.isDraft),
    createdAt: isoOf(r.createdAt),
    updatedAt: isoOf(r.updatedAt),
    mergedAt: optionalIso(r.mergedAt),
    closedAt: optionalIso(r.closedAt),
  });
  return { ...view, commentCount: Number(r.commentCount ?? 0), reviewDecision: r.reviewDecision ?? null };
}

/** Lists pull requests of repository `repo` (already authorized for read). BAD_REQUEST for bad input. */
export async function listPullRequests(db: Db, repo: { id: string }, raw: ListPullsInput): Promise<PullListItem[]> {
  const input = listPullsInput.parse(raw);
  const { text, params } = pullsListSql(getConfig().provider, repo.id, input);
  return (await readRows<PullListRow>(db, text, params)).map(pullRowToView);
}
