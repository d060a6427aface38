/**
 * The pull request inbox (spec pulls.inboxSummary, inboxAwaitingReview, inboxMyPrs,
 * inboxParticipated; inboxReadyToMerge is an extension; docs/pulls.md "Inbox"), across every repository the caller can read, or
 * one (`repoId`). Each list and the summary is ONE SQL statement (readyToMerge then filtered by
 * branch protection: inbox-ready.ts) with the authorization in its
 * WHERE clause (as issues.listMine: public, owned, collaborating with any role, or every
 * repository for a site admin), so a removed collaborator's inbox drops that repository's pull
 * requests at once. The caller's token needs repo:read (the access table's user-tier row).
 *
 * The lists, decided as GitHub's pull request dashboard:
 *   - awaitingReview ("Review requests"): open pull requests with a pending review request for
 *     the caller (a request row; submitting a review fulfils it), or for a team the caller is on
 *     that no member with access has reviewed yet (not the caller's own pull requests; marked
 *     `viaTeam` "org/slug" unless also requested directly; docs/orgs.md "Teams"). Drafts included.
 *   - myPrs ("Your pull requests", awaiting others): the caller's open, non-draft pull requests
 *     that either have a pending review request, or have no approval from anyone else — each
 *     reviewer counted by their latest approve / request-changes review, so an approval later
 *     followed by "changes requested" from the same reviewer no longer counts. Drafts are not
 *     awaiting review; an approved pull request with no pending request is ready to merge.
 *   - readyToMerge (extension; "Ready to merge" on the Your pull requests tab, as GitHub's and
 *     Graphite's dashboards keep them): the caller's other open, non-draft pull requests — no
 *     pending review request and an approval from someone else that still counts (the SQL
 *     candidates), then, as the merge box decides: no conflicts known and every branch
 *     protection requirement of the target branch satisfied (inbox-ready.ts). A candidate that
 *     fails one is in myPrs instead (it awaits others: reviewers, checks), so myPrs and
 *     readyToMerge together are still all of the caller's open, non-draft pull requests.
 *   - participated: pull requests the caller commented on (published, not deleted) or reviewed,
 *     and did not author; state open (default), closed (closed or merged) or all.
 * Each list: newest activity first (updatedAt desc, then id), limit 1–100 (20), offset ≥ 0;
 * each item the pull request as pulls.list shows it plus its repository {id, owner, name}.
 */
import { readableRepoCondition, readableRepoSql } from "@/server/services/repos/grants";
import { z } from "zod";
import { readRows } from "@/server/db/read";
import { isoOf } from "@/server/db/raw";
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { getConfig } from "@/server/config";
import { Sql, type Dialect } from "@/server/services/issues/query";
import { uuid } from "@/server/validation/ids";
import { pullColumnsSql, pullRowToView, type PullListItem, type PullListRow } from "./list-pull-requests";
import { READY_CANDIDATES_MAX, readyOnly } from "./inbox-ready";

export const INBOX_LISTS = ["awaitingReview", "myPrs", "readyToMerge", "participated"] as const;
export type InboxList = (typeof INBOX_LISTS)[number];

const limit = z
  .number({ error: "limit must be a number" })
  .int("limit must be an integer")
  .min(1, "limit is at least 1")
  .max(100, "limit is at most 100")
  .default(20);
const offset = z
  .number({ error: "offset must be a number" })
  .int("offset must be an integer")
  .min(0, "offset must not be negative")
  .max(1_000_000, "offset is at most 1000000")
  .default(0);

export const inboxSummaryInput = z.object({ repoId: uuid("repoId").optional() });
export const inboxListInput = z.object({ repoId: uuid("repoId").optional(), limit, offset });
export const inboxParticipatedInput = inboxListInput.extend({
  state: z.enum(["open", "closed", "all"], { error: 'state must be "open", "closed" or "all"' }).default("open"),
});
export type InboxListInput = z.output<typeof inboxParticipatedInput>;
type InboxUser = { id: string; isAdmin: boolean };

/** A pull request of the inbox: pulls.list's row (commentCount and reviewDecision included) plus its repository. */
export type InboxPullView = PullListItem & {
  repo: { id: string; owner: string; name: string };
  /** awaitingReview only: the team ("org/slug") the review is requested from, when not from the caller directly. */
  viaTeam?: string;
};

