/**
 * "My issues" across repositories (the dashboard): issues assigned to or created by the
 * caller, in every repository the caller can read — ONE SQL statement, with authorization in the
 * WHERE clause (GitHub's dashboard / `GET /issues?filter=assigned|created` behaves the same way).
 * Readable = public, owned, collaborating (any role), or every repository for a site admin. The
 * caller's token must hold repo:read (the router's access row, server/api/access.ts); that scope
 * caps nothing further here since listing is a read.
 */
import { readableRepoSql } from "@/server/services/repos/grants";
import { readRows } from "@/server/db/read";
import { z } from "zod";
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { getConfig } from "@/server/config";
import { Sql, issueSelectSql, rowToView, type Dialect, type Row } from "./query";
import type { IssueView } from "./shapes";

export const listMineInput = z.object({
  filter: z.enum(["assigned", "created"], { error: 'filter must be "assigned" or "created"' }),
  state: z.enum(["open", "closed", "all"], { error: 'state must be "open", "closed" or "all"' }).default("open"),
  limit: z
    .number({ error: "limit must be a number" })
    .int("limit must be an integer")
    .min(1, "limit is at least 1")
    .max(100, "limit is at most 100")
    .default(20),
});
export type ListMineInput = z.output<typeof listMineInput>;

/** An issue plus the repository it lives in. */
export type MyIssueView = IssueView & { repo: { id: string; owner: string; name: string } };

/**
 * The statement for `listMyIssues` (pure; parameters bound in text order). Newest update first,
 * then number descending.
 */
export function myIssuesSql(
  dialect: Dialect,
  user: { id: string; isAdmin: boolean },
  input: ListMineInput,
): { text: string; params: unknown[] } {
  const sql = new Sql(dialect);
  const who = input.filter === "assigned" ? `i."assigneeId" = ${sql.p(user.id)}` : `i."authorId" = ${sql.p(user.id)}`;
  const where = [who];
  if (input.state !== "all") where.push(`i."state" = ${sql.p(input.state)}`);
  if (!user.isAdmin) {
    where.push(readableRepoSql(sql, user.id));
  }
  const text = `${issueSelectSql(
    dialect,
    `, r."id" AS "repoId", r."name" AS "repoName", ru."username" AS "repoOwner"`,
    `
JOIN "Repository" r ON r."id" = i."repoId"
JOIN "User" ru ON ru."id" = r."ownerId"`,
  )}
WHERE ${where.join(" AND ")}
ORDER BY i."updatedAt" DESC, i."number" DESC
LIMIT ${sql.int(input.limit)}`;
  return { text, params: sql.params };
}

/**
 * Issues assigned to (`filter: "assigned"`) or created by (`"created"`) `actor`, in repositories
 * the actor can read, with each issue's repository {id, owner, name}. `state` "open" (default),
 * "closed" or "all"; `limit` 1–100 (default 20). Exactly one query. Errors: none beyond input
 * validation (BAD_REQUEST from the router's schema).
 */
export async function listMyIssues(db: Db, actor: Actor, input: ListMineInput): Promise<MyIssueView[]> {
  const { text, params } = myIssuesSql(getConfig().provider, actor.user, input);
  const rows = await readRows<Row & { repoId: string; repoName: string; repoOwner: string }>(db, text, params);
  return rows.map((r) => ({ ...rowToView(r), repo: { id: r.repoId, owner: r.repoOwner, name: r.repoName } }));
}
