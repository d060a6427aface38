/** orgs.update: display name, base permission, whether members may create repositories, token policy. */
import { z } from "zod";
import type { Db } from "@/server/db";
import { line } from "@/server/validation/strings";
import type { Actor } from "@/server/auth/actor";
import { BASE_PERMISSIONS } from "@/server/services/repos/grants";
import { TOKEN_MAX_DAYS_MAX, TOKEN_MAX_DAYS_MIN } from "@/server/services/repos/token-policy";
import { findOrgAs, orgSelect, toOrgView, type OrgView } from "./model";

/**
 * orgs.update input: name, and any of displayName ("" clears it), basePermission,
 * membersCanCreateRepos, tokenMaxDays (1–366 days; null removes the policy).
 */
export const updateOrgInput = z.object({
  name: line("name").trim().min(1, "name is required").max(100),
  displayName: line("displayName").trim().max(100, "displayName is at most 100 characters").optional(),
  basePermission: z.enum(BASE_PERMISSIONS, { error: 'basePermission must be "none", "read" or "write"' }).optional(),
  membersCanCreateRepos: z.boolean().optional(),
  tokenMaxDays: z
    .number()
    .int("tokenMaxDays must be a whole number of days")
    .min(TOKEN_MAX_DAYS_MIN, `tokenMaxDays must be at least ${TOKEN_MAX_DAYS_MIN}`)
    .max(TOKEN_MAX_DAYS_MAX, `tokenMaxDays must be at most ${TOKEN_MAX_DAYS_MAX}`)
    .nullable()
    .optional(),
});

/**
 * Changes an organization's settings; owners only. The base permission and the token policy take
 * effect on the next request (both are read by the authorization query). Errors: NOT_FOUND; FORBIDDEN for non-owners.
 */
export async function updateOrg(db: Db, actor: Actor, input: z.input<typeof updateOrgInput>): Promise<OrgView> {
  const { name, displayName, basePermission, membersCanCreateRepos, tokenMaxDays } = updateOrgInput.parse(input);
  const { org } = await findOrgAs(db, name, actor.user.id, "owner");
  const row = await db.user.update({
    where: { id: org.id },
    data: {
      ...(displayName !== undefined ? { name: displayName || null } : {}),
      ...(basePermission !== undefined ? { orgBasePermission: basePermission } : {}),
      ...(membersCanCreateRepos !== undefined ? { orgMembersCanCreateRepos: membersCanCreateRepos } : {}),
      ...(tokenMaxDays !== undefined ? { orgTokenMaxDays: tokenMaxDays } : {}),
    },
    select: orgSelect,
  });
  return toOrgView(row, "owner");
}
