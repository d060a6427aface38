/**
 * Reading branch protection rules: the rows of a repository (one indexed query), the rule that
 * applies to a branch (pattern.ts `ruleForBranch`), and the API view.
 */
import type { Db } from "@/server/db";
import type { BranchProtection } from "@/generated/prisma/client";
import { ruleForBranch } from "./pattern";
import type { ProtectionRuleView } from "./schemas";

/** A rule row with its JSON columns parsed: requiredStatusChecks contexts, pushAllowlist user ids. */
export type ProtectionRule = Omit<BranchProtection, "requiredStatusChecks" | "pushAllowlist"> & {
  requiredStatusChecks: string[];
  pushAllowlist: string[];
};

const parseList = (json: string): string[] => {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
};

/** Parses a row's JSON columns. */
export function toRule(row: BranchProtection): ProtectionRule {
  return { ...row, requiredStatusChecks: parseList(row.requiredStatusChecks), pushAllowlist: parseList(row.pushAllowlist) };
}

/** Every rule of repository `repoId`, by pattern. */
export async function loadRules(db: Db, repoId: string): Promise<ProtectionRule[]> {
  const rows = await db.branchProtection.findMany({ where: { repoId }, orderBy: { pattern: "asc" } });
  return rows.map(toRule);
}

/** The rule that applies to branch `branch` (without refs/heads/) of `repoId`, or null when it is not protected. */
export async function ruleOfBranch(db: Db, repoId: string, branch: string): Promise<ProtectionRule | null> {
  return ruleForBranch(await loadRules(db, repoId), branch);
}

/** The API view of rules (allowlisted user ids → usernames, one query for all). */
export async function toRuleViews(db: Db, rules: ProtectionRule[]): Promise<ProtectionRuleView[]> {
  const ids = [...new Set(rules.flatMap((r) => r.pushAllowlist))];
  const users = ids.length ? await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, username: true } }) : [];
  const name = new Map(users.map((u) => [u.id, u.username]));
  return rules.map((r) => ({
    id: r.id,
    pattern: r.pattern,
    requirePullRequest: r.requirePullRequest,
    requiredApprovals: r.requiredApprovals,
    dismissStaleApprovals: r.dismissStaleApprovals,
    requireCodeOwnerReview: r.requireCodeOwnerReview,
    requiredStatusChecks: r.requiredStatusChecks,
    requireUpToDate: r.requireUpToDate,
    allowForcePush: r.allowForcePush,
    allowDeletion: r.allowDeletion,
    pushAllowlist: r.pushAllowlist.flatMap((id) => (name.has(id) ? [name.get(id)!] : [])),
    enforceAdmins: r.enforceAdmins,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}
