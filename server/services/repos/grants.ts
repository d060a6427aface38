/**
 * Where a repository permission comes from besides ownership and collaborator rows: the
 * organization that owns the repository (docs/orgs.md "Permissions"). Kept apart from access.ts
 * so the SQL that joins the grants is written once, and a later grant (team grants) is added here:
 * `grantJoinsSql` joins one row per grant source on alias `r` (Repository), `GRANT_COLUMNS` reads
 * them, `orgPermission` turns them into a permission (organization role, base permission, teams).
 *
 * Two-factor requirement (docs/security.md "Organizations requiring two-factor authentication"):
 * when the organization owning a repository requires it (User.orgRequireTwoFactor), every grant
 * here — collaborator row, membership (owner, base permission) and team grants — counts only for
 * users with two-factor authentication (User.twoFactorEnabled). Public read stays. Because every
 * credential (session, PAT, SSH key, git HTTP) goes through these conditions, all are covered.
 */
import type { Sql } from "@/server/services/issues/query";

/** A permission as access.ts ranks it. */
type Perm = "none" | "read" | "write" | "admin";

/** The organization roles (docs/orgs.md "Members"). */
export const ORG_ROLES = ["owner", "member"] as const;
export type OrgRole = (typeof ORG_ROLES)[number];
/** What an organization's members may do on its repositories. */
export const BASE_PERMISSIONS = ["none", "read", "write"] as const;
export type BasePermission = (typeof BASE_PERMISSIONS)[number];

/**
 * A caller's standing in the organization owning a repository: `role` is their membership role
 * (null: not a member, or the owner is a user), `basePermission` the organization's setting.
 */
export interface OrgGrant {
  role: string | null;
  basePermission: string;
  /** The highest permission a team of the caller grants on the repository (null/absent: none). */
  team?: string | null;
}

/** The team permissions (docs/orgs.md "Teams"). */
export const TEAM_PERMISSIONS = ["read", "write", "admin"] as const;
export type TeamPermission = (typeof TEAM_PERMISSIONS)[number];
const TEAM_RANK: Record<string, number> = { read: 1, write: 2, admin: 3 };

/** The highest of team permissions `perms` (none for an empty list or unknown values). */
export function highestTeamPermission(perms: readonly string[]): Perm {
  let best = 0;
  for (const p of perms) best = Math.max(best, TEAM_RANK[p] ?? 0);
  return best === 3 ? "admin" : best === 2 ? "write" : best === 1 ? "read" : "none";
}

/**
 * The permission an organization grants: its owners are admins of every repository, members get
 * the higher of the base permission (none | read | write) and their teams' grants on the
 * repository, anyone else nothing. Source of the rule: Gitea and GitHub organizations ("Owners"
 * team / base permission / team repository access).
 */
export function orgPermission(grant: OrgGrant | null | undefined): Perm {
  const team = highestTeamPermission(grant?.team ? [grant.team] : []);
  if (!grant?.role) return team;
  if (grant.role === "owner") return "admin";
  const base = grant.basePermission;
  return highestTeamPermission([team, base]);
}

/**
 * LEFT JOINs, on alias `r` (Repository) and `u` (its owner, User), of the grant rows of
 * `userId`: `c` its collaborator row, `m` its membership of the owning organization, `tg` the
 * highest rank (1 read, 2 write, 3 admin) its teams grant on the repository (an aggregate over
 * TeamRepo ⋈ TeamMember grouped by repository). One row per repository at most (all are unique
 * per repository/organization and user), so the joins keep the authorization query a single
 * statement.
 */
export function grantJoinsSql(sql: Sql, userId: string | null): string {
  const user = () => sql.p(userId ?? "");
  return grantJoins(user, () => `tm."userId" = ${user()}`, false);
}

/**
 * `grantJoinsSql` for many users at once, for the checks about other people
 * (repos/user-permissions.ts): the user is the column `userColumn` of each row (alias of a User
 * joined by the caller), the team aggregate is limited to `userIds` × `repoIds` and grouped per
 * user too (`tg` then also joins on the user). The same rule as `grantJoinsSql`, two-factor
 * requirement included.
 */
export function grantJoinsForUsersSql(sql: Sql, userColumn: string, userIds: readonly string[], repoIds: readonly string[]): string {
  return grantJoins(
    () => userColumn,
    () => `tm."userId" IN (${sql.list(userIds)}) AND tr."repoId" IN (${sql.list(repoIds)})`,
    true,
  );
}

/**
 * The grant joins of `grantJoinsSql`: `user()` is the SQL of the user's id (called once per use,
 * in text order, so positional placeholders stay in order), `teamWhere()` limits the team
 * aggregate, `perUser` groups it by user as well and joins it on `user()`.
 */