/** The readable-repository condition on alias `r` (nothing for a site admin). */
function readable(sql: Sql, user: InboxUser): string[] {
  if (user.isAdmin) return [];
  return [readableRepoSql(sql, user.id)];
}

/**
 * FROM and WHERE of list `list` over alias p (PullRequest) and r (Repository): every condition
 * but paging. Shared by the list and the summary statements.
 */
function listFrom(sql: Sql, list: InboxList, user: InboxUser, input: { repoId?: string; state?: "open" | "closed" | "all" }): string {
  const where: string[] = [];
  let from: string;
  if (list === "awaitingReview") {
    // driven by the caller's requests ((reviewerId) index) and those of their teams ((userId)
    // index of TeamMember), one row per pull request, then a primary-key probe per pull request
    // (CROSS JOIN keeps that order on SQLite, whatever its statistics say)
    from = `${awaitingSql(sql, user.id)} rr CROSS JOIN "PullRequest" p`;
    where.push(`p."id" = rr."pullRequestId"`, `p."state" = 'open'`);
    where.push(`(rr."direct" = 1 OR p."authorId" IS NULL OR p."authorId" <> ${sql.p(user.id)})`);
  } else if (list === "myPrs" || list === "readyToMerge") {
    from = `"PullRequest" p`;
    const me = sql.p(user.id);
    where.push(`p."authorId" = ${me}`, `p."state" = 'open'`, `NOT p."isDraft"`);
    const requested = `EXISTS (SELECT 1 FROM "PullRequestReviewRequest" q WHERE q."pullRequestId" = p."id")`;
    const approved = `EXISTS (SELECT 1 FROM "PullRequestReview" a WHERE a."pullRequestId" = p."id" AND a."state" = 'approved' AND a."authorId" IS NOT NULL AND a."authorId" <> ${sql.p(user.id)}
          AND NOT EXISTS (SELECT 1 FROM "PullRequestReview" z WHERE z."pullRequestId" = p."id" AND z."authorId" = a."authorId" AND z."state" = 'changes_requested' AND z."createdAt" > a."createdAt"))`;
    // the two lists split the author's open non-draft pull requests between them
    where.push(list === "myPrs" ? `(${requested} OR NOT ${approved})` : `NOT ${requested} AND ${approved}`);
  } else {
    // the caller's comments and reviews by their (authorId, pullRequestId) indexes
    const me1 = sql.p(user.id);
    const me2 = sql.p(user.id);
    from = `(SELECT c."pullRequestId" AS "id" FROM "PullRequestComment" c WHERE c."authorId" = ${me1} AND NOT c."isPending" AND c."deletedAt" IS NULL
      UNION SELECT v."pullRequestId" FROM "PullRequestReview" v WHERE v."authorId" = ${me2}) mine
      JOIN "PullRequest" p ON p."id" = mine."id"`;
    where.push(`(p."authorId" IS NULL OR p."authorId" <> ${sql.p(user.id)})`);
    if (input.state === "open") where.push(`p."state" = 'open'`);
    else if (input.state === "closed") where.push(`p."state" IN ('closed', 'merged')`);
  }
  if (input.repoId) where.push(`p."repoId" = ${sql.p(input.repoId)}`);
  where.push(`r."id" = p."repoId"`, ...readable(sql, user));
  // CROSS JOIN: SQLite keeps the repository as the inner loop (the caller's rows first, from their
  // indexes, then one primary-key probe each); with statistics it would otherwise scan every
  // readable repository first. PostgreSQL plans it as the inner join it is.
  return `${from} CROSS JOIN "Repository" r WHERE ${where.join(" AND ")}`;
}

/**
 * The pull requests whose review is requested from `userId`: directly (`direct` 1), or from a team
 * they are on that no member has reviewed yet (`via`: the first such team's "org/slug"). One row
 * per pull request (alias it; columns "pullRequestId", "direct", "via"). Only reviews by members
 * who can read the repository now count (grants.ts `readableRepoCondition`, or a site admin), as in
 * team-reviewers.ts `listTeamReviewers`: a member held back by an organization's two-factor
 * requirement does not answer the team's request.
 */
