/**
 * branchProtection.bypasses (repository admin: server/api/access.ts; docs/api.md "Branch
 * protection"): the recent admin bypasses of each rule, as the settings page lists them. A
 * bypass row (BranchProtectionBypass) is written when an admin pushed past a rule
 * (check-updates.ts) or merged past unmet merge requirements (pulls/merge.ts); a merge is told
 * from a push by the pull request whose merge commit the row's new tip is.
 */
import type { Db } from "@/server/db";
import { compareSpecificity } from "./pattern";

/** Most bypasses listed per rule (newest first). */
export const BYPASSES_PER_RULE = 20;

/** One bypass as the settings page shows it. */
export interface BypassView {
  id: string;
  /** ISO time */
  createdAt: string;
  /** who bypassed (null: a deleted user or an anonymous push) */
  user: { username: string } | null;
  /** "merge": pulls.merge with bypassRequirements; "push": a ref update (git push, svc's own commits) */
  kind: "merge" | "push";
  ref: string;
  oldSha: string;
  newSha: string;
  /** what was passed over: requirement kinds for a merge (approvals, status, codeOwners, upToDate), rule names for a push (requirePullRequest, …) */
  rules: string[];
  /** the merged pull request (kind "merge") */
  pull: { number: number } | null;
}

/** A rule's pattern and its recent bypasses. */
export interface RuleBypasses {
  pattern: string;
  bypasses: BypassView[];
}

const parseRules = (json: string): string[] => {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
};

/**
 * The newest BYPASSES_PER_RULE bypasses of each current rule of `repoId` (rules most specific
 * first, as branchProtection.list), keyed by the pattern recorded with the bypass. Queries: the
 * rules, one per rule (index (repoId, createdAt)), the users and the merged pull requests.
 */
export async function listBypasses(db: Db, repoId: string): Promise<RuleBypasses[]> {
  const rules = await db.branchProtection.findMany({ where: { repoId }, select: { pattern: true } });
  const patterns = rules.map((r) => r.pattern).sort(compareSpecificity);
  const rows = (
    await Promise.all(
      patterns.map((pattern) =>
        db.branchProtectionBypass.findMany({
          where: { repoId, pattern },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: BYPASSES_PER_RULE,
        }),
      ),
    )
  ).flat();
  const userIds = [...new Set(rows.flatMap((r) => (r.userId ? [r.userId] : [])))];
  const [users, pulls] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, username: true } }) : [],
    rows.length
      ? db.pullRequest.findMany({
          where: { repoId, state: "merged", mergeSha: { in: [...new Set(rows.map((r) => r.newSha))] } },
          select: { number: true, mergeSha: true },
        })
      : [],
  ]);
  const nameOf = new Map(users.map((u) => [u.id, u.username]));
  const pullOf = new Map(pulls.map((p) => [p.mergeSha, p.number]));
  return patterns.map((pattern) => ({
    pattern,
    bypasses: rows
      .filter((r) => r.pattern === pattern)
      .map((r) => {
        const number = pullOf.get(r.newSha);
        const username = r.userId ? nameOf.get(r.userId) : undefined;
        return {
          id: r.id,
          createdAt: r.createdAt.toISOString(),
          user: username ? { username } : null,
          kind: number === undefined ? "push" : "merge",
          ref: r.ref,
          oldSha: r.oldSha,
          newSha: r.newSha,
          rules: parseRules(r.rules),
          pull: number === undefined ? null : { number },
        };
      }),
  }));
}
