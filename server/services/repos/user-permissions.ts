/**
 * The permission of *other* users on repositories, for checks that reason about someone else
 * than the caller: who may be requested as a reviewer (pulls/reviewers.ts), assigned an issue
 * (issues/references.ts, repos/collaborators.ts `listAssignees`), requested as a code owner
 * (branch-protection/codeowner-reviewers.ts), and whose approval counts toward a branch rule
 * (branch-protection/pull-requirements.ts).
 *
 * It is the same rule as the caller's own (access.ts `permissionOf` over grants.ts's joins), read
 * for many users and repositories in ONE statement, so an organization's two-factor requirement
 * (docs/security.md "Organizations requiring two-factor authentication") holds back a user without
 * two-factor authentication here exactly as on their own requests: their collaborator row,
 * membership and team grants on the organization's repositories count for nothing. No token
 * scope cap applies (these are roles, not a request's effective permission).
 */
import { readRows } from "@/server/db/read";
import type { Db } from "@/server/db";
import { boolOf } from "@/server/db/raw";
import { getConfig } from "@/server/config";
import { Sql } from "@/server/services/issues/query";
import { permissionOf, type Permission } from "./access";
import { GRANT_COLUMNS, grantJoinsForUsersSql, teamPermissionOfRank } from "./grants";

/** Anything `readRows` can read through: the database or a transaction's client. */
type Reader = Pick<Db, "$queryRawUnsafe">;

/** Permissions by repository id, then user id. */
export type UserPermissions = Map<string, Map<string, Permission>>;

/**
 * The role permission (none | read | write | admin) of each of `userIds` on each of `repoIds`:
 * owner or site admin → admin, else the highest of the collaborator role, the owning
 * organization's grant (owner, base permission, teams) — those only with two-factor
 * authentication when the organization requires it — and public → read. One statement whatever
 * the numbers (none when either list is empty). Unknown users or repositories are absent from the
 * result: read them as "none" (`permissionIn`). `grantsOnly`: leave out public read (what the
 * users hold themselves: the people who can be assigned or requested). Errors: database errors.
 */
export async function usersPermissions(
  db: Reader,
  repoIds: readonly string[],
  userIds: readonly string[],
  { grantsOnly = false }: { grantsOnly?: boolean } = {},
): Promise<UserPermissions> {
  const out: UserPermissions = new Map();
  const users = [...new Set(userIds)];
  const repos = [...new Set(repoIds)];
  if (users.length === 0 || repos.length === 0) return out;
  const sql = new Sql(getConfig().provider);
  const text = `SELECT p."id" AS "userId", p."isAdmin" AS "isAdmin", r."id" AS "repoId", r."ownerId" AS "ownerId", r."isPrivate" AS "isPrivate", ${GRANT_COLUMNS}
    FROM "User" p CROSS JOIN "Repository" r JOIN "User" u ON u."id" = r."ownerId"
    ${grantJoinsForUsersSql(sql, `p."id"`, users, repos)}
    WHERE p."id" IN (${sql.list(users)}) AND r."id" IN (${sql.list(repos)})`;
  const rows = await readRows<{
    userId: string;
    isAdmin: unknown;
    repoId: string;
    ownerId: string;
    isPrivate: unknown;
    role: string | null;
    orgRole: string | null;
    orgBase: string;
    teamRank: unknown;
  }>(db, text, sql.params);
  for (const row of rows) {
    const permission = permissionOf(
      { ownerId: row.ownerId, isPrivate: grantsOnly || boolOf(row.isPrivate) },
      { id: row.userId, isAdmin: boolOf(row.isAdmin) },
      row.role ?? null,
      { role: row.orgRole ?? null, basePermission: row.orgBase, team: teamPermissionOfRank(row.teamRank) },
    );
    if (!out.has(row.repoId)) out.set(row.repoId, new Map());
    out.get(row.repoId)!.set(row.userId, permission);
  }
  return out;
}

/** The permission of `userId` on `repoId` in a `usersPermissions` result ("none" when absent). */
export function permissionIn(perms: UserPermissions, repoId: string, userId: string | null | undefined): Permission {
  return (userId ? perms.get(repoId)?.get(userId) : undefined) ?? "none";
}

/** `usersPermissions` of one user on one repository. */
export async function userPermission(db: Reader, repoId: string, userId: string): Promise<Permission> {
  return permissionIn(await usersPermissions(db, [repoId], [userId]), repoId, userId);
}
