/**
 * Repository permission: max(owner → admin, site admin → admin, organization owner → admin,
 * collaborator role, team grants, organization base permission for members, public → read;
 * docs/orgs.md)
 * (docs/architecture.md "One access table"), capped by what the actor's token scopes allow
 * (docs/security.md "Effective permission: scopes cap the role"): the *effective* permission is
 * min(role, scope cap) with repo:read → read, repo:write → write, repo:admin → admin.
 * `authorizeRepo` is the single gate used by the tRPC repo tier, the raw route and git smart HTTP:
 * it checks the token scope first, then permission, and hands out the effective permission, which
 * is the only one service checks ever read. A repository the actor cannot read answers NOT_FOUND
 * so its existence is not revealed.
 */
import { readRows } from "@/server/db/read";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { requireScope, type Actor } from "@/server/auth/actor";
import { hasScope, type Scope } from "@/server/auth/scopes";
import { repoGitDir } from "@/server/git/paths";
import { boolOf, dateOf } from "@/server/db/raw";
import { getConfig } from "@/server/config";
import { Sql } from "@/server/services/issues/query";
import { GRANT_COLUMNS, grantJoinsSql, orgPermission, teamPermissionOfRank, type OrgGrant } from "./grants";
import { enforceTokenPolicy } from "./token-policy";

export type RepoRole = "read" | "write" | "admin";
export type Permission = "none" | RepoRole;
export const ROLES: RepoRole[] = ["read", "write", "admin"];
const RANK: Record<Permission, number> = { none: 0, read: 1, write: 2, admin: 3 };
const SCOPE_FOR: Record<RepoRole, Scope> = { read: "repo:read", write: "repo:write", admin: "repo:admin" };

/** True when `have` is at least `need`. */
export function atLeast(have: Permission, need: Permission): boolean {
  return RANK[have] >= RANK[need];
}

/** The lower of two permissions. */
function lower(a: Permission, b: Permission): Permission {
  return RANK[a] <= RANK[b] ? a : b;
}

/**
 * The most any repository permission can be for an actor holding `scopes` (docs/security.md
 * "Effective permission: scopes cap the role"):
 * repo:admin → admin, repo:write → write, repo:read → read, no repo scope → none. A browser
 * session carries every scope, so its cap is admin.
 */
export function scopeCap(scopes: readonly Scope[]): Permission {
  if (hasScope(scopes, "repo:admin")) return "admin";
  if (hasScope(scopes, "repo:write")) return "write";
  if (hasScope(scopes, "repo:read")) return "read";
  return "none";
}

/**
 * The permission an actor acts with: min(role permission, scope cap). Anonymous callers have no
 * token, so their role permission (public → read) stands.
 */
export function effectivePermission(role: Permission, actor: Actor | null): Permission {
  return actor ? lower(role, scopeCap(actor.scopes)) : role;
}

/** How a procedure names its repository: by UUID or by owner and name. */
export type RepoLocator = { repoId: string } | { owner: string; name: string };

/** A repository the actor was authorized for, with everything callers need. */
export interface AuthorizedRepo {
  id: string;
  ownerId: string;
  owner: string;
  name: string;
  description: string | null;
  isPrivate: boolean;
  defaultBranch: string;
  createdAt: Date;
  updatedAt: Date;
  pushedAt: Date | null;
  permission: Permission;
  gitDir: string;
}

const repoSelect = {
  id: true,
  ownerId: true,
  name: true,
  description: true,
  isPrivate: true,
  defaultBranch: true,
  createdAt: true,
  updatedAt: true,
  pushedAt: true,
  owner: { select: { username: true } },
} as const;

/** The higher of two permissions. */
function higher(a: Permission, b: Permission): Permission {
  return RANK[a] >= RANK[b] ? a : b;
}

/**
 * Permission of a user (or anonymous, null) on a repository row: the highest of owner/site admin
 * (admin), the collaborator role, the owning organization's grant (`org`: owner → admin, member →
 * base permission, and the caller's team grants on the repository; docs/orgs.md) and public → read.
 */
export function permissionOf(
  repo: { ownerId: string; isPrivate: boolean },
  user: { id: string; isAdmin: boolean } | null,
  collaboratorRole: string | null,
  org?: OrgGrant | null,
): Permission {
  if (user && (user.id === repo.ownerId || user.isAdmin)) return "admin";
  const role = (collaboratorRole ?? "none") as Permission;
  const base: Permission = repo.isPrivate ? "none" : "read";
  return higher(higher(role, base), user ? orgPermission(org) : "none");
}

