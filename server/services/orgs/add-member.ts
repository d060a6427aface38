/** orgs.addMember: an organization owner adds a user as member or owner. */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import { line } from "@/server/validation/strings";
import type { Actor } from "@/server/auth/actor";
import { ORG_ROLES } from "@/server/services/repos/grants";
import { findOrgAs, type OrgMemberView } from "./model";

export const orgRoleSchema = z.enum(ORG_ROLES, { error: 'role must be "owner" or "member"' });
/** orgs.addMember input: name (organization), username, role? ("member"). */
export const addMemberInput = z.object({
  name: line("name").trim().min(1, "name is required").max(100),
  username: line("username").trim().min(1, "username is required").max(100),
  role: orgRoleSchema.optional(),
});

/**
 * Adds user `username` to organization `name` with `role` (default member); owners only. Bots and
 * organizations cannot be members. Errors: NOT_FOUND for the organization or the user;
 * FORBIDDEN for non-owners; BAD_REQUEST for a bot or organization; CONFLICT when already a member.
 */
export async function addMember(db: Db, actor: Actor, input: z.input<typeof addMemberInput>): Promise<OrgMemberView> {
  const { name, username, role = "member" } = addMemberInput.parse(input);
  const { org } = await findOrgAs(db, name, actor.user.id, "owner");
  const user = await db.user.findUnique({
    where: { usernameLower: username.toLowerCase() },
    select: { id: true, username: true, name: true, isOrg: true, isBot: true },
  });
  if (!user) throw new AppError("NOT_FOUND", `user ${username} not found`);
  if (user.isOrg || user.isBot) throw new AppError("BAD_REQUEST", `${user.username} is not a person and cannot be a member`);
  try {
    await db.orgMember.create({ data: { orgId: org.id, userId: user.id, role } });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", `${user.username} is already a member of ${org.username}`);
    throw e;
  }
  return { userId: user.id, username: user.username, name: user.name, role };
}
