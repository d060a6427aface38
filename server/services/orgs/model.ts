/**
 * Organizations (docs/orgs.md): an organization is a `User` row with `isOrg` — an owner account
 * that shares the user namespace — and `OrgMember` rows with role owner | member. This file holds
 * the shapes and lookups every organization use case shares.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { BasePermission, OrgRole } from "@/server/services/repos/grants";

/** An organization as orgs.get / orgs.list / orgs.create answer it. */
export interface OrgView {
  id: string;
  name: string;
  displayName: string | null;
  basePermission: BasePermission;
  membersCanCreateRepos: boolean;
  /** Personal access tokens used on its repositories must expire within this many days (null: no policy; docs/orgs.md "Token policy"). */
  tokenMaxDays: number | null;
  /** Members (and every other grant on its repositories) need two-factor authentication (docs/security.md). */
  requireTwoFactor: boolean;
  createdAt: Date;
  /** The caller's role, or null for a non-member (and anonymous callers). */
  viewerRole: OrgRole | null;
}

/** A member as orgs.members answers it. */
export interface OrgMemberView {
  userId: string;
  username: string;
  name: string | null;
  role: OrgRole;
}

export const orgSelect = {
  id: true,
  username: true,
  name: true,
  orgBasePermission: true,
  orgRequireTwoFactor: true,
  orgMembersCanCreateRepos: true,
  orgTokenMaxDays: true,
  createdAt: true,
} as const;

type OrgRow = {
  id: string;
  username: string;
  name: string | null;
  orgBasePermission: string;
  orgMembersCanCreateRepos: boolean;
  orgTokenMaxDays: number | null;
  orgRequireTwoFactor: boolean;
  createdAt: Date;
};

/** The view of an organization row for a caller whose role is `viewerRole`. */
export function toOrgView(row: OrgRow, viewerRole: string | null): OrgView {
  return {
    id: row.id,
    name: row.username,
    displayName: row.name,
    basePermission: row.orgBasePermission as BasePermission,
    membersCanCreateRepos: row.orgMembersCanCreateRepos,
    tokenMaxDays: row.orgTokenMaxDays,
    requireTwoFactor: row.orgRequireTwoFactor,
    createdAt: row.createdAt,
    viewerRole: (viewerRole as OrgRole | null) ?? null,
  };
}

/**
 * The organization named `name` (case-insensitive) and `userId`'s role in it, in one query.
 * Errors: NOT_FOUND when there is no organization of that name (a user of that name is not one).
 */
export async function findOrg(db: Db, name: string, userId: string | null): Promise<{ org: OrgRow; role: OrgRole | null }> {
  const row = await db.user.findUnique({
    where: { usernameLower: name.toLowerCase() },
    select: { ...orgSelect, isOrg: true, orgMembers: { where: { userId: userId ?? "" }, select: { role: true } } },
  });
  if (!row?.isOrg) throw new AppError("NOT_FOUND", `organization ${name} not found`);
  return { org: row, role: (row.orgMembers[0]?.role as OrgRole | undefined) ?? null };
}

/**
 * `findOrg`, requiring the caller to be an owner (`need` "owner") or any member ("member").
 * Errors: NOT_FOUND as findOrg; FORBIDDEN naming the role needed.
 */
export async function findOrgAs(db: Db, name: string, userId: string, need: OrgRole): Promise<{ org: OrgRow; role: OrgRole }> {
  const found = await findOrg(db, name, userId);
  if (!found.role || (need === "owner" && found.role !== "owner"))
    throw new AppError("FORBIDDEN", `you need to be ${need === "owner" ? "an owner" : "a member"} of organization ${found.org.username}`);
  return { org: found.org, role: found.role };
}
