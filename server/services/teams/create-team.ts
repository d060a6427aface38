/** teams.create: an organization owner creates a team. */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import { line, text } from "@/server/validation/strings";
import type { Actor } from "@/server/auth/actor";
import { findOrgForTeams, orgField, teamPermissionSchema, teamSelect, teamSlug, toTeamView, type TeamView } from "./model";

/** teams.create input: org, name (1–100), description? (≤ 1000), permission? (read). */
export const createTeamInput = z.object({
  org: orgField,
  name: line("name").trim().min(1, "name is required").max(100, "name is at most 100 characters"),
  description: text("description").trim().max(1000, "description is at most 1000 characters").optional(),
  permission: teamPermissionSchema.optional(),
});

/**
 * Creates team `name` in organization `org` (owners only); its slug is `teamSlug(name)`.
 * Errors: NOT_FOUND (organization, or the caller is not a member); FORBIDDEN for members;
 * BAD_REQUEST for a name without letters or digits; CONFLICT when the slug is taken in the organization.
 */
export async function createTeam(db: Db, actor: Actor, input: z.input<typeof createTeamInput>): Promise<TeamView> {
  const { org: orgName, name, description, permission = "read" } = createTeamInput.parse(input);
  const { org } = await findOrgForTeams(db, orgName, actor.user.id, "owner");
  const slug = teamSlug(name);
  try {
    const row = await db.team.create({
      data: { orgId: org.id, name, slug, description: description || null, permission },
      select: teamSelect,
    });
    return toTeamView(org.username, row);
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", `organization ${org.username} already has a team ${slug}`);
    throw e;
  }
}
