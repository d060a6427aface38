/**
 * Forks (docs/pulls.md "Forks"): `forkRepository` makes a repository owned by the
 * caller that shares objects with its parent (server/git/forks.ts) and records forkedFromId;
 * `forkInfo` is what repos.get shows (parent {owner, name} when the caller can read it,
 * forkCount); `detachForks` runs before a repository with forks is deleted, so its forks keep
 * working (their objects are copied in and the alternates link removed; forkedFromId becomes
 * null through the foreign key's SET NULL).
 */
import { memberReposWhere } from "./grants";
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { isUniqueViolation } from "@/server/db/prisma-errors";
import { requireScope, type Actor } from "@/server/auth/actor";
import { hasScope } from "@/server/auth/scopes";
import { line } from "@/server/validation/strings";
import { uuid } from "@/server/validation/ids";
import { repoGitDir } from "@/server/git/paths";
import { cloneShared, detachFork } from "@/server/git/forks";
import { removeRepository } from "@/server/git/repository";
import { repoNameProblem } from "@/lib/names";
import { readRows } from "@/server/db/read";
import { getConfig } from "@/server/config";
import { authorizeRepo, repoSelect, toAuthorized, type AuthorizedRepo } from "./access";
import { inTransaction } from "@/server/db/transaction";
import { dropRedirect } from "./redirects";

export const forkInput = z.object({
  repoId: uuid("repoId", "a repository UUID"),
  name: line("name").trim().min(1, "name is required").max(100, "name is at most 100 characters").optional(),
});

/**
 * repos.fork {repoId, name? (default the parent's name)} → the new repository (admin for its
 * owner, the caller). The repo:write scope (the access row, user tier) and read access to the
 * parent (authorized here: NOT_FOUND when the caller cannot read it). The fork keeps the parent's
 * description and default branch; a fork of a private repository is always private (there is no
 * visibility input, and repos.update refuses to make it public while the parent is private), a
 * fork of a public one public. The fork references the parent's Git LFS objects (LfsRepoObject
 * rows copied, no content copied: docs/lfs.md "Forks").
 * Errors: BAD_REQUEST invalid name; CONFLICT when the caller already has a repository with that
 * name (also their own repository: fork it under another name).
 */
export async function forkRepository(db: Db, actor: Actor | null, raw: z.input<typeof forkInput>): Promise<AuthorizedRepo> {
  if (!actor) throw new AppError("UNAUTHORIZED", "sign in or send a token to do this");
  requireScope(actor, "repo:write");
  const input = forkInput.parse(raw);
  const parent = await authorizeRepo(db, actor, { repoId: input.repoId }, "read");
  const name = input.name ?? parent.name;
  const problem = repoNameProblem(name);
  if (problem) throw new AppError("BAD_REQUEST", problem);
  let row;
  try {
    row = await inTransaction(db, async (tx) => {
      const created = await tx.repository.create({
        data: {
          ownerId: actor.user.id,
          name,
          nameLower: name.toLowerCase(),
          description: parent.description,
          isPrivate: parent.isPrivate,
          defaultBranch: parent.defaultBranch,
          forkedFromId: parent.id,
        },
        select: repoSelect,
      });
      await dropRedirect(tx, actor.user.id, name); // the fork takes the path (./redirects.ts)
      // Git LFS: the fork references the parent's objects (rows only, the content is shared; docs/lfs.md "Forks").
      await tx.$executeRaw`INSERT INTO "LfsRepoObject" ("repoId", "oid", "createdAt") SELECT ${created.id}, "oid", "createdAt" FROM "LfsRepoObject" WHERE "repoId" = ${parent.id}`;
      return created;
    });
  } catch (e) {
    if (isUniqueViolation(e) || (e instanceof AppError && e.code === "CONFLICT"))
      throw new AppError("CONFLICT", `you already have a repository named "${name}"`);
    throw e;
  }
  const gitDir = repoGitDir(actor.user.username, name);
  try {
    await removeRepository(gitDir); // a leftover folder from a failed earlier attempt
    await cloneShared(parent.gitDir, gitDir);
  } catch (e) {
    await removeRepository(gitDir).catch(() => {});
    await db.repository.delete({ where: { id: row.id } }).catch(() => {});
    throw e;
  }
  return toAuthorized(row, "admin");
}

