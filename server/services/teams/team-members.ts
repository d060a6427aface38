/** teams.addMember and teams.removeMember: owners put organization members on a team. */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import { line } from "@/server/validation/strings";
import type { Actor } from "@/server/auth/actor";
import { findTeam, teamRefInput, type TeamMemberView } from "./model";

/** teams.addMember / removeMember input: org, slug, username. */
export const teamMemberInput = teamRefInput.extend({ username: line("username").trim().min(1, "username is required").max(100) });

/**
 * Adds user `username` to team `slug` of organization `org` (owners only). Only members of the
 * organization can be on its teams. Errors: NOT_FOUND (organization, team, user); FORBIDDEN for
 * members; BAD_REQUEST when the user is not a member of the organization; CONFLICT when already on the team.
 */
export async function addTeamMember(db: Db, actor: Actor, input: z.input<typeof teamMemberInput>): Promise<TeamMemberView> {
  const { org: orgName, slug, username } = teamMemberInput.parse(input);
  const { org, team } = await findTeam(db, orgName, slug, actor.user.id, "owner");
  const user = await db.user.findUnique({
    where: { usernameLower: username.toLowerCase() },
    select: { id: true, username: true, name: true, orgMemberships: { where: { orgId: org.id }, select: { role: true } } },
  });
  if (!user) throw new AppError("NOT_FOUND", `user ${username} not found`);
  if (user.orgMemberships.length === 0)
    throw new AppError(
      "BAD_REQUEST",
      `${user.username} is not a member of organization ${org.username}; add them to the organization first`,
    );
  try {
    await db.teamMember.create({ data: { teamId: team.id, userId: user.id } });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", `${user.username} is already on team ${org.username}/${team.slug}`);
    throw e;
  }
  return { userId: user.id, username: user.username, name: user.name };
}

/**
 * Removes user `username` from team `slug` of organization `org` (owners only).
 * Errors: NOT_FOUND (organization, team, or the user is not on the team); FORBIDDEN for members.
 */
export async function removeTeamMember(db: Db, actor: Actor, input: z.input<typeof teamMemberInput>): Promise<{ removed: true }> {
  const { org: orgName, slug, username } = teamMemberInput.parse(input);
  const { org, team } = await findTeam(db, orgName, slug, actor.user.id, "owner");
  const { count } = await db.teamMember.deleteMany({ where: { teamId: team.id, user: { usernameLower: username.toLowerCase() } } });
  if (count === 0) throw new AppError("NOT_FOUND", `${username} is not on team ${org.username}/${team.slug}`);
  return { removed: true };
}
