/** Whose namespace a new repository goes into: the actor's own, or an organization's (repos.create {owner}). */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import { findOrg } from "./model";

/**
 * The owner account for a repository the actor creates: the actor when `owner` is absent or names
 * the actor; otherwise organization `owner`, where the actor must be an owner, or a member when the
 * organization lets members create repositories (docs/orgs.md "Creating repositories").
 * Errors: NOT_FOUND when `owner` is neither the actor nor an organization; FORBIDDEN when the actor
 * may not create there.
 */
export async function repoOwnerFor(db: Db, actor: Actor, owner: string | undefined): Promise<{ id: string; username: string }> {
  if (!owner || owner.toLowerCase() === actor.user.username.toLowerCase()) return { id: actor.user.id, username: actor.user.username };
  const { org, role } = await findOrg(db, owner, actor.user.id).catch(() => {
    throw new AppError("NOT_FOUND", `no organization named ${owner}`);
  });
  if (role === "owner" || (role === "member" && org.orgMembersCanCreateRepos)) return { id: org.id, username: org.username };
  throw new AppError("FORBIDDEN", `you may not create repositories in ${org.username}`);
}
