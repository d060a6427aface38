/**
 * repoAiKeys router (docs/ai.md "Repository keys (`repoAiKeys`)"): a repository's
 * own AI provider keys, and (beyond the spec) the daily budget of requests they may make
 * (docs/ai.md "Who reaches a model, and the budget"). Repository admin with a repo:admin token;
 * responses are masked.
 */
import { router, repoProcedure } from "../trpc";
import { deleteRepoAiKey, deleteRepoAiKeyInput, listRepoAiKeys, setRepoAiKey, setRepoAiKeyInput } from "@/server/services/ai/repo-keys";
import { getAiBudget, setAiBudget, setAiBudgetInput } from "@/server/services/ai/budget";

export const repoAiKeysRouter = router({
  /** {repoId} → [{provider, maskedKey, model, baseUrl, engine, readable, createdAt, updatedAt}]. */
  list: repoProcedure.query(({ ctx }) => listRepoAiKeys(ctx.db, ctx.repo.id)),
  /** {repoId, provider, apiKey?, model?, baseUrl?} → the masked record. */
  set: repoProcedure.input(setRepoAiKeyInput).mutation(({ ctx, input }) => setRepoAiKey(ctx.db, ctx.actor!.user.id, ctx.repo.id, input)),
  /** {repoId, provider} → {provider, deleted}. */
  delete: repoProcedure.input(deleteRepoAiKeyInput).mutation(({ ctx, input }) => deleteRepoAiKey(ctx.db, ctx.repo.id, input)),
  /** {repoId} → {dailyRequests, isDefault, usedToday, day, resetsAt}: the repository key's budget (UTC days). */
  budget: repoProcedure.query(({ ctx }) => getAiBudget(ctx.db, ctx.repo.id)),
  /** {repoId, dailyRequests (0–1 000 000, null = the default)} → the budget. */
  setBudget: repoProcedure
    .input(setAiBudgetInput)
    .mutation(({ ctx, input }) => setAiBudget(ctx.db, ctx.actor!.user.id, ctx.repo.id, input)),
});
