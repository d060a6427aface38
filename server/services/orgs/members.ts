/** orgs.members: the people of an organization. */
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import type { OrgRole } from "@/server/services/repos/grants";
import { findOrg, type OrgMemberView } from "./model";

/**
 * The members of organization `name`, owners first, then by username. Public like the
 * organization page (GitHub lists public members; svc has no private membership).
 * Errors: NOT_FOUND.
 */
export async function listMembers(db: Db, actor: Actor | null, name: string): Promise<OrgMemberView[]> {
  const { org } = await findOrg(db, name, actor?.user.id ?? null);
  const rows = await db.orgMember.findMany({
    where: { orgId: org.id },
    select: { role: true, user: { select: { id: true, username: true, name: true, usernameLower: true } } },
  });
  return rows
    .map((m) => ({ userId: m.user.id, username: m.user.username, name: m.user.name, role: m.role as OrgRole, key: m.user.usernameLower }))
    .sort((a, b) => (a.role === b.role ? a.key.localeCompare(b.key) : a.role === "owner" ? -1 : 1))
    .map(({ key: _key, ...m }) => m);
}