function awaitingSql(sql: Sql, userId: string): string {
  return `(SELECT w."pullRequestId" AS "pullRequestId", MAX(w."direct") AS "direct", MIN(w."via") AS "via" FROM (
      SELECT q."pullRequestId" AS "pullRequestId", 1 AS "direct", NULL AS "via" FROM "PullRequestReviewRequest" q WHERE q."reviewerId" = ${sql.p(userId)}
      UNION ALL
      SELECT tq."pullRequestId", 0, o."username" || '/' || t."slug"
        FROM "TeamMember" tm JOIN "PullRequestTeamReviewRequest" tq ON tq."teamId" = tm."teamId"
        JOIN "Team" t ON t."id" = tm."teamId" JOIN "User" o ON o."id" = t."orgId"
        WHERE tm."userId" = ${sql.p(userId)}
          AND NOT EXISTS (SELECT 1 FROM "PullRequestReview" tv JOIN "TeamMember" tvm ON tvm."userId" = tv."authorId" AND tvm."teamId" = tq."teamId"
            JOIN "PullRequest" tp ON tp."id" = tv."pullRequestId" JOIN "Repository" r ON r."id" = tp."repoId"
            WHERE tv."pullRequestId" = tq."pullRequestId" AND (${readableRepoCondition(() => `tv."authorId"`)}
              OR EXISTS (SELECT 1 FROM "User" ta WHERE ta."id" = tv."authorId" AND ta."isAdmin")))
    ) w GROUP BY w."pullRequestId")`;
}

/** The statement of list `list` (pure; parameters bound in text order; exported for the benchmark). */
export function inboxListSql(
  dialect: Dialect,
  list: InboxList,
  user: InboxUser,
  input: InboxListInput,
): { text: string; params: unknown[] } {
  const sql = new Sql(dialect);
  const via = list === "awaitingReview" ? `CASE WHEN rr."direct" = 1 THEN NULL ELSE rr."via" END` : "NULL";
  const page = `SELECT p."id", p."updatedAt", ${via} AS "viaTeam" FROM ${listFrom(sql, list, user, input)} ORDER BY p."updatedAt" DESC, p."id" DESC LIMIT ${sql.int(input.limit)} OFFSET ${sql.int(input.offset)}`;
  // the page's ids first (a CTE), then pulls.list's columns, author and labels, and the repository, of those rows only
  const text = `WITH page AS (${page})
SELECT ${pullColumnsSql(dialect)},
  r."id" AS "repoId", r."name" AS "repoName", ru."username" AS "repoOwner", page."viaTeam" AS "viaTeam"
FROM page JOIN "PullRequest" p ON p."id" = page."id"
JOIN "Repository" r ON r."id" = p."repoId"
JOIN "User" ru ON ru."id" = r."ownerId"
LEFT JOIN "User" au ON au."id" = p."authorId"
ORDER BY page."updatedAt" DESC, page."id" DESC`;
  return { text, params: sql.params };
}

/** The summary statement: the three counts as scalar subqueries of one SELECT (pure). */
export function inboxSummarySql(dialect: Dialect, user: InboxUser, input: { repoId?: string }): { text: string; params: unknown[] } {
  const sql = new Sql(dialect);
  const count = (list: InboxList) => `(SELECT COUNT(*) FROM ${listFrom(sql, list, user, { ...input, state: "open" })})`;
  const text = `SELECT ${count("awaitingReview")} AS "awaitingReview", ${count("myPrs")} AS "myPrs", ${count("readyToMerge")} AS "readyToMerge", ${count("participated")} AS "participated"`;
  return { text, params: sql.params };
}

/**
 * The awaiting-review count alone (pure; exported for the benchmark): the summary's first
 * subquery, for the top navigation's badge on every page, which needs nothing else.
 */
export function inboxAwaitingCountSql(dialect: Dialect, user: InboxUser): { text: string; params: unknown[] } {
  const sql = new Sql(dialect);
  return {
    text: `SELECT COUNT(*) AS "awaitingReview" FROM ${listFrom(sql, "awaitingReview", user, { state: "open" })}`,
    params: sql.params,
  };
}

type Row = PullListRow & { repoId: string; repoName: string; repoOwner: string; viaTeam?: string | null };

