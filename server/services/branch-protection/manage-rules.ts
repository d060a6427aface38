/**
 * branchProtection.list / get / upsert / delete (repository admin: server/api/access.ts;
 * docs/api.md "Branch protection"). A rule is keyed by (repository, pattern).
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { inTransaction } from "@/server/db/transaction";
import { compareSpecificity } from "./pattern";
import { loadRules, toRule, toRuleViews } from "./rules";
import { ruleByPatternInput, upsertRuleInput, type ProtectionRuleView, type UpsertRuleInput } from "./schemas";

/** Most rules a repository may have. */
export const MAX_RULES = 100;

/** The repository's rules, most specific pattern first (the order in which they win: pattern.ts). */
export async function listProtectionRules(db: Db, repoId: string): Promise<ProtectionRuleView[]> {
  const rules = await loadRules(db, repoId);
  return toRuleViews(
    db,
    rules.sort((a, b) => compareSpecificity(a.pattern, b.pattern)),
  );
}

/** The rule with exactly `pattern`. Errors: NOT_FOUND. */
export async function getProtectionRule(db: Db, repoId: string, raw: { pattern: string }): Promise<ProtectionRuleView> {
  const { pattern } = ruleByPatternInput.parse(raw);
  const row = await db.branchProtection.findUnique({ where: { repoId_pattern: { repoId, pattern } } });
  if (!row) throw new AppError("NOT_FOUND", `no branch protection rule for "${pattern}"`);
  return (await toRuleViews(db, [toRule(row)]))[0];
}

/**
 * Creates the rule for `pattern` or changes the given fields of the existing one (absent fields
 * keep their value; a new rule starts from the defaults: nothing required, nothing allowed
 * beyond a plain push). pushAllowlist usernames are resolved to users (case-insensitively).
 * Errors: BAD_REQUEST (invalid input, an unknown username), PRECONDITION_FAILED (MAX_RULES reached).
 */
export async function upsertProtectionRule(db: Db, repoId: string, raw: UpsertRuleInput): Promise<ProtectionRuleView> {
  const { pattern, requiredStatusChecks, pushAllowlist, ...flags } = upsertRuleInput.parse(raw);
  let allowIds: string[] | undefined;
  if (pushAllowlist) {
    const lower = [...new Set(pushAllowlist.map((u) => u.toLowerCase()))];
    const users = await db.user.findMany({ where: { usernameLower: { in: lower } }, select: { id: true, usernameLower: true } });
    const missing = lower.filter((u) => !users.some((x) => x.usernameLower === u));
    if (missing.length) throw new AppError("BAD_REQUEST", `pushAllowlist: no user named ${missing.map((m) => `"${m}"`).join(", ")}`);
    allowIds = users.map((u) => u.id);
  }
  const data = {
    ...flags,
    ...(requiredStatusChecks ? { requiredStatusChecks: JSON.stringify([...new Set(requiredStatusChecks)]) } : {}),
    ...(allowIds ? { pushAllowlist: JSON.stringify(allowIds) } : {}),
  };
  const row = await inTransaction(db, async (tx) => {
    const existing = await tx.branchProtection.findUnique({ where: { repoId_pattern: { repoId, pattern } }, select: { id: true } });
    if (existing) return tx.branchProtection.update({ where: { id: existing.id }, data });
    if ((await tx.branchProtection.count({ where: { repoId } })) >= MAX_RULES)
      throw new AppError("PRECONDITION_FAILED", `a repository has at most ${MAX_RULES} branch protection rules`);
    return tx.branchProtection.create({ data: { repoId, pattern, ...data } });
  });
  return (await toRuleViews(db, [toRule(row)]))[0];
}

/** Deletes the rule with exactly `pattern` → {pattern, deleted: true}. Errors: NOT_FOUND. */
export async function deleteProtectionRule(db: Db, repoId: string, raw: { pattern: string }): Promise<{ pattern: string; deleted: true }> {
  const { pattern } = ruleByPatternInput.parse(raw);
  const r = await db.branchProtection.deleteMany({ where: { repoId, pattern } });
  if (r.count === 0) throw new AppError("NOT_FOUND", `no branch protection rule for "${pattern}"`);
  return { pattern, deleted: true };
}
