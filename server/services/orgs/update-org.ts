/** orgs.update: display name, base permission, whether members may create repositories, token policy, two-factor requirement. */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { line } from "@/server/validation/strings";
import type { Actor } from "@/server/auth/actor";
import { BASE_PERMISSIONS } from "@/server/services/repos/grants";
import { TOKEN_MAX_DAYS_MAX, TOKEN_MAX_DAYS_MIN } from "@/server/services/repos/token-policy";
import { findOrgAs, orgSelect, toOrgView, type OrgView } from "./model";

/**
 * orgs.update input: name, and any of displayName ("" clears it), basePermission,
 * membersCanCreateRepos, tokenMaxDays (1–366 days; null removes the policy), requireTwoFactor.
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
  requireTwoFactor: z.boolean().optional(),
});

/**
 * Changes an organization's settings; owners only. The base permission, the token policy and the
 * two-factor requirement take effect on the next request (all are read by the authorization
 * query). Turning `requireTwoFactor` on needs two-factor authentication of the owner doing it (as
 * GitHub), so an owner cannot lock themselves out (docs/security.md "Organizations requiring
 * two-factor authentication"). Errors: NOT_FOUND; FORBIDDEN for non-owners, and for enabling the
 * requirement without two-factor authentication.
 */
export async function updateOrg(db: Db, actor: Actor, input: z.input<typeof updateOrgInput>): Promise<OrgView> {
  const { name, displayName, basePermission, membersCanCreateRepos, tokenMaxDays, requireTwoFactor } = updateOrgInput.parse(input);
  const { org } = await findOrgAs(db, name, actor.user.id, "owner");
  if (requireTwoFactor && !org.orgRequireTwoFactor) {
    const me = await db.user.findUnique({ where: { id: actor.user.id }, select: { twoFactorEnabled: true } });
    if (!me?.twoFactorEnabled)
      throw new AppError("FORBIDDEN", "enable two-factor authentication for your own account before requiring it in the organization");
  }
  const row = await db.user.update({
    where: { id: org.id },
    data: {
      ...(displayName !== undefined ? { name: displayName || null } : {}),
      ...(basePermission !== undefined ? { orgBasePermission: basePermission } : {}),
      ...(membersCanCreateRepos !== undefined ? { orgMembersCanCreateRepos: membersCanCreateRepos } : {}),
      ...(tokenMaxDays !== undefined ? { orgTokenMaxDays: tokenMaxDays } : {}),
      ...(requireTwoFactor !== undefined ? { orgRequireTwoFactor: requireTwoFactor } : {}),
    },
    select: orgSelect,
  });
  return toOrgView(row, "owner");
}
