/**
 * The team memberships of a set of users, for the checks that reason about other people (merge
 * requirements: whether an approver is on a CODEOWNERS team). One statement whatever the
 * organization's size: rows grow with the users' teams only.
 */
import type { Db } from "@/server/db";
import { readRows } from "@/server/db/read";
import { getConfig } from "@/server/config";
import { Sql } from "@/server/services/issues/query";

/** One team membership of a user. */
export interface UserTeamRow {
  userId: string;
  /** `org/slug`, lower-cased: the CODEOWNERS name of the team. */
  team: string;
}

/**
 * The teams of `userIds`: one row per (user, team) membership, in no particular order. Empty
 * without users. A team's repository grants are not read here (a reviewer's permission, teams
 * included, comes from usersPermissions in server/services/repos/user-permissions).
 */
export async function teamsOfUsers(db: Db, userIds: readonly string[]): Promise<UserTeamRow[]> {
  if (userIds.length === 0) return [];
  const sql = new Sql(getConfig().provider);
  const text = `SELECT tm."userId" AS "userId", o."usernameLower" AS "org", t."slug" AS "slug"
    FROM "TeamMember" tm JOIN "Team" t ON t."id" = tm."teamId" JOIN "User" o ON o."id" = t."orgId"
    WHERE tm."userId" IN (${sql.list(userIds)})`;
  const rows = await readRows<{ userId: string; org: string; slug: string }>(db, text, sql.params);
  return rows.map((r) => ({ userId: r.userId, team: `${r.org}/${r.slug}` }));
}
