/**
 * Checks that the rows an issue refers to exist in its repository and may be used there: the
 * assignee (must be able to read the repository), labels (by name) and the project / cycle
 * filters of the board and estimate reads. Shared by create, update, templates and the board.
 */
import type { Db, Prisma } from "@/server/db";
import { AppError } from "@/server/errors";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import { userPermission } from "@/server/services/repos/user-permissions";

type Tx = Prisma.TransactionClient;

/**
 * BAD_REQUEST unless `userId` is a user who can read the repository (assignees must be able to
 * read it; repos/user-permissions.ts, so a member without two-factor authentication of an
 * organization requiring it cannot be assigned a private repository's issue).
 */
export async function assertCanRead(
  tx: Tx | Db,
  repo: Pick<AuthorizedRepo, "id" | "ownerId" | "isPrivate">,
  userId: string,
): Promise<void> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true, isOrg: true } });
  // an organization is not a person: never an assignee (docs/orgs.md)
  if (!user || user.isOrg) throw new AppError("BAD_REQUEST", `assignee ${userId} does not exist`);
  if ((await userPermission(tx, repo.id, user.id)) === "none") {
    throw new AppError("BAD_REQUEST", "the assignee cannot read this repository");
  }
}

/** Label ids for names (case-insensitive). Unknown names: BAD_REQUEST naming them, or skipped when `skipUnknown`. */
export async function labelIdsByName(tx: Tx | Db, repoId: string, names: string[], skipUnknown = false): Promise<string[]> {
  if (!names.length) return [];
  const lower = [...new Set(names.map((n) => n.trim().toLowerCase()))];
  const found = await tx.label.findMany({ where: { repoId, nameLower: { in: lower } }, select: { id: true, nameLower: true } });
  const missing = lower.filter((n) => !found.some((f) => f.nameLower === n));
  if (missing.length && !skipUnknown)
    throw new AppError("BAD_REQUEST", `unknown label${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`);
  return found.map((f) => f.id);
}

/** NOT_FOUND unless the project / cycle ids belong to the repository. */
export async function assertProjectCycle(db: Db, repoId: string, projectId?: string, cycleId?: string): Promise<void> {
  const [project, cycle] = await Promise.all([
    projectId ? db.project.findFirst({ where: { id: projectId, repoId }, select: { id: true } }) : true,
    cycleId ? db.cycle.findFirst({ where: { id: cycleId, repoId }, select: { id: true } }) : true,
  ]);
  if (!project) throw new AppError("NOT_FOUND", "project not found");
  if (!cycle) throw new AppError("NOT_FOUND", "cycle not found");
}
