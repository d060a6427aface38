/** teams.update and teams.delete: owners rename, describe, re-permission or remove a team. */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import { line, text } from "@/server/validation/strings";
import type { Actor } from "@/server/auth/actor";
import { findTeam, teamPermissionSchema, teamRefInput, teamSelect, teamSlug, toTeamView, type TeamView } from "./model";

/** teams.update input: org, slug, and any of name (changes the slug), description ("" clears), permission. */
export const updateTeamInput = teamRefInput.extend({
  name: line("name").trim().min(1, "name is required").max(100, "name is at most 100 characters").optional(),
  description: text("description").trim().max(1000, "description is at most 1000 characters").optional(),
  permission: teamPermissionSchema.optional(),
});

/**
 * Changes team `slug` of organization `org` (owners only). A new name gives a new slug (the old
 * one stops resolving; CODEOWNERS entries naming it no longer match). `permission` is the default
 * for repositories added later; existing grants keep theirs. Errors: NOT_FOUND; FORBIDDEN for
 * members; BAD_REQUEST; CONFLICT when the new slug is taken.
 */
export async function updateTeam(db: Db, actor: Actor, input: z.input<typeof updateTeamInput>): Promise<TeamView> {
  const { org: orgName, slug, name, description, permission } = updateTeamInput.parse(input);
  const { org, team } = await findTeam(db, orgName, slug, actor.user.id, "owner");
  try {
    const row = await db.team.update({
      where: { id: team.id },
      data: {
        ...(name !== undefined ? { name, slug: teamSlug(name) } : {}),
        ...(description !== undefined ? { description: description || null } : {}),
        ...(permission !== undefined ? { permission } : {}),
      },
      select: teamSelect,
    });
    return toTeamView(org.username, row);
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", `organization ${org.username} already has a team ${teamSlug(name ?? slug)}`);
    throw e;
  }
}

/**
 * Deletes team `slug` of organization `org` (owners only); its memberships, repository grants and
 * review requests go with it (foreign-key cascades). Errors: NOT_FOUND; FORBIDDEN for members.
 */
export async function deleteTeam(db: Db, actor: Actor, input: z.input<typeof teamRefInput>): Promise<{ deleted: true }> {
  const { org: orgName, slug } = teamRefInput.parse(input);
  const { team } = await findTeam(db, orgName, slug, actor.user.id, "owner");
  await db.team.delete({ where: { id: team.id } });
  return { deleted: true };
}