function grantJoins(user: () => string, teamWhere: () => string, perUser: boolean): string {
  const ok = () => twoFactorSatisfiedSql(`u."orgRequireTwoFactor"`, user);
  const by = perUser ? `, tm."userId"` : "";
  return `LEFT JOIN "Collaborator" c ON c."repoId" = r."id" AND c."userId" = ${user()} AND ${ok()}
    LEFT JOIN "OrgMember" m ON m."orgId" = r."ownerId" AND m."userId" = ${user()} AND ${ok()}
    LEFT JOIN (SELECT tr."repoId" AS "repoId"${perUser ? `, tm."userId" AS "userId"` : ""}, MAX(CASE tr."permission" WHEN 'admin' THEN 3 WHEN 'write' THEN 2 WHEN 'read' THEN 1 ELSE 0 END) AS "rank"
      FROM "TeamRepo" tr JOIN "TeamMember" tm ON tm."teamId" = tr."teamId"
      WHERE ${teamWhere()} GROUP BY tr."repoId"${by}) tg ON tg."repoId" = r."id"${perUser ? ` AND tg."userId" = ${user()}` : ""} AND ${ok()}`;
}

/**
 * SQL true when the owner's two-factor requirement (`requireColumn`, the owning User's
 * orgRequireTwoFactor) does not hold back the user `user()` (SQL of the user's id): the owner does
 * not require it, or the user has two-factor authentication (User.twoFactorEnabled).
 */
export function twoFactorSatisfiedSql(requireColumn: string, user: () => string): string {
  return `(NOT ${requireColumn} OR EXISTS (SELECT 1 FROM "User" tfu WHERE tfu."id" = ${user()} AND tfu."twoFactorEnabled"))`;
}

/** The columns `grantJoinsSql` makes available: collaborator role, org role, org base permission, team rank. */
export const GRANT_COLUMNS = `c."role" AS "role", m."role" AS "orgRole", u."orgBasePermission" AS "orgBase", tg."rank" AS "teamRank"`;

/** The team permission of a `teamRank` column (1 read, 2 write, 3 admin; null/0: none). */
export function teamPermissionOfRank(rank: unknown): TeamPermission | null {
  const n = Number(rank ?? 0);
  return n >= 3 ? "admin" : n === 2 ? "write" : n === 1 ? "read" : null;
}

/**
 * A condition on alias `r` (Repository): `userId` can read it — public, owned, a collaborator,
 * an owner of the organization owning it or a member when the base permission is not none, or on
 * a team granted it (those grants only with two-factor authentication when the organization
 * requires it). For the cross-repository lists (inbox, my issues); a site admin needs no condition.
 */
export function readableRepoSql(sql: Sql, userId: string): string {
  return readableRepoCondition(() => sql.p(userId));
}

/**
 * readableRepoSql's condition with the user given by `user()`, the SQL of the user's id each time
 * it is called: a bound parameter, or a column such as `u."id"` to test many users in one
 * statement (the notification fan-out, services/notifications/recipients.ts).
 */
export function readableRepoCondition(user: () => string): string {
  return `(NOT r."isPrivate" OR r."ownerId" = ${user()}
    OR (${twoFactorSatisfiedSql(`(SELECT tfo."orgRequireTwoFactor" FROM "User" tfo WHERE tfo."id" = r."ownerId")`, user)} AND (
      EXISTS (SELECT 1 FROM "Collaborator" mc WHERE mc."repoId" = r."id" AND mc."userId" = ${user()})
      OR EXISTS (SELECT 1 FROM "OrgMember" om JOIN "User" ou ON ou."id" = om."orgId"
        WHERE om."orgId" = r."ownerId" AND om."userId" = ${user()} AND (om."role" = 'owner' OR ou."orgBasePermission" <> 'none'))
      OR EXISTS (SELECT 1 FROM "TeamRepo" rtr JOIN "TeamMember" rtm ON rtm."teamId" = rtr."teamId"
        WHERE rtr."repoId" = r."id" AND rtm."userId" = ${user()}))))`;
}

/** Prisma `select` part, on a Repository, of the team grants of `userId` on it (`teamGrants`). */
export function teamGrantsSelect(userId: string) {
  return { teamGrants: { where: { team: { members: { some: { userId } } } }, select: { permission: true } } } as const;
}

/** The highest team permission of a repository loaded with `teamGrantsSelect` (null: none). */
export function teamGrantOf(repo: { teamGrants?: { permission: string }[] }): string | null {
  const p = highestTeamPermission((repo.teamGrants ?? []).map((g) => g.permission));
  return p === "none" ? null : p;
}

/**
 * Prisma conditions (to OR together) on a Repository: `userId` has a role on it — owns it,
 * collaborates on it, owns the organization owning it, or is a member there with a base permission
 * other than none (grants other than ownership only with two-factor authentication when the
 * owning organization requires it). The Prisma form of `readableRepoSql` without the public case.
 */
export function memberReposWhere(userId: string) {
  // each grant twice: under an owner without the two-factor requirement, or held by a user with 2FA
  const free = { orgRequireTwoFactor: false };
  const tf = { twoFactorEnabled: true };
  return [
    { ownerId: userId },
    { owner: free, collaborators: { some: { userId } } },
    { collaborators: { some: { userId, user: tf } } },
    { owner: { ...free, orgMembers: { some: { userId, role: "owner" } } } },
    { owner: { orgMembers: { some: { userId, role: "owner", user: tf } } } },
    { owner: { ...free, orgBasePermission: { not: "none" }, orgMembers: { some: { userId } } } },
    { owner: { orgBasePermission: { not: "none" }, orgMembers: { some: { userId, user: tf } } } },
    { owner: free, teamGrants: { some: { team: { members: { some: { userId } } } } } },
    { teamGrants: { some: { team: { members: { some: { userId, user: tf } } } } } },
  ];
}