/**
 * Loads the repository and checks that `actor` may act on it at `level`; the result carries the
 * effective permission (min of role and scope cap). Errors, in order: FORBIDDEN when a token lacks the scope for `level` (repo:read/write/admin);
 * NOT_FOUND when it does not exist or the actor cannot read it; UNAUTHORIZED when anonymous and
 * more than read is needed; FORBIDDEN naming the needed permission otherwise.
 */
export async function authorizeRepo(db: Db, actor: Actor | null, locator: RepoLocator, level: RepoRole): Promise<AuthorizedRepo> {
  if (actor) requireScope(actor, SCOPE_FOR[level]);
  const row = await findRepoRow(db, locator, actor?.user.id ?? null);
  const what = "repoId" in locator ? "repository" : `repository ${locator.owner}/${locator.name}`;
  return checkRepoRow(row, actor, level, what);
}

/** Tables a procedure may name its repository through (fixed names from code, never input). */
export type EntityTable = "IssueView" | "PullRequest";

/**
 * An entity that names its repository (its `repoId` column), and the entity's own columns the
 * procedure needs next (fixed names from code, never input).
 */
export interface EntityLocator {
  table: EntityTable;
  id: string;
  columns: readonly string[];
}

/**
 * `authorizeRepo` for a procedure that names its repository through another entity (a view):
 * the entity's columns, its repository, the owner and the caller's role in ONE query, instead of
 * a lookup of the entity's repository, the authorization query and a second read of the entity
 * (docs/issues.md "Locating the repository (`repoProcedureBy`)"). Same checks and errors as
 * `authorizeRepo`; an unknown entity is NOT_FOUND "repository not found" (the tRPC tier renames it
 * after the entity).
 */
export async function authorizeRepoVia(
  db: Db,
  actor: Actor | null,
  via: EntityLocator,
  level: RepoRole,
): Promise<{ repo: AuthorizedRepo; entity: Record<string, unknown> }> {
  if (actor) requireScope(actor, SCOPE_FOR[level]);
  const cols = via.columns.map((c) => `e."${c}" AS "e_${c}"`).join(", ");
  const sql = new Sql(getConfig().provider);
  const text = `SELECT ${REPO_COLUMNS}${cols ? `, ${cols}` : ""}
      FROM "${via.table}" e JOIN "Repository" r ON r."id" = e."repoId" JOIN "User" u ON u."id" = r."ownerId"
      ${grantJoinsSql(sql, actor?.user.id ?? null)}
      WHERE e."id" = ${sql.p(via.id)}`;
  const rows = await readRows<RawRepoRow & Record<string, unknown>>(db, text, sql.params);
  const repo = checkRepoRow(rows[0] ? toRepoRow(rows[0]) : null, actor, level, "repository");
  const entity: Record<string, unknown> = {};
  for (const c of via.columns) entity[c] = rows[0][`e_${c}`];
  return { repo, entity };
}

/** The permission checks of `authorizeRepo` on a loaded row (null: no such repository). */
function checkRepoRow(row: RepoRow | null, actor: Actor | null, level: RepoRole, what: string): AuthorizedRepo {
  if (!row) throw new AppError("NOT_FOUND", `${what} not found`);
  const role = permissionOf(row, actor?.user ?? null, row.role, row.org);
  if (role === "none") throw new AppError("NOT_FOUND", `${what} not found`);
  if (actor) enforceTokenPolicy(actor, row.owner.username, row.tokenMaxDays);
  const permission = effectivePermission(role, actor);
  if (!atLeast(permission, level)) {
    if (!actor) throw new AppError("UNAUTHORIZED", "sign in or send a token to do this");
    throw new AppError("FORBIDDEN", `you need ${level} permission on ${row.owner.username}/${row.name}`);
  }
  return toAuthorized(row, permission);
}

type RepoRow = Parameters<typeof toAuthorized>[0] & { role: string | null; org: OrgGrant; tokenMaxDays: number | null };

/**
 * The repository row, its owner's username and `userId`'s grants (collaborator role, membership
 * of the owning organization: server/services/repos/grants.ts) in ONE query (this runs on every
 * repository procedure and git request; Prisma's relation loading would take several round
 * trips). Null when no such repository exists.
 */
async function findRepoRow(db: Db, locator: RepoLocator, userId: string | null): Promise<RepoRow | null> {
  const sql = new Sql(getConfig().provider);
  const from = `SELECT ${REPO_COLUMNS}
    FROM "Repository" r JOIN "User" u ON u."id" = r."ownerId"
    ${grantJoinsSql(sql, userId)}`;
  const text =
    "repoId" in locator
      ? `${from} WHERE r."id" = ${sql.p(locator.repoId)}`
      : `${from} WHERE u."usernameLower" = ${sql.p(locator.owner.toLowerCase())} AND r."nameLower" = ${sql.p(locator.name.toLowerCase())}`;
  const rows = await readRows<RawRepoRow>(db, text, sql.params);
  return rows[0] ? toRepoRow(rows[0]) : null;
}

