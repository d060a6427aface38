/** orgs.create: a new organization in the user namespace; the creator becomes its owner. */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import { line } from "@/server/validation/strings";
import { usernameProblem } from "@/lib/names";
import type { Actor } from "@/server/auth/actor";
import { orgSelect, toOrgView, type OrgView } from "./model";

/** orgs.create input: name (the URL name, rules of usernames), displayName?. */
export const createOrgInput = z.object({
  name: line("name").trim().min(1, "name is required").max(39),
  displayName: line("displayName").trim().max(100, "displayName is at most 100 characters").optional(),
});

/**
 * Creates organization `name` owned by the actor (an OrgMember row with role owner), in one
 * transaction. The name follows the username rules (lib/names.ts usernameProblem) and is unique
 * across users and organizations case-insensitively (User.usernameLower).
 * Errors: BAD_REQUEST for an invalid or reserved name; CONFLICT when the name is taken.
 */
export async function createOrg(db: Db, actor: Actor, input: z.input<typeof createOrgInput>): Promise<OrgView> {
  const { name, displayName } = createOrgInput.parse(input);
  const problem = usernameProblem(name);
  if (problem) throw new AppError("BAD_REQUEST", problem.replace(/username/gi, "name"));
  try {
    const row = await db.user.create({
      data: {
        username: name,
        usernameLower: name.toLowerCase(),
        name: displayName || null,
        isOrg: true,
        passwordHash: null,
        orgMembers: { create: { userId: actor.user.id, role: "owner" } },
      },
      select: orgSelect,
    });
    return toOrgView(row, "owner");
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", `the name "${name}" is already taken`);
    throw e;
  }
}
