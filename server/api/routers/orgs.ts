/**
 * orgs router (docs/orgs.md): organizations share the user namespace and own repositories.
 * Reads are public (an organization's page is public, as a user's profile); changes need an
 * owner, checked in the services (server/services/orgs/).
 */
import { z } from "zod";
import { line } from "@/server/validation/strings";
import { router, publicProcedure, authedProcedure } from "../trpc";
import { createOrg, createOrgInput } from "@/server/services/orgs/create-org";
import { getOrg, orgNameInput } from "@/server/services/orgs/get-org";
import { updateOrg, updateOrgInput } from "@/server/services/orgs/update-org";
import { deleteOrg } from "@/server/services/orgs/delete-org";
import { listOrgs } from "@/server/services/orgs/list-orgs";
import { listMembers } from "@/server/services/orgs/members";
import { addMember, addMemberInput } from "@/server/services/orgs/add-member";
import { removeMember, removeMemberInput, setRole, setRoleInput } from "@/server/services/orgs/change-member";

export const orgsRouter = router({
  /** {name, displayName?} → organization; the caller becomes its owner. BAD_REQUEST / CONFLICT (name taken by a user or organization). */
  create: authedProcedure.input(createOrgInput).mutation(({ ctx, input }) => createOrg(ctx.db, ctx.actor, input)),
  /** {name} → organization with the caller's role (viewerRole). NOT_FOUND. */
  get: publicProcedure.input(orgNameInput).query(({ ctx, input }) => getOrg(ctx.db, ctx.actor ?? null, input)),
  /** {name, displayName?, basePermission? (none|read|write), membersCanCreateRepos?} → organization. Owners only. */
  update: authedProcedure.input(updateOrgInput).mutation(({ ctx, input }) => updateOrg(ctx.db, ctx.actor, input)),
  /** {name} → {deleted}. Owners only; PRECONDITION_FAILED while it owns repositories. */
  delete: authedProcedure.input(orgNameInput).mutation(({ ctx, input }) => deleteOrg(ctx.db, ctx.actor, input)),
  /** → the caller's organizations, with role and canCreateRepos. */
  list: authedProcedure.query(({ ctx }) => listOrgs(ctx.db, ctx.actor)),
  /** {name} → members [{userId, username, name, role}], owners first. */
  members: publicProcedure
    .input(z.object({ name: line("name").trim().min(1).max(100) }))
    .query(({ ctx, input }) => listMembers(ctx.db, ctx.actor ?? null, input.name)),
  /** {name, username, role? (member)} → member. Owners only; CONFLICT if already a member. */
  addMember: authedProcedure.input(addMemberInput).mutation(({ ctx, input }) => addMember(ctx.db, ctx.actor, input)),
  /** {name, username} → {removed}. Owners, or the member themself; never the last owner. */
  removeMember: authedProcedure.input(removeMemberInput).mutation(({ ctx, input }) => removeMember(ctx.db, ctx.actor, input)),
  /** {name, username, role} → member. Owners only; never demotes the last owner. */
  setRole: authedProcedure.input(setRoleInput).mutation(({ ctx, input }) => setRole(ctx.db, ctx.actor, input)),
});
