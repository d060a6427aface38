/** teams.addRepo and teams.removeRepo: owners grant a team access to the organization's repositories. */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { line } from "@/server/validation/strings";
import type { Actor } from "@/server/auth/actor";
import type { TeamPermission } from "@/server/services/repos/grants";
import { findTeam, teamPermissionSchema, teamRefInput, type TeamRepoView } from "./model";

/** teams.removeRepo input: org, slug, repo (a repository name of the organization). */
export const teamRepoInput = teamRefInput.extend({ repo: line("repo").trim().min(1, "repo is required").max(100) });
/** teams.addRepo input: as removeRepo, plus permission? (the team's default). */
export const addTeamRepoInput = teamRepoInput.extend({ permission: teamPermissionSchema.optional() });

/** Repository `name` of organization `orgId`. Errors: NOT_FOUND naming it. */
async function orgRepo(db: Db, orgId: string, orgName: string, name: string) {
  const repo = await db.repository.findUnique({
    where: { ownerId_nameLower: { ownerId: orgId, nameLower: name.toLowerCase() } },
    select: { id: true, name: true, isPrivate: true },
  });
  if (!repo)
    throw new AppError("NOT_FOUND", `repository ${orgName}/${name} not found (a team can only have its organization's repositories)`);
  return repo;
}

/**
 * Grants team `slug` of organization `org` `permission` (default: the team's) on repository
 * `repo` of the same organization (owners only); an existing grant is changed to it. Takes effect
 * on the team members' next request. Errors: NOT_FOUND (organization, team, repository of the
 * organization); FORBIDDEN for members.
 */
export async function addTeamRepo(db: Db, actor: Actor, input: z.input<typeof addTeamRepoInput>): Promise<TeamRepoView> {
  const { org: orgName, slug, repo: repoName, permission } = addTeamRepoInput.parse(input);
  const { org, team } = await findTeam(db, orgName, slug, actor.user.id, "owner");
  const repo = await orgRepo(db, org.id, org.username, repoName);
  const perm = (permission ?? team.permission) as TeamPermission;
  await db.teamRepo.upsert({
    where: { teamId_repoId: { teamId: team.id, repoId: repo.id } },
    create: { teamId: team.id, repoId: repo.id, permission: perm },
    update: { permission: perm },
  });
  return { repoId: repo.id, owner: org.username, name: repo.name, isPrivate: repo.isPrivate, permission: perm };
}

/**
 * Removes the grant of team `slug` on repository `repo` (owners only).
 * Errors: NOT_FOUND (organization, team, repository, or no such grant); FORBIDDEN for members.
 */
export async function removeTeamRepo(db: Db, actor: Actor, input: z.input<typeof teamRepoInput>): Promise<{ removed: true }> {
  const { org: orgName, slug, repo: repoName } = teamRepoInput.parse(input);
  const { org, team } = await findTeam(db, orgName, slug, actor.user.id, "owner");
  const repo = await orgRepo(db, org.id, org.username, repoName);
  const { count } = await db.teamRepo.deleteMany({ where: { teamId: team.id, repoId: repo.id } });
  if (count === 0) throw new AppError("NOT_FOUND", `team ${org.username}/${team.slug} has no access to ${org.username}/${repo.name}`);
  return { removed: true };
}
