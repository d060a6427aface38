/** teams.get: one team with its members and repositories. */
import type { z } from "zod";
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { memberReposWhere, type OrgRole, type TeamPermission } from "@/server/services/repos/grants";
import { findTeam, teamRefInput, toTeamView, type TeamMemberView, type TeamRepoView, type TeamView } from "./model";

/** A team with its members (by username) and repositories (by name), and the caller's org role. */
export interface TeamDetail extends TeamView {
  members: TeamMemberView[];
  repositories: TeamRepoView[];
  viewerRole: OrgRole;
}

/**
 * Team `slug` of organization `org`, for the organization's members. Owners see every repository
 * the team grants; members see those they can read themselves (a private repository stays hidden
 * from a member without access). Errors: NOT_FOUND (organization, team, or the caller is not a member).
 */
export async function getTeam(db: Db, actor: Actor, input: z.input<typeof teamRefInput>): Promise<TeamDetail> {
  const { org: orgName, slug } = teamRefInput.parse(input);
  const { org, role, team } = await findTeam(db, orgName, slug, actor.user.id, "member");
  const readable = role === "owner" || actor.user.isAdmin ? {} : { OR: [{ isPrivate: false }, ...memberReposWhere(actor.user.id)] };
  const [members, repos] = await Promise.all([
    db.teamMember.findMany({
      where: { teamId: team.id },
      select: { user: { select: { id: true, username: true, name: true } } },
      orderBy: { user: { usernameLower: "asc" } },
    }),
    db.teamRepo.findMany({
      where: { teamId: team.id, repo: readable },
      select: { permission: true, repo: { select: { id: true, name: true, isPrivate: true } } },
      orderBy: { repo: { nameLower: "asc" } },
    }),
  ]);
  return {
    ...toTeamView(org.username, team),
    viewerRole: role,
    members: members.map((m) => ({ userId: m.user.id, username: m.user.username, name: m.user.name })),
    repositories: repos.map((r) => ({
      repoId: r.repo.id,
      owner: org.username,
      name: r.repo.name,
      isPrivate: r.repo.isPrivate,
      permission: r.permission as TeamPermission,
    })),
  };
}
