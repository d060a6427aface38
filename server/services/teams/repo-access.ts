/** teams.repoAccess: the teams with access to a repository, for its settings' Collaborators section. */
import type { Db } from "@/server/db";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import type { TeamPermission } from "@/server/services/repos/grants";

/** A team's grant on a repository. */
export interface TeamAccessView {
  org: string;
  slug: string;
  name: string;
  permission: TeamPermission;
  memberCount: number;
}

/** The teams granted access to `repo` ([] for a personal repository), by slug. One statement plus the member counts. */
export async function listTeamAccess(db: Db, repo: Pick<AuthorizedRepo, "id">): Promise<TeamAccessView[]> {
  const rows = await db.teamRepo.findMany({
    where: { repoId: repo.id },
    orderBy: { team: { slug: "asc" } },
    select: {
      permission: true,
      team: { select: { slug: true, name: true, org: { select: { username: true } }, _count: { select: { members: true } } } },
    },
  });
  return rows.map((r) => ({
    org: r.team.org.username,
    slug: r.team.slug,
    name: r.team.name,
    permission: r.permission as TeamPermission,
    memberCount: r.team._count.members,
  }));
}
