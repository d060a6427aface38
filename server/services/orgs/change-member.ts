/**
 * orgs.removeMember and orgs.setRole: owners change who is in an organization and as what;
 * an organization always keeps at least one owner.
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { line } from "@/server/validation/strings";
import type { Actor } from "@/server/auth/actor";
import type { OrgRole } from "@/server/services/repos/grants";
import { findOrgAs, type OrgMemberView } from "./model";
import { orgRoleSchema } from "./add-member";

/** orgs.removeMember input: name (organization), username. */
export const removeMemberInput = z.object({
  name: line("name").trim().min(1, "name is required").max(100),
  username: line("username").trim().min(1, "username is required").max(100),
});
/** orgs.setRole input: name, username, role (owner | member). */
export const setRoleInput = removeMemberInput.extend({ role: orgRoleSchema });

/**
 * The membership row of `username` in the organization, after checking the caller. A member may
 * remove themself (leave); everything else needs an owner. Errors: NOT_FOUND (organization or
 * membership), FORBIDDEN.
 */
async function membership(db: Db, actor: Actor, name: string, username: string, selfAllowed: boolean) {
  const self = username.toLowerCase() === actor.user.username.toLowerCase();
  const { org } = await findOrgAs(db, name, actor.user.id, selfAllowed && self ? "member" : "owner");
  const row = await db.orgMember.findFirst({
    where: { orgId: org.id, user: { usernameLower: username.toLowerCase() } },
    select: { id: true, role: true, user: { select: { id: true, username: true, name: true } } },
  });
  if (!row) throw new AppError("NOT_FOUND", `${username} is not a member of ${org.username}`);
  return { org, row };
}

/**
 * Serializes owner changes of organization `orgId`: writes its row first in the transaction (a row
 * lock on PostgreSQL until commit; SQLite has one writer), so the owner count that follows sees
 * any concurrent change that committed first (READ COMMITTED takes a snapshot per statement).
 */
async function lockOrg(tx: Pick<Db, "user">, orgId: string): Promise<void> {
  await tx.user.update({ where: { id: orgId }, data: { updatedAt: new Date() }, select: { id: true } });
}

/** PRECONDITION_FAILED when organization `orgId` has no owner left (inside the change's transaction). */
async function assertOwnerLeft(tx: Pick<Db, "orgMember">, orgId: string, orgName: string): Promise<void> {
  if ((await tx.orgMember.count({ where: { orgId, role: "owner" } })) === 0)
    throw new AppError("PRECONDITION_FAILED", `${orgName} must keep at least one owner`);
}

/**
 * Removes `username` from organization `name` (owners; a member may remove themself), with their
 * memberships of its teams, in one transaction. The last owner cannot be removed. Errors: NOT_FOUND, FORBIDDEN, PRECONDITION_FAILED (last owner).
 */
export async function removeMember(db: Db, actor: Actor, input: z.input<typeof removeMemberInput>): Promise<{ removed: true }> {
  const { name, username } = removeMemberInput.parse(input);
  const { org, row } = await membership(db, actor, name, username, true);
  await db.$transaction(async (tx) => {
    await lockOrg(tx, org.id);
    await tx.orgMember.delete({ where: { id: row.id } });
    // team memberships go with the organization membership (docs/orgs.md "Teams")
    await tx.teamMember.deleteMany({ where: { userId: row.user.id, team: { orgId: org.id } } });
    await assertOwnerLeft(tx, org.id, org.username);
  });
  return { removed: true };
}

/**
 * Sets the role of member `username` (owners only). Demoting the last owner is refused.
 * Errors: NOT_FOUND, FORBIDDEN, PRECONDITION_FAILED (last owner).
 */
export async function setRole(db: Db, actor: Actor, input: z.input<typeof setRoleInput>): Promise<OrgMemberView> {
  const { name, username, role } = setRoleInput.parse(input);
  const { org, row } = await membership(db, actor, name, username, false);
  await db.$transaction(async (tx) => {
    await lockOrg(tx, org.id);
    await tx.orgMember.update({ where: { id: row.id }, data: { role } });
    await assertOwnerLeft(tx, org.id, org.username);
  });
  return { userId: row.user.id, username: row.user.username, name: row.user.name, role: role as OrgRole };
}
