/**
 * stacks router (Graphite-style stacked branches): create, get, list, reorder, delete
 * (docs/pulls.md "Stacks"). Mutations are write-level (server/api/access.ts).
 */
import type { RepoLocatorDef } from "../trpc";
import { router, repoProcedure, repoProcedureBy } from "../trpc";
import {
  createStack,
  createStackInput,
  deleteStack,
  getStack,
  listStacks,
  reorderStack,
  reorderStackInput,
  stackRepoId,
} from "@/server/services/stacks/stacks";

const byStackId: RepoLocatorDef<"stackId"> = { key: "stackId", what: "stack", repoIdOf: stackRepoId };

export const stacksRouter = router({
  /** {repoId, name, baseBranch, branches[]} → stack. */
  create: repoProcedure.input(createStackInput).mutation(({ ctx, input }) => createStack(ctx.db, ctx.actor, ctx.repo, input)),
  /** {stackId} → stack {id, name, baseBranch, branches: [{branchName, position, pr, isCurrent}]}. */
  get: repoProcedureBy(byStackId).query(({ ctx }) => getStack(ctx.db, ctx.repo, ctx.entityId)),
  /** {repoId} → stacks by name. */
  list: repoProcedure.query(({ ctx }) => listStacks(ctx.db, ctx.repo)),
  /** {stackId, branches[]} → stack in the new order. */
  reorder: repoProcedureBy(byStackId)
    .input(reorderStackInput)
    .mutation(({ ctx, input }) => reorderStack(ctx.db, ctx.repo, ctx.entityId, input)),
  /** {stackId} → {id}. */
  delete: repoProcedureBy(byStackId).mutation(({ ctx }) => deleteStack(ctx.db, ctx.repo, ctx.entityId)),
});
