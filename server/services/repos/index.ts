/**
 * Repositories (not in the spec; designed like GitHub/Gitea): create, get, list, delete,
 * collaborators, and code reads (branches, tree, blob, commits) at a ref. Callers pass an
 * already-authorized repository (server/services/repos/access.ts) where one exists.
 */
import { z } from "zod";
import { line } from "@/server/validation/strings";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { hasScope } from "@/server/auth/scopes";
import { repoGitDir } from "@/server/git/paths";
import { branchNameProblem } from "@/server/git/refs";
import * as git from "@/server/git/repository";
import { repoNameProblem } from "@/lib/names";
import { detachForks } from "./fork";
import {
  atLeast,
  effectivePermission,
  permissionOf,
  repoSelect,
  toAuthorized,
  type AuthorizedRepo,
  type Permission,
  type RepoRole,
} from "./access";

/** A repository as the API returns it (dates ISO). `id` is the UUID the spec calls repoId. */
export interface RepoView {
  id: string;
  owner: string;
  name: string;
  fullName: string;
  description: string | null;
  isPrivate: boolean;
  defaultBranch: string;
  permission: Permission;
  createdAt: string;
  updatedAt: string;
  pushedAt: string | null;
  /** HTTP clone URL, e.g. http://localhost:3000/alice/app.git */
  cloneUrl: string;
}

/** Shapes an authorized repository for the API. `publicUrl` is the server's base URL. */
export function toRepoView(repo: AuthorizedRepo, publicUrl: string): RepoView {
  return {
    id: repo.id,
    owner: repo.owner,
    name: repo.name,
    fullName: `${repo.owner}/${repo.name}`,
    description: repo.description,
    isPrivate: repo.isPrivate,
    defaultBranch: repo.defaultBranch,
    permission: repo.permission,
    createdAt: repo.createdAt.toISOString(),
    updatedAt: repo.updatedAt.toISOString(),
    pushedAt: repo.pushedAt?.toISOString() ?? null,
    cloneUrl: `${publicUrl}/${repo.owner}/${repo.name}.git`,
  };
}

export const createRepoInput = z.object({
  name: line("name").trim().min(1, "name is required").max(100),
  description: line("description").trim().max(350, "description is at most 350 characters").optional(),
  isPrivate: z.boolean().optional(),
  defaultBranch: line("defaultBranch").trim().max(255).optional(),
});

/**
 * Creates a repository owned by the actor, with an empty bare git repository on disk.
 * Errors: BAD_REQUEST for an invalid name or branch; CONFLICT when the actor already owns one
 * with that name (case-insensitive). The row is only kept if `git init` succeeds.
 */
export async function createRepository(db: Db, actor: Actor, input: z.input<typeof createRepoInput>): Promise<AuthorizedRepo> {
  const { name, description, isPrivate = false, defaultBranch = "main" } = createRepoInput.parse(input);
  const nameProblem = repoNameProblem(name);
  if (nameProblem) throw new AppError("BAD_REQUEST", nameProblem);
  const branchProblem = branchNameProblem(defaultBranch);
  if (branchProblem) throw new AppError("BAD_REQUEST", branchProblem);
  let row;
  try {
    row = await db.repository.create({
      data: { ownerId: actor.user.id, name, nameLower: name.toLowerCase(), description: description || null, isPrivate, defaultBranch },
      select: repoSelect,
    });
  } catch (e) {
    if ((e as { code?: string }).code === "P2002") throw new AppError("CONFLICT", `you already have a repository named "${name}"`);
    throw e;
  }
  const gitDir = repoGitDir(actor.user.username, name);
  try {
    await git.removeRepository(gitDir); // a leftover folder from a failed earlier attempt
    await git.initBareRepository(gitDir, defaultBranch);
  } catch (e) {
    await db.repository.delete({ where: { id: row.id } }).catch(() => {});
    throw e;
  }
  return toAuthorized(row, "admin");
}

