/** orgs.delete: removes an organization that owns no repositories. */
import type { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { findOrgAs } from "./model";
import type { orgNameInput } from "./get-org";

/**
 * Deletes organization `name` and its memberships; owners only. Refused while it owns
 * repositories (as Gitea does): delete or move them first, so no repository disappears as a side
 * effect. Errors: NOT_FOUND; FORBIDDEN for non-owners; PRECONDITION_FAILED while it has
 * repositories.
 */
export async function deleteOrg(db: Db, actor: Actor, input: z.output<typeof orgNameInput>): Promise<{ deleted: true }> {
  const { org } = await findOrgAs(db, input.name, actor.user.id, "owner");
  const repos = await db.repository.count({ where: { ownerId: org.id } });
  if (repos > 0)
    throw new AppError(
      "PRECONDITION_FAILED",
      `organization ${org.username} still owns ${repos} ${repos === 1 ? "repository" : "repositories"}; delete them first`,
    );
  await db.user.delete({ where: { id: org.id } });
  return { deleted: true };
}