type RawRepoRow = {
  id: string;
  ownerId: string;
  name: string;
  description: string | null;
  isPrivate: unknown;
  defaultBranch: string;
  createdAt: unknown;
  updatedAt: unknown;
  pushedAt: unknown;
  ownerUsername: string;
  role: string | null;
  orgRole: string | null;
  orgBase: string;
  teamRank: unknown;
  tokenMaxDays: unknown;
};
/** The columns of RawRepoRow (aliases r, u and the grant joins as in findRepoRow). */
const REPO_COLUMNS = `r."id", r."ownerId", r."name", r."description", r."isPrivate", r."defaultBranch", r."createdAt", r."updatedAt", r."pushedAt", u."username" AS "ownerUsername", u."orgTokenMaxDays" AS "tokenMaxDays", ${GRANT_COLUMNS}`;

function toRepoRow(r: RawRepoRow): RepoRow {
  return {
    id: r.id,
    ownerId: r.ownerId,
    name: r.name,
    description: r.description,
    isPrivate: boolOf(r.isPrivate),
    defaultBranch: r.defaultBranch,
    createdAt: dateOf(r.createdAt)!,
    updatedAt: dateOf(r.updatedAt)!,
    pushedAt: dateOf(r.pushedAt),
    owner: { username: r.ownerUsername },
    role: r.role,
    org: { role: r.orgRole, basePermission: r.orgBase, team: teamPermissionOfRank(r.teamRank) },
    tokenMaxDays: r.tokenMaxDays === null || r.tokenMaxDays === undefined ? null : Number(r.tokenMaxDays),
  };
}

/**
 * Where `actor` may read repository `repoId` (its role, before the token's scope cap and the
 * organization token policy): its current owner and name, or null when it does not exist, the
 * actor cannot read it, or the token has no repository scope. For redirects from a former path
 * (./redirects.ts): a redirect is only followed for callers who could read the repository.
 */
export async function readableRepoPath(db: Db, actor: Actor | null, repoId: string): Promise<{ owner: string; name: string } | null> {
  if (actor && scopeCap(actor.scopes) === "none") return null;
  const row = await findRepoRow(db, { repoId }, actor?.user.id ?? null);
  if (!row || permissionOf(row, actor?.user ?? null, row.role, row.org) === "none") return null;
  return { owner: row.owner.username, name: row.name };
}

/** Repository `repoId`'s current owner and name, or null when it does not exist. No permission check: for a deploy key's own repository (./redirects.ts). */
export async function repoPathById(db: Db, repoId: string): Promise<{ owner: string; name: string } | null> {
  const row = await findRepoRow(db, { repoId }, null);
  return row && { owner: row.owner.username, name: row.name };
}

export function toAuthorized(
  row: {
    id: string;
    ownerId: string;
    name: string;
    description: string | null;
    isPrivate: boolean;
    defaultBranch: string;
    createdAt: Date;
    updatedAt: Date;
    pushedAt: Date | null;
    owner: { username: string };
  },
  permission: Permission,
): AuthorizedRepo {
  return {
    id: row.id,
    ownerId: row.ownerId,
    owner: row.owner.username,
    name: row.name,
    description: row.description,
    isPrivate: row.isPrivate,
    defaultBranch: row.defaultBranch,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    pushedAt: row.pushedAt,
    permission,
    gitDir: repoGitDir(row.owner.username, row.name),
  };
}

export { repoSelect };

/**
 * The repository a deploy key may reach (docs/ssh.md "Deploy keys"): `owner/name` only when it is
 * the key's own repository `keyRepoId`, with permission read (`readOnly`) or write — never admin,
 * whoever owns it. Errors: NOT_FOUND "repository <owner>/<name> not found" for any other or unknown
 * repository (a deploy key cannot tell whether another repository exists); FORBIDDEN when `level`
 * is write and the key is read-only.
 */
export async function authorizeDeployKey(
  db: Db,
  key: { repoId: string; readOnly: boolean },
  locator: { owner: string; name: string },
  level: "read" | "write",
): Promise<AuthorizedRepo> {
  const row = await findRepoRow(db, locator, null);
  if (!row || row.id !== key.repoId) throw new AppError("NOT_FOUND", `repository ${locator.owner}/${locator.name} not found`);
  if (level === "write" && key.readOnly)
    throw new AppError("FORBIDDEN", `push refused: this deploy key of ${row.owner.username}/${row.name} is read-only`);
  return toAuthorized(row, key.readOnly ? "read" : "write");
}