function toInboxView(r: Row): InboxPullView {
  return {
    ...pullRowToView(r),
    repo: { id: r.repoId, owner: r.repoOwner, name: r.repoName },
    ...(r.viaTeam ? { viaTeam: r.viaTeam } : {}),
  };
}

/**
 * Inbox list `list` for `actor` (see the module comment for what each holds). One statement;
 * myPrs and readyToMerge then split the approved candidates by branch protection (`splitReady`).
 * Input validated here too (BAD_REQUEST via zod); a `repoId` the caller cannot read lists nothing.
 */
export async function listInbox(
  db: Db,
  actor: Actor,
  list: InboxList,
  raw: z.input<typeof inboxParticipatedInput>,
): Promise<InboxPullView[]> {
  const input = inboxParticipatedInput.parse(raw);
  const page = (rows: Row[]) => rows.slice(input.offset, input.offset + input.limit).map(toInboxView);
  if (list === "readyToMerge") return page((await splitReady(db, actor, input)).ready);
  if (list === "myPrs") {
    const { blocked } = await splitReady(db, actor, input);
    if (blocked.length) {
      // the SQL list's first offset + limit rows merged with the blocked candidates, then paged
      const head = inboxListSql(getConfig().provider, list, actor.user, { ...input, offset: 0, limit: input.offset + input.limit });
      return page([...(await readRows<Row>(db, head.text, head.params)), ...blocked].sort(byActivity));
    }
  }
  const { text, params } = inboxListSql(getConfig().provider, list, actor.user, input);
  return (await readRows<Row>(db, text, params)).map(toInboxView);
}

/** The lists' order: newest activity first, then id (as the SQL's ORDER BY). */
function byActivity(a: Row, b: Row): number {
  const at = (r: Row) => Date.parse(isoOf(r.updatedAt));
  return at(b) - at(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * The caller's approved candidates (readyToMerge's SQL condition, newest activity first, at most
 * READY_CANDIDATES_MAX) split by inbox-ready.ts `readyOnly`: `ready` is the readyToMerge list,
 * `blocked` (a requirement unmet, or conflicts known) belongs to myPrs. Paged by the caller, so
 * the lists and the summary's counts agree.
 */
async function splitReady(db: Db, actor: Actor, input: { repoId?: string }): Promise<{ ready: Row[]; blocked: Row[] }> {
  const all = { repoId: input.repoId, state: "open" as const, limit: READY_CANDIDATES_MAX, offset: 0 };
  const { text, params } = inboxListSql(getConfig().provider, "readyToMerge", actor.user, all);
  const candidates = await readRows<Row>(db, text, params);
  const ready = await readyOnly(db, candidates);
  const readyIds = new Set(ready.map((r) => r.id));
  return { ready, blocked: candidates.filter((r) => !readyIds.has(r.id)) };
}

/**
 * {awaitingReview, myPrs, readyToMerge, participated}: the lists' sizes (participated: open ones).
 * One statement, plus the split of readyToMerge's candidates (`splitReady`) when there are any.
 */
export async function inboxSummary(db: Db, actor: Actor, raw: z.input<typeof inboxSummaryInput>): Promise<Record<InboxList, number>> {
  const input = inboxSummaryInput.parse(raw);
  const { text, params } = inboxSummarySql(getConfig().provider, actor.user, input);
  const [row] = await readRows<Record<InboxList, unknown>>(db, text, params);
  // the SQL counts the approved candidates; the lists' own split decides which are ready
  const split = Number(row.readyToMerge) === 0 ? { ready: [], blocked: [] } : await splitReady(db, actor, input);
  return {
    awaitingReview: Number(row.awaitingReview),
    myPrs: Number(row.myPrs) + split.blocked.length,
    readyToMerge: split.ready.length,
    participated: Number(row.participated),
  };
}

/**
 * {awaitingReview}: how many open pull requests await the caller's review across every
 * repository they can read — inboxSummary's first count, alone (extension: the top navigation
 * shows it on every page). One statement.
 */
export async function inboxAwaitingCount(db: Db, actor: Actor): Promise<{ awaitingReview: number }> {
  const { text, params } = inboxAwaitingCountSql(getConfig().provider, actor.user);
  const [row] = await readRows<{ awaitingReview: unknown }>(db, text, params);
  return { awaitingReview: Number(row.awaitingReview) };
}