/**
 * Repositories visible to `caller` (null = anonymous), newest push/update first: all public
 * ones plus private ones the caller owns or collaborates on. Authorization is in the query.
 * A token without `repo:read` sees what an anonymous caller sees (issue #6 item 2), and each
 * repository's `permission` is the effective one (capped by the token's scopes).
 * `owner` filters by owner username; `member: true` keeps only repositories the caller owns or
 * collaborates on (any role; the dashboard, issue #7 — empty for anonymous callers and tokens
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
  const membership = userId ? [{ ownerId: userId }, { collaborators: { some: { userId } } }] : [];
  const visibility = opts.member ? { OR: membership } : viewer?.user.isAdmin ? {} : { OR: [{ isPrivate: false }, ...membership] };
  const rows = await db.repository.findMany({
    where: { AND: [visibility, opts.owner ? { owner: { usernameLower: opts.owner.toLowerCase() } } : {}] },
    orderBy: [{ updatedAt: "desc" }],
    take: opts.limit ?? 30,
    skip: opts.offset ?? 0,
    select: { ...repoSelect, collaborators: userId ? { where: { userId }, select: { role: true } } : false },
  });
  return rows.map((row) =>
    toAuthorized(
      row,
      effectivePermission(
        permissionOf(row, viewer?.user ?? null, (row as { collaborators?: { role: string }[] }).collaborators?.[0]?.role ?? null),
        viewer,
      ),
    ),
  );
}

/** Updates description, visibility or default branch (admin). Errors: BAD_REQUEST for an unknown branch. */
export async function updateRepository(
  db: Db,
  repo: AuthorizedRepo,
  input: { description?: string | null; isPrivate?: boolean; defaultBranch?: string },
): Promise<AuthorizedRepo> {
  if (input.defaultBranch !== undefined && input.defaultBranch !== repo.defaultBranch) {
    const problem = branchNameProblem(input.defaultBranch);
    if (problem) throw new AppError("BAD_REQUEST", problem);
    const empty = await git.isEmptyRepository(repo.gitDir);
    if (!empty && !(await git.resolveCommit(repo.gitDir, `refs/heads/${input.defaultBranch}`))) {
      throw new AppError("BAD_REQUEST", `branch "${input.defaultBranch}" does not exist`);
    }
    await git.setHead(repo.gitDir, input.defaultBranch);
  }
  const row = await db.repository.update({
    where: { id: repo.id },
    data: { description: input.description, isPrivate: input.isPrivate, defaultBranch: input.defaultBranch },
    select: repoSelect,
  });
  return toAuthorized(row, repo.permission);
}

/**
 * Deletes the repository row (cascading) and its bare repository on disk. Its forks are detached
 * first (they get their own copy of every object they borrow: ./fork.ts `detachForks`), so
 * they keep working; their forkedFromId becomes null.
 */
export async function deleteRepository(db: Db, repo: AuthorizedRepo): Promise<void> {
  await detachForks(db, repo.id);
  await db.repository.delete({ where: { id: repo.id } });
  await git.removeRepository(repo.gitDir);
}

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
 * People who can be assigned issues: the owner and every collaborator (any role — issue #3:
 * assignees must be able to read the repository), by username. One query.
 */
export async function listAssignees(db: Db, repo: AuthorizedRepo): Promise<AssigneeView[]> {
  return db.user.findMany({
    where: { OR: [{ id: repo.ownerId }, { collaborations: { some: { repoId: repo.id } } }] },
    orderBy: { usernameLower: "asc" },
    select: { id: true, username: true, name: true },
  });
}

/**
 * Adds a collaborator or changes their role (upsert). Errors: NOT_FOUND for an unknown user;
 * BAD_REQUEST when naming the owner (who is always admin).
 */
export async function setCollaborator(db: Db, repo: AuthorizedRepo, username: string, role: RepoRole): Promise<CollaboratorView> {
  const user = await db.user.findUnique({
    where: { usernameLower: username.toLowerCase() },
    select: { id: true, username: true, name: true },
  });
  if (!user) throw new AppError("NOT_FOUND", `user "${username}" not found`);
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

/**
 * The commit a ref names in the repository (branch, tag or sha; default branch when absent).
 * Errors: NOT_FOUND when it does not resolve (an empty repository has no refs).
 */
export async function resolveRef(repo: AuthorizedRepo, ref?: string): Promise<{ ref: string; sha: string }> {
  const name = ref || repo.defaultBranch;
  const sha = await git.resolveCommit(repo.gitDir, name);
  if (!sha) throw new AppError("NOT_FOUND", `ref "${name}" not found`);
  return { ref: name, sha };
}

export { atLeast };
