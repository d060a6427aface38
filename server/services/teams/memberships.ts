/**
 * The team memberships of a set of users, for the checks that reason about other people (merge
 * requirements: whether a reviewer writes through a team, whether an approver is on a CODEOWNERS
 * team). One statement whatever the organization's size: rows grow with the users' teams only.
 */
import type { Db } from "@/server/db";
import { readRows } from "@/server/db/read";
import { getConfig } from "@/server/config";
import { Sql } from "@/server/services/issues/query";

/** One team membership of a user, with the team's grant on one of the asked repositories (if any). */
export interface UserTeamRow {
  userId: string;
  /** `org/slug`, lower-cased: the CODEOWNERS name of the team. */
  team: string;
  /** The repository granted (one of `repoIds`), or null when the team has none of them. */
  repoId: string | null;
  permission: string | null;
}

/**
 * The teams of `userIds`, each joined with its grants on `repoIds` (a team with several of them
 * gives one row each; a team with none one row with repoId null). Empty without users.
 */
export async function teamsOfUsers(db: Db, userIds: readonly string[], repoIds: readonly string[]): Promise<UserTeamRow[]> {
  if (userIds.length === 0) return [];
  const sql = new Sql(getConfig().provider);
  const repos = repoIds.length ? `AND tr."repoId" IN (${sql.list(repoIds)})` : "AND 1 = 0";
  const text = `SELECT tm."userId" AS "userId", o."usernameLower" AS "org", t."slug" AS "slug", tr."repoId" AS "repoId", tr."permission" AS "permission"
    FROM "TeamMember" tm JOIN "Team" t ON t."id" = tm."teamId" JOIN "User" o ON o."id" = t."orgId"
    LEFT JOIN "TeamRepo" tr ON tr."teamId" = t."id" ${repos}
    WHERE tm."userId" IN (${sql.list(userIds)})`;
  const rows = await readRows<{ userId: string; org: string; slug: string; repoId: string | null; permission: string | null }>(
    db,
    text,
    sql.params,
  );
  return rows.map((r) => ({ userId: r.userId, team: `${r.org}/${r.slug}`, repoId: r.repoId ?? null, permission: r.permission ?? null }));
}
