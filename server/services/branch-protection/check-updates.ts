/**
 * Branch protection at the one ref-update path (services/repos/update-branch.ts
 * `checkBranchUpdates`: `git push` in the pre-receive hook and svc's own commits alike;
 * docs/git-http.md "Refused pushes: ref names and push protection (pre-receive)", branch
 * protection). For each update of a branch whose rule (pattern.ts: the most specific matching
 * pattern) forbids it:
 *   - deletion unless `allowDeletion`;
 *   - a non-fast-forward update (the old tip is not an ancestor of the new one) unless
 *     `allowForcePush`; creating the branch is never a force-push;
 *   - any update but a pull request merge (`via.pullMerge`) when `requirePullRequest`;
 *   - an update by a user not in a non-empty `pushAllowlist` (pushes and merges alike).
 * A repository admin passes when `enforceAdmins` is off: each rule passed over is recorded as a
 * BranchProtectionBypass row (repository, pattern, user, ref, shas, rules) when the check runs,
 * before the ref moves. Tags are not protected.
 */
import type { Actor } from "@/server/auth/actor";
import type { Db } from "@/server/db";
import { runGit } from "@/server/git/exec";
import type { RefUpdate } from "@/server/git/push-commands";
import { isZeroSha } from "@/lib/sha";
import { effectivePermission } from "@/server/services/repos/access";
import { userPermission } from "@/server/services/repos/user-permissions";
import { ruleForBranch } from "./pattern";
import { loadRules, type ProtectionRule } from "./rules";

/** What kind of ref move this is, beyond the ref and shas. */
export interface UpdateVia {
  /** The update is the merge of pull request #number into its target branch (its requirements were checked by pulls.merge). */
  pullMerge?: { number: number };
}

/** A protection rule an update breaks (named as the rule's field). */
export type ProtectionBreach = "allowDeletion" | "allowForcePush" | "requirePullRequest" | "pushAllowlist";

/** The refusal line for a breach of branch `branch` ("main is protected: changes must go through a pull request"). */
export function breachMessage(branch: string, breach: ProtectionBreach): string {
  const why: Record<ProtectionBreach, string> = {
    requirePullRequest: "changes must go through a pull request",
    allowForcePush: "force-pushes are not allowed (the update is not a fast-forward)",
    allowDeletion: "it cannot be deleted",
    pushAllowlist: "only the users on its push allowlist may push or merge to it",
  };
  return `${branch} is protected: ${why[breach]}`;
}

/** True when `oldSha` is an ancestor of `newSha` (git merge-base --is-ancestor), reading objects through `env` (a push's quarantine). */
async function fastForward(gitDir: string, oldSha: string, newSha: string, env: Record<string, string>): Promise<boolean> {
  const r = await runGit(["merge-base", "--is-ancestor", oldSha, newSha], { gitDir, env });
  return r.code === 0;
}

/** The breaches of one branch update under `rule`. */
async function breachesOf(
  rule: ProtectionRule,
  actor: Actor | null,
  u: RefUpdate,
  gitDir: string,
  env: Record<string, string>,
  via: UpdateVia,
): Promise<ProtectionBreach[]> {
  const out: ProtectionBreach[] = [];
  if (isZeroSha(u.newSha)) {
    if (!rule.allowDeletion) out.push("allowDeletion");
  } else {
    if (!isZeroSha(u.oldSha) && !rule.allowForcePush && !(await fastForward(gitDir, u.oldSha, u.newSha, env))) out.push("allowForcePush");
    if (rule.requirePullRequest && !via.pullMerge) out.push("requirePullRequest");
  }
  if (rule.pushAllowlist.length > 0 && !(actor && rule.pushAllowlist.includes(actor.user.id))) out.push("pushAllowlist");
  return out;
}

/** True when `actor` acts as an admin of repository `repoId` (role and token scope). */
async function actsAsAdmin(db: Db, actor: Actor | null, repoId: string): Promise<boolean> {
  if (!actor) return false;
  // the one access rule (an organization's two-factor requirement included), capped by the token
  return effectivePermission(await userPermission(db, repoId, actor.user.id), actor) === "admin";
}

/**
 * The branch protection refusals of `updates` to repository `repoId` (bare repository `gitDir`;
 * `env` lets git read a push's quarantined objects): one line per refused update, each naming
 * the branch and the rule (`breachMessage`). Admin bypasses are recorded (module comment). One
 * query for the rules; git runs only for updates of protected branches. Errors: database errors.
 */
export async function protectionProblems(
  db: Db,
  actor: Actor | null,
  repo: { id: string; gitDir: string; env?: Record<string, string> },
  updates: RefUpdate[],
  via: UpdateVia = {},
): Promise<string[]> {
  const branches = updates.filter((u) => u.ref.startsWith("refs/heads/"));
  if (branches.length === 0) return [];
  const rules = await loadRules(db, repo.id);
  if (rules.length === 0) return [];
  const problems: string[] = [];
  let admin: boolean | null = null;
  for (const u of branches) {
    const branch = u.ref.slice("refs/heads/".length);
    const rule = ruleForBranch(rules, branch);
    if (!rule) continue;
    const breaches = await breachesOf(rule, actor, u, repo.gitDir, repo.env ?? {}, via);
    if (breaches.length === 0) continue;
    if (!rule.enforceAdmins) admin ??= await actsAsAdmin(db, actor, repo.id);
    if (!rule.enforceAdmins && admin) {
      await db.branchProtectionBypass.create({
        data: {
          repoId: repo.id,
          pattern: rule.pattern,
          userId: actor?.user.id ?? null,
          ref: u.ref,
          oldSha: u.oldSha,
          newSha: u.newSha,
          rules: JSON.stringify(breaches),
        },
      });
      continue;
    }
    problems.push(breachMessage(branch, breaches[0]));
  }
  return problems;
}