/** Fork facts for repos.get: the parent (null when none or the caller cannot read it) and how many forks there are. */
export async function forkInfo(
  db: Db,
  actor: Actor | null,
  repoId: string,
): Promise<{ parent: { id: string; owner: string; name: string } | null; forkCount: number }> {
  // one statement on the read path (server/db/read.ts): repos.get runs this on every call
  const ph = getConfig().provider === "postgresql" ? "$1" : "?";
  const [row] = await readRows<{ forkedFromId: string | null; forkCount: unknown }>(
    db,
    `SELECT r."forkedFromId", (SELECT COUNT(*) FROM "Repository" f WHERE f."forkedFromId" = r."id") AS "forkCount"
      FROM "Repository" r WHERE r."id" = ${ph}`,
    [repoId],
  );
  let parent: { id: string; owner: string; name: string } | null = null;
  if (row?.forkedFromId) {
    try {
      const p = await authorizeRepo(db, actor, { repoId: row.forkedFromId }, "read");
      parent = { id: p.id, owner: p.owner, name: p.name };
    } catch {
      parent = null; // not readable by this caller: not shown
    }
  }
  return { parent, forkCount: Number(row?.forkCount ?? 0) };
}

/**
 * The head repositories the compare page offers (docs/pulls.md "Forks"): `repo`'s parent, its forks
 * and its sibling forks (the parent's other forks) that `actor` can read, parent first, then the
 * others oldest first — at most 50 (the network repos.compare {headRepoId} and pulls.create
 * accept). One query, with the visibility rule of repository lists (listRepositories: public,
 * owned, collaborated, or any for a site administrator; a token without repo:read sees public ones
 * only).
 */
export async function forkNetwork(
  db: Db,
  actor: Actor | null,
  repo: { id: string },
): Promise<{ id: string; owner: string; name: string; isParent: boolean }[]> {
  const viewer = actor && hasScope(actor.scopes, "repo:read") ? actor : null;
  const userId = viewer?.user.id;
  const membership = userId ? memberReposWhere(userId) : [];
  const visible = viewer?.user.isAdmin ? {} : { OR: [{ isPrivate: false }, ...membership] };
  const self = await db.repository.findUnique({ where: { id: repo.id }, select: { forkedFromId: true } });
  const rows = await db.repository.findMany({
    where: {
      AND: [
        visible,
        {
          OR: [
            { forkedFromId: repo.id },
            ...(self?.forkedFromId ? [{ id: self.forkedFromId }, { forkedFromId: self.forkedFromId, id: { not: repo.id } }] : []),
          ],
        },
      ],
    },
    select: { id: true, name: true, createdAt: true, owner: { select: { username: true } } },
    orderBy: { createdAt: "asc" },
    take: 51,
  });
  const out = rows.map((r) => ({ id: r.id, owner: r.owner.username, name: r.name, isParent: r.id === self?.forkedFromId }));
  return [...out.filter((r) => r.isParent), ...out.filter((r) => !r.isParent)].slice(0, 50);
}

/**
 * How repository `a` relates to `b` in a fork network as svc builds it (docs/pulls.md "Forks"):
 * "same"; "fork" (a is b's fork); "parent" (a is b's parent); "sibling" (both are forks of one
 * parent); null otherwise (unrelated, or a fork detached from its deleted parent). One query.
 */
export async function forkRelation(db: Db, a: string, b: string): Promise<"same" | "fork" | "parent" | "sibling" | null> {
  if (a === b) return "same";
  const rows = await db.repository.findMany({ where: { id: { in: [a, b] } }, select: { id: true, forkedFromId: true } });
  const ra = rows.find((r) => r.id === a);
  const rb = rows.find((r) => r.id === b);
  if (!ra || !rb) return null;
  if (ra.forkedFromId === b) return "fork";
  if (rb.forkedFromId === a) return "parent";
  return ra.forkedFromId !== null && ra.forkedFromId === rb.forkedFromId ? "sibling" : null;
}

/** True when `a` and `b` are in one fork network: one is the other's fork, or both are forks of the same parent. */
export async function sameForkNetwork(db: Db, a: string, b: string): Promise<boolean> {
  return (await forkRelation(db, a, b)) !== null;
}

/**
 * Before repository `repoId` is deleted: every fork gets its own copy of the objects it borrows
 * (`detachFork`). Throws (nothing deleted yet) when one fails.
 */
export async function detachForks(db: Db, repoId: string): Promise<void> {
  const forks = await db.repository.findMany({
    where: { forkedFromId: repoId },
    select: { name: true, owner: { select: { username: true } } },
  });
  for (const f of forks) await detachFork(repoGitDir(f.owner.username, f.name));
}
