/**
 * Teams of an organization (docs/orgs.md "Teams"): named groups of the organization's members that
 * grant access to some of its repositories and can be asked for reviews (`@org/slug` in
 * CODEOWNERS). This file holds the shapes, the slug rule and the lookups every team use case shares.
 * Who may do what: the organization's owners manage teams; its members may list and read them;
 * anyone else gets NOT_FOUND (teams are not public, as a private organization page).
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { line } from "@/server/validation/strings";
import { findOrg } from "@/server/services/orgs/model";
import { TEAM_PERMISSIONS, type OrgRole, type TeamPermission } from "@/server/services/repos/grants";

export const teamPermissionSchema = z.enum(TEAM_PERMISSIONS, { error: 'permission must be "read", "write" or "admin"' });
export const orgField = line("org").trim().min(1, "org is required").max(100);
export const slugField = line("slug").trim().min(1, "slug is required").max(100);
/** The input naming a team: {org, slug}. */
export const teamRefInput = z.object({ org: orgField, slug: slugField });

/** A team as teams.list / create / update answer it. */
export interface TeamView {
  id: string;
  org: string;
  name: string;
  slug: string;
  description: string | null;
  /** The permission a repository added without one gets. */
  permission: TeamPermission;
  memberCount: number;
  repoCount: number;
  createdAt: Date;
}

/** A team member as teams.get answers it. */
export interface TeamMemberView {
  userId: string;
  username: string;
  name: string | null;
}

/** A repository a team grants, as teams.get answers it. */
export interface TeamRepoView {
  repoId: string;
  owner: string;
  name: string;
  isPrivate: boolean;
  permission: TeamPermission;
}

/**
 * The slug of team name `name`: lowercased, each run of characters other than a–z, 0–9, "_" and "."
 * turned into "-", without leading or trailing "-" (GitHub's rule for team slugs). Errors:
 * BAD_REQUEST when nothing is left.
 */
export function teamSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9_.]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (!slug) throw new AppError("BAD_REQUEST", `team name "${name}" needs at least one letter or digit`);
  return slug;
}

export const teamSelect = {
  id: true,
  name: true,
  slug: true,
  description: true,
  permission: true,
  createdAt: true,
  _count: { select: { members: true, repos: true } },
} as const;

type TeamRow = {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  permission: string;
  createdAt: Date;
  _count: { members: number; repos: number };
};

/** The view of a team row of organization `org`. */
export function toTeamView(org: string, row: TeamRow): TeamView {
  return {
    id: row.id,
    org,
    name: row.name,
    slug: row.slug,
    description: row.description,
    permission: row.permission as TeamPermission,
    memberCount: row._count.members,
    repoCount: row._count.repos,
    createdAt: row.createdAt,
  };
}

/**
 * Organization `name` and the caller's role, requiring membership (`need` "member") or ownership
 * ("owner"). Errors: NOT_FOUND for a missing organization and for anyone not a member (teams are
 * only visible inside the organization); FORBIDDEN for a member when an owner is needed.
 */
export async function findOrgForTeams(db: Db, name: string, userId: string, need: OrgRole) {
  const { org, role } = await findOrg(db, name, userId);
  if (!role) throw new AppError("NOT_FOUND", `teams of organization ${org.username} not found`);
  if (need === "owner" && role !== "owner")
    throw new AppError("FORBIDDEN", `you need to be an owner of organization ${org.username} to manage its teams`);
  return { org, role };
}

/**
 * Team `slug` of organization `orgName` with the checks of `findOrgForTeams`.
 * Errors: those of findOrgForTeams; NOT_FOUND for an unknown team.
 */
export async function findTeam(db: Db, orgName: string, slug: string, userId: string, need: OrgRole) {
  const { org, role } = await findOrgForTeams(db, orgName, userId, need);
  const team = await db.team.findUnique({ where: { orgId_slug: { orgId: org.id, slug: slug.toLowerCase() } }, select: teamSelect });
  if (!team) throw new AppError("NOT_FOUND", `team ${org.username}/${slug} not found`);
  return { org, role, team };
}
