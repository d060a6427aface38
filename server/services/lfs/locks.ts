/**
 * Git LFS file locks (docs/lfs.md "Locks"; https://github.com/git-lfs/git-lfs/blob/main/docs/api/locking.md):
 * one lock per path per repository (LfsLock, unique [repoId, path]), owned by the user who took
 * it. Taking, verifying and releasing need write permission (checked by the caller); releasing
 * someone else's lock needs `force` and admin permission on the repository. Listings are ordered
 * by creation (then id) and paged with an opaque cursor (the next lock's id).
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";

/** A lock as the LFS API shows it. */
export interface LfsLockView {
  id: string;
  path: string;
  /** RFC 3339. */
  locked_at: string;
  owner: { name: string };
}

/** Longest lock path accepted (characters). */
export const MAX_LOCK_PATH = 4096;
/** Default and largest page size of lock listings. */
export const DEFAULT_LOCK_PAGE = 100;
export const MAX_LOCK_PAGE = 1000;

const lockSelect = { id: true, path: true, createdAt: true, owner: { select: { username: true } } } as const;
type LockRow = { id: string; path: string; createdAt: Date; owner: { username: string }; ownerId?: string };

function view(row: LockRow): LfsLockView {
  return { id: row.id, path: row.path, locked_at: row.createdAt.toISOString(), owner: { name: row.owner.username } };
}

/** Throws BAD_REQUEST unless `path` is a non-empty path without NUL, at most MAX_LOCK_PATH characters. */
export function checkLockPath(path: unknown): string {
  if (typeof path !== "string" || !path || path.length > MAX_LOCK_PATH || path.includes("\u0000"))
    throw new AppError("BAD_REQUEST", `"path" must be a non-empty file path of at most ${MAX_LOCK_PATH} characters`);
  return path;
}

/**
 * Locks `path` in `repoId` for `userId`. Returns `{ lock }` (created) or `{ existing }` when the
 * path is already locked (by anyone: the API answers 409 with it).
 */
export async function createLfsLock(
  db: Db,
  repoId: string,
  userId: string,
  path: string,
  refName: string | null,
): Promise<{ lock: LfsLockView } | { existing: LfsLockView }> {
  const found = await db.lfsLock.findUnique({ where: { repoId_path: { repoId, path } }, select: lockSelect });
  if (found) return { existing: view(found) };
  try {
    return { lock: view(await db.lfsLock.create({ data: { repoId, path, ownerId: userId, refName }, select: lockSelect })) };
  } catch (e) {
    if ((e as { code?: string }).code !== "P2002") throw e;
    const raced = await db.lfsLock.findUnique({ where: { repoId_path: { repoId, path } }, select: lockSelect });
    if (!raced) throw e;
    return { existing: view(raced) };
  }
}

export interface LockPageQuery {
  path?: string;
  id?: string;
  cursor?: string;
  limit?: number;
}

/** Parses a page size: DEFAULT_LOCK_PAGE when absent; BAD_REQUEST unless 1..MAX_LOCK_PAGE. */
export function lockPageSize(raw: unknown): number {
  if (raw === undefined || raw === null || raw === "") return DEFAULT_LOCK_PAGE;
  const n = typeof raw === "number" ? raw : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LOCK_PAGE)
    throw new AppError("BAD_REQUEST", `"limit" must be a whole number from 1 to ${MAX_LOCK_PAGE}`);
  return n;
}

async function page(db: Db, repoId: string, q: LockPageQuery): Promise<{ rows: (LockRow & { ownerId: string })[]; next?: string }> {
  const limit = q.limit ?? DEFAULT_LOCK_PAGE;
  const where = { repoId, ...(q.path ? { path: q.path } : {}), ...(q.id ? { id: q.id } : {}) };
  let after: { createdAt: Date; id: string } | null = null;
  if (q.cursor) {
    after = await db.lfsLock.findFirst({ where: { repoId, id: q.cursor }, select: { createdAt: true, id: true } });
    if (!after) throw new AppError("BAD_REQUEST", "unknown cursor");
  }
  const rows = await db.lfsLock.findMany({
    where: after
      ? { ...where, OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gte: after.id } }] }
      : where,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit + 1,
    select: { ...lockSelect, ownerId: true },
  });
  return { rows: rows.slice(0, limit), next: rows.length > limit ? rows[limit]!.id : undefined };
}

/** One page of `repoId`'s locks, filtered by exact path and/or id. */
export async function listLfsLocks(db: Db, repoId: string, q: LockPageQuery): Promise<{ locks: LfsLockView[]; next_cursor?: string }> {
  const { rows, next } = await page(db, repoId, q);
  return { locks: rows.map(view), ...(next ? { next_cursor: next } : {}) };
}

/** One page of `repoId`'s locks split into the caller's (`ours`) and everyone else's (`theirs`); `userId` null (a deploy key): all are theirs. */
export async function verifyLfsLocks(
  db: Db,
  repoId: string,
  userId: string | null,
  q: LockPageQuery,
): Promise<{ ours: LfsLockView[]; theirs: LfsLockView[]; next_cursor?: string }> {
  const { rows, next } = await page(db, repoId, q);
  return {
    ours: rows.filter((r) => r.ownerId === userId).map(view),
    theirs: rows.filter((r) => r.ownerId !== userId).map(view),
    ...(next ? { next_cursor: next } : {}),
  };
}

/**
 * Releases lock `id` of `repoId`. Errors: NOT_FOUND when there is no such lock; FORBIDDEN when it
 * is someone else's and not `force`d by a repository admin (`isAdmin`).
 */
export async function unlockLfsLock(
  db: Db,
  repoId: string,
  id: string,
  userId: string,
  force: boolean,
  isAdmin: boolean,
): Promise<LfsLockView> {
  const row = await db.lfsLock.findFirst({ where: { repoId, id }, select: { ...lockSelect, ownerId: true } });
  if (!row) throw new AppError("NOT_FOUND", `lock ${id.slice(0, 64)} not found`);
  if (row.ownerId !== userId) {
    if (!force)
      throw new AppError("FORBIDDEN", `${row.path} is locked by ${row.owner.username}: only they can unlock it (or an admin with --force)`);
    if (!isAdmin)
      throw new AppError("FORBIDDEN", `forcing the release of ${row.owner.username}'s lock needs admin permission on the repository`);
  }
  await db.lfsLock.deleteMany({ where: { id: row.id } });
  return view(row);
}
