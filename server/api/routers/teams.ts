/**
 * teams router (docs/orgs.md "Teams"): an organization's teams, their members and repository
 * grants. Organization owners manage teams; members list and read them; anyone else gets
 * NOT_FOUND — checked in the services (server/services/teams/).
 */
import { router, authedProcedure, repoProcedure } from "../trpc";
import { createTeam, createTeamInput } from "@/server/services/teams/create-team";
import { listTeams, listTeamsInput } from "@/server/services/teams/list-teams";
import { getTeam } from "@/server/services/teams/get-team";
import { deleteTeam, updateTeam, updateTeamInput } from "@/server/services/teams/update-team";
import { addTeamMember, removeTeamMember, teamMemberInput } from "@/server/services/teams/team-members";
import { addTeamRepo, addTeamRepoInput, removeTeamRepo, teamRepoInput } from "@/server/services/teams/team-repos";
import { teamRefInput } from "@/server/services/teams/model";
import { listTeamAccess } from "@/server/services/teams/repo-access";

export const teamsRouter = router({
  /** {org, name, description?, permission? (read)} → team. Owners; CONFLICT when the slug is taken. */
  create: authedProcedure.input(createTeamInput).mutation(({ ctx, input }) => createTeam(ctx.db, ctx.actor, input)),
  /** {org} → teams with member and repository counts. Members. */
  list: authedProcedure.input(listTeamsInput).query(({ ctx, input }) => listTeams(ctx.db, ctx.actor, input)),
  /** {org, slug} → team with members and repositories. Members. */
  get: authedProcedure.input(teamRefInput).query(({ ctx, input }) => getTeam(ctx.db, ctx.actor, input)),
  /** {org, slug, name?, description?, permission?} → team. Owners. */
  update: authedProcedure.input(updateTeamInput).mutation(({ ctx, input }) => updateTeam(ctx.db, ctx.actor, input)),
  /** {org, slug} → {deleted}; memberships, grants and review requests go with it. Owners. */
  delete: authedProcedure.input(teamRefInput).mutation(({ ctx, input }) => deleteTeam(ctx.db, ctx.actor, input)),
  /** {org, slug, username} → member. Owners; BAD_REQUEST unless an organization member; CONFLICT if on the team. */
  addMember: authedProcedure.input(teamMemberInput).mutation(({ ctx, input }) => addTeamMember(ctx.db, ctx.actor, input)),
  /** {org, slug, username} → {removed}. Owners. */
  removeMember: authedProcedure.input(teamMemberInput).mutation(({ ctx, input }) => removeTeamMember(ctx.db, ctx.actor, input)),
  /** {org, slug, repo, permission? (the team's)} → grant. Owners; the repository must be the organization's. */
  addRepo: authedProcedure.input(addTeamRepoInput).mutation(({ ctx, input }) => addTeamRepo(ctx.db, ctx.actor, input)),
  /** {org, slug, repo} → {removed}. Owners. */
  removeRepo: authedProcedure.input(teamRepoInput).mutation(({ ctx, input }) => removeTeamRepo(ctx.db, ctx.actor, input)),
  /** {repoId} → the teams with access [{org, slug, name, permission, memberCount}] (repository admins: its settings). */
  repoAccess: repoProcedure.query(({ ctx }) => listTeamAccess(ctx.db, ctx.repo)),
});
