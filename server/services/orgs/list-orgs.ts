/** orgs.list: the organizations the caller belongs to. */
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { orgSelect, toOrgView, type OrgView } from "./model";

/**
 * The caller's organizations with their role in each, by name. `canCreateRepos` is true where the
 * caller may create repositories (owner, or member when the organization allows it): the New
 * repository page's owner picker.
 */
export async function listOrgs(db: Db, actor: Actor): Promise<(OrgView & { canCreateRepos: boolean })[]> {
  const rows = await db.orgMember.findMany({
    where: { userId: actor.user.id },
    select: { role: true, org: { select: orgSelect } },
    orderBy: { org: { usernameLower: "asc" } },
  });
  return rows.map((m) => ({
    ...toOrgView(m.org, m.role),
    canCreateRepos: m.role === "owner" || m.org.orgMembersCanCreateRepos,
  }));
}
