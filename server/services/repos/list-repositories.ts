/** repos.list: the repositories a caller may see, authorization in the query. */
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { hasScope } from "@/server/auth/scopes";
import { memberReposWhere, teamGrantOf, teamGrantsSelect } from "./grants";
import { effectivePermission, permissionOf, repoSelect, toAuthorized, type AuthorizedRepo } from "./access";

/**
 * Repositories visible to `caller` (null = anonymous), newest push/update first: all public
 * ones plus private ones the caller owns, collaborates on or reads through an organization
 * (owner, or member when the base permission is not none; docs/orgs.md). Authorization is in the query.
 * A token without `repo:read` sees what an anonymous caller sees, and each
 * repository's `permission` is the effective one (capped by the token's scopes).
 * `owner` filters by owner username; `member: true` keeps only repositories the caller owns or
 * collaborates on (any role; the dashboard — empty for anonymous callers and tokens
 * without repo:read); limit 1–100 (default 30), offset ≥ 0.
 */
export async function listRepositories(
  db: Db,
  caller: Actor | null,
  opts: { owner?: string; member?: boolean; limit?: number; offset?: number } = {},
): Promise<AuthorizedRepo[]> {
  const viewer = caller && hasScope(caller.scopes, "repo:read") ? caller : null;
  const userId = viewer?.user.id;
  if (opts.member && !userId) return [];
  const membership = userId ? memberReposWhere(userId) : [];
  const visibility = opts.member ? { OR: membership } : viewer?.user.isAdmin ? {} : { OR: [{ isPrivate: false }, ...membership] };
  const rows = await db.repository.findMany({
    where: { AND: [visibility, opts.owner ? { owner: { usernameLower: opts.owner.toLowerCase() } } : {}] },
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }], // the id breaks ties, so offset pages neither repeat nor skip
    take: opts.limit ?? 30,
    skip: opts.offset ?? 0,
    select: {
      ...repoSelect,
      owner: {
        select: { username: true, orgBasePermission: true, orgMembers: { where: { userId: userId ?? "" }, select: { role: true } } },
      },
      collaborators: userId ? { where: { userId }, select: { role: true } } : false,
      ...(userId ? teamGrantsSelect(userId) : {}),
    },
  });
  return rows.map((row) =>
    toAuthorized(
      row,
      effectivePermission(
        permissionOf(row, viewer?.user ?? null, (row as { collaborators?: { role: string }[] }).collaborators?.[0]?.role ?? null, {
          role: row.owner.orgMembers[0]?.role ?? null,
          basePermission: row.owner.orgBasePermission,
          team: teamGrantOf(row as { teamGrants?: { permission: string }[] }),
        }),
        viewer,
      ),
    ),
  );
}
