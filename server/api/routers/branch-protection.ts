/**
 * branchProtection router (docs/api.md "Branch protection"; docs/pulls.md "Branch protection"):
 * a repository's branch protection rules, keyed by pattern. Repository admin (server/api/access.ts).
 */
import { router, repoProcedure } from "../trpc";
import {
  deleteProtectionRule,
  getProtectionRule,
  listProtectionRules,
  upsertProtectionRule,
} from "@/server/services/branch-protection/manage-rules";
import { listBypasses } from "@/server/services/branch-protection/list-bypasses";
import { ruleByPatternInput, upsertRuleInput } from "@/server/services/branch-protection/schemas";

export const branchProtectionRouter = router({
  /** {repoId} → rules, most specific pattern first: [{id, pattern, requirePullRequest, requiredApprovals, …, pushAllowlist (usernames)}]. */
  list: repoProcedure.query(({ ctx }) => listProtectionRules(ctx.db, ctx.repo.id)),
  /** {repoId, pattern} → the rule with exactly this pattern (NOT_FOUND when none). */
  get: repoProcedure.input(ruleByPatternInput).query(({ ctx, input }) => getProtectionRule(ctx.db, ctx.repo.id, input)),
  /** {repoId, pattern, requirePullRequest?, requiredApprovals? (0–10), …, pushAllowlist? (usernames), enforceAdmins?} → the rule (created or changed). */
  upsert: repoProcedure.input(upsertRuleInput).mutation(({ ctx, input }) => upsertProtectionRule(ctx.db, ctx.repo.id, input)),
  /** {repoId} → per rule (most specific first) its newest 20 admin bypasses: [{pattern, bypasses: [{id, createdAt, user, kind, ref, oldSha, newSha, rules, pull}]}]. */
  bypasses: repoProcedure.query(({ ctx }) => listBypasses(ctx.db, ctx.repo.id)),
  /** {repoId, pattern} → {pattern, deleted: true}. */
  delete: repoProcedure.input(ruleByPatternInput).mutation(({ ctx, input }) => deleteProtectionRule(ctx.db, ctx.repo.id, input)),
});
