/** teams.list: the teams of an organization, for its members. */
import { z } from "zod";
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { findOrgForTeams, orgField, teamSelect, toTeamView, type TeamView } from "./model";

export const listTeamsInput = z.object({ org: orgField });

/**
 * The teams of organization `org` by name, with member and repository counts. Members and owners
 * only. Errors: NOT_FOUND (organization, or the caller is not a member).
 */
export async function listTeams(db: Db, actor: Actor, input: z.input<typeof listTeamsInput>): Promise<TeamView[]> {
  const { org: orgName } = listTeamsInput.parse(input);
  const { org } = await findOrgForTeams(db, orgName, actor.user.id, "member");
  const rows = await db.team.findMany({ where: { orgId: org.id }, select: teamSelect, orderBy: { slug: "asc" } });
  return rows.map((r) => toTeamView(org.username, r));
}
