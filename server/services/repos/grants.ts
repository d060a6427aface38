/**
 * Where a repository permission comes from besides ownership and collaborator rows: the
 * organization that owns the repository (docs/orgs.md "Permissions"). Kept apart from access.ts
 * so the SQL that joins the grants is written once, and a later grant (team grants) is added here:
 * `grantJoinsSql` joins one row per grant source on alias `r` (Repository), `GRANT_COLUMNS` reads
 * them, `orgPermission` turns them into a permission.
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
}

/**
 * The permission an organization grants: its owners are admins of every repository, members get
 * the base permission (none | read | write), anyone else nothing. Source of the rule: Gitea and
 * GitHub organizations ("Owners" team / base permission).
 */
export function orgPermission(grant: OrgGrant | null | undefined): Perm {
  if (!grant?.role) return "none";
  if (grant.role === "owner") return "admin";
  const base = grant.basePermission;
  return base === "read" || base === "write" ? base : "none";
}

/**
 * LEFT JOINs, on alias `r` (Repository) and `u` (its owner, User), of the grant rows of
 * `userId`: `c` its collaborator row, `m` its membership of the owning organization. One row per
 * repository at most (both are unique per repository/organization and user), so the joins keep
 * the authorization query a single statement.
 */
export function grantJoinsSql(sql: Sql, userId: string | null): string {
  return `LEFT JOIN "Collaborator" c ON c."repoId" = r."id" AND c."userId" = ${sql.p(userId ?? "")}
    LEFT JOIN "OrgMember" m ON m."orgId" = r."ownerId" AND m."userId" = ${sql.p(userId ?? "")}`;
}

/** The columns `grantJoinsSql` makes available: collaborator role, org role, org base permission. */
export const GRANT_COLUMNS = `c."role" AS "role", m."role" AS "orgRole", u."orgBasePermission" AS "orgBase"`;

/**
 * A condition on alias `r` (Repository): `userId` can read it — public, owned, a collaborator,
 * an owner of the organization owning it or a member when the base permission is not none.
 * For the cross-repository lists (inbox, my issues); a site admin needs no condition.
 */
export function readableRepoSql(sql: Sql, userId: string): string {
  return `(NOT r."isPrivate" OR r."ownerId" = ${sql.p(userId)}
    OR EXISTS (SELECT 1 FROM "Collaborator" mc WHERE mc."repoId" = r."id" AND mc."userId" = ${sql.p(userId)})
    OR EXISTS (SELECT 1 FROM "OrgMember" om JOIN "User" ou ON ou."id" = om."orgId"
      WHERE om."orgId" = r."ownerId" AND om."userId" = ${sql.p(userId)} AND (om."role" = 'owner' OR ou."orgBasePermission" <> 'none')))`;
}

/** Prisma `select` part, on a User, of their membership of organization `orgId` (a repository's owner id). */
export function orgMembershipSelect(orgId: string) {
  return { orgMemberships: { where: { orgId }, select: { role: true, org: { select: { orgBasePermission: true } } } } } as const;
}

/** The OrgGrant of a user loaded with `orgMembershipSelect` (null: not a member). */
export function orgGrantOf(user: { orgMemberships: { role: string; org: { orgBasePermission: string } }[] }): OrgGrant | null {
  const m = user.orgMemberships[0];
  return m ? { role: m.role, basePermission: m.org.orgBasePermission } : null;
}

/**
 * Prisma conditions (to OR together) on a Repository: `userId` has a role on it — owns it,
 * collaborates on it, owns the organization owning it, or is a member there with a base permission
 * other than none. The Prisma form of `readableRepoSql` without the public case.
 */
export function memberReposWhere(userId: string) {
  return [
    { ownerId: userId },
    { collaborators: { some: { userId } } },
    { owner: { orgMembers: { some: { userId, role: "owner" } } } },
    { owner: { orgBasePermission: { not: "none" }, orgMembers: { some: { userId } } } },
  ];
}
