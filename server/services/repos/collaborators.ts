/**
 * A repository's people: collaborators (list, add or change role, remove) and the assignable
 * users of its issues (owner and collaborators).
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AuthorizedRepo, RepoRole } from "./access";
import { permissionIn, usersPermissions } from "./user-permissions";

/** A collaborator as the API returns it (createdAt ISO). */
export interface CollaboratorView {
  userId: string;
  username: string;
  name: string | null;
  role: RepoRole;
  createdAt: string;
}

/** Collaborators of a repository by username. */
export async function listCollaborators(db: Db, repo: AuthorizedRepo): Promise<CollaboratorView[]> {
  const rows = await db.collaborator.findMany({
    where: { repoId: repo.id },
    orderBy: { createdAt: "asc" },
    select: { role: true, createdAt: true, user: { select: { id: true, username: true, name: true } } },
  });
  return rows.map((r) => ({
    userId: r.user.id,
    username: r.user.username,
    name: r.user.name,
    role: r.role as RepoRole,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** A user who can be assigned to the repository's issues. */
export interface AssigneeView {
  id: string;
  username: string;
  name: string | null;
}

/**
 * People who can be assigned issues: the owner (a person; an organization is not assignable),
 * every collaborator (any role — assignees must be able to read the repository) and the members
 * of the owning organization who can read it (owners; members when the base permission is not
 * none; members of a team granted the repository: docs/orgs.md), by username — each only while
 * their grant holds (repos/user-permissions.ts: not a member without two-factor authentication of
 * an organization requiring it). Two queries.
 */
export async function listAssignees(db: Db, repo: AuthorizedRepo): Promise<AssigneeView[]> {
  const candidates = await db.user.findMany({
    where: {
      OR: [
        { id: repo.ownerId, isOrg: false },
        { collaborations: { some: { repoId: repo.id } } },
        { orgMemberships: { some: { orgId: repo.ownerId, OR: [{ role: "owner" }, { org: { orgBasePermission: { not: "none" } } }] } } },
        { teamMemberships: { some: { team: { repos: { some: { repoId: repo.id } } } } } },
      ],
    },
    orderBy: { usernameLower: "asc" },
    select: { id: true, username: true, name: true },
  });
  // the one access rule for other people (an organization's two-factor requirement included)
  const ids = candidates.map((u) => u.id);
  const perms = await usersPermissions(db, [repo.id], ids, { grantsOnly: true });
  return candidates.filter((u) => permissionIn(perms, repo.id, u.id) !== "none");
}

/**
 * Adds a collaborator or changes their role (upsert). Errors: NOT_FOUND for an unknown user;
 * BAD_REQUEST when naming the owner (who is always admin) or an organization (docs/orgs.md).
 */
export async function setCollaborator(db: Db, repo: AuthorizedRepo, username: string, role: RepoRole): Promise<CollaboratorView> {
  const user = await db.user.findUnique({
    where: { usernameLower: username.toLowerCase() },
    select: { id: true, username: true, name: true, isOrg: true },
  });
  if (!user) throw new AppError("NOT_FOUND", `user "${username}" not found`);
  if (user.isOrg) throw new AppError("BAD_REQUEST", `${user.username} is an organization, not a person`);
  if (user.id === repo.ownerId) throw new AppError("BAD_REQUEST", "the owner is always an admin of their repository");
  const row = await db.collaborator.upsert({
    where: { repoId_userId: { repoId: repo.id, userId: user.id } },
    create: { repoId: repo.id, userId: user.id, role },
    update: { role },
  });
  return { userId: user.id, username: user.username, name: user.name, role, createdAt: row.createdAt.toISOString() };
}

/** Removes a collaborator. Errors: NOT_FOUND when they are not one. */
export async function removeCollaborator(db: Db, repo: AuthorizedRepo, username: string): Promise<void> {
  const result = await db.collaborator.deleteMany({ where: { repoId: repo.id, user: { usernameLower: username.toLowerCase() } } });
  if (result.count === 0) throw new AppError("NOT_FOUND", `"${username}" is not a collaborator`);
}
