/**
 * The merge requirements of pull requests (requirements.ts `evaluateRequirements`) read from the
 * database: the rule of each target branch, the reviews and the heads' statuses. Only reviews by
 * people who have write permission on the repository *now* count (GitHub's rule), read with the
 * one rule for other people (repos/user-permissions.ts): an approval by someone since removed, or
 * without two-factor authentication in an organization that now requires it, stops counting. The
 * merge box (`pullRequirements`, one pull request) and the inbox's "Ready to merge"
 * (`pullsRequirements`, a page of them) share this one path, so both apply the same rules. A
 * bounded number of queries: rules, reviews, the reviewers' permissions (one statement, of the
 * reviewers only: rows never grow with the organization) once for every pull request, their teams
 * when a code owner rule applies, plus the statuses of each repository whose rule requires checks;
 * none beyond the rules when no target is protected.
 */
import { atLeast } from "@/server/services/repos/access";
import { permissionIn, usersPermissions } from "@/server/services/repos/user-permissions";
import { teamsOfUsers } from "@/server/services/teams/memberships";
import type { Db } from "@/server/db";
import { runGit } from "@/server/git/exec";
import { mergeBase } from "@/server/git/commits";
import { combinedStatuses } from "@/server/services/statuses/combined-status";
import { CODEOWNERS_PATHS, parseCodeOwners, unapprovedOwnedPaths, type CodeOwnersRule } from "./codeowners";
import { evaluateRequirements, latestVerdicts, type Requirement } from "./requirements";
import { ruleForBranch } from "./pattern";
import { toRule, type ProtectionRule } from "./rules";
import type { StatusState } from "./status-lookup";

export interface PullRequirements {
  /** The rule of the target branch (null: not protected, no requirements). */
  rule: ProtectionRule | null;
  requirements: Requirement[];
}

/** A pull request as the requirements read it; `behindBy`: commits of the target not in the head. */
export interface RequirementPull {
  id: string;
  repoId: string;
  authorId: string | null;
  targetBranch: string;
  headSha: string;
  behindBy: number;
}

/** Where the code owner rule reads git: the target repository's directory and the target's tip (null: unknown, the rule is not evaluated). */
export type RequirementGit = (pr: RequirementPull) => Promise<{ gitDir: string; targetTip: string | null } | null>;

/** The latest state per context of each of `shas` in `repoId` (svc's combined view: statuses and check runs). */
export type StatusesLookup = (db: Db, repoId: string, shas: string[]) => Promise<Map<string, { context: string; state: StatusState }[]>>;

const combinedLookup: StatusesLookup = async (db, repoId, shas) => {
  const combined = await combinedStatuses(db, repoId, shas);
  return new Map([...combined].map(([sha, c]) => [sha, c.contexts.map((x) => ({ context: x.context, state: x.state }))]));
};

/**
 * The requirements of each of `prs` (any repositories), by pull request id. `git` locates the
 * repository for the code owner rule (called only for pull requests whose rule requires code
 * owner review; absent: that rule is not evaluated). Queries: the rules of the repositories, then
 * (only when some target is protected) the reviews, the reviewers' permissions on the
 * repositories (one statement), their team memberships (one statement, when some rule requires
 * code owner review), and the combined statuses once per repository whose rule requires checks.
 */
export async function pullsRequirements(
  db: Db,
  prs: RequirementPull[],
  git?: RequirementGit,
  statuses: StatusesLookup = combinedLookup,
): Promise<Map<string, PullRequirements>> {
  const out = new Map<string, PullRequirements>();
  if (prs.length === 0) return out;
  const repoIds = [...new Set(prs.map((p) => p.repoId))];
  const ruleRows = await db.branchProtection.findMany({ where: { repoId: { in: repoIds } }, orderBy: { pattern: "asc" } });
  const rulesOf = new Map<string, ProtectionRule[]>(repoIds.map((id) => [id, []]));
  for (const row of ruleRows) rulesOf.get(row.repoId)!.push(toRule(row));
  const protectedPrs: { pr: RequirementPull; rule: ProtectionRule }[] = [];
  for (const pr of prs) {
    const rule = ruleForBranch(rulesOf.get(pr.repoId)!, pr.targetBranch);
    if (rule) protectedPrs.push({ pr, rule });
    else out.set(pr.id, { rule: null, requirements: [] });
  }
  if (protectedPrs.length === 0) return out;
  const protectedRepos = [...new Set(protectedPrs.map((x) => x.pr.repoId))];
  const shasByRepo = new Map<string, string[]>();
  for (const { pr, rule } of protectedPrs)
    if (rule.requiredStatusChecks.length) shasByRepo.set(pr.repoId, [...(shasByRepo.get(pr.repoId) ?? []), pr.headSha]);
  const [reviews, states] = await Promise.all([
    db.pullRequestReview.findMany({
      where: { pullRequestId: { in: protectedPrs.map((x) => x.pr.id) }, state: { in: ["approved", "changes_requested"] } },
      select: {
        pullRequestId: true,
        authorId: true,
        state: true,
        createdAt: true,
        dismissedAt: true,
        author: { select: { username: true } },
      },
      take: 1000 * protectedPrs.length,
    }),
    Promise.all([...shasByRepo].map(async ([repoId, shas]) => [repoId, await statuses(db, repoId, shas)] as const)),
  ]);
  // only the reviewers' permissions are read: the rows grow with the reviewers, not the organization
  const reviewerIds = [...new Set(reviews.flatMap((r) => (r.authorId ? [r.authorId] : [])))];
  const ownersRule = git !== undefined && protectedPrs.some((x) => x.rule.requireCodeOwnerReview);
  const [perms, teamRows] = await Promise.all([
    usersPermissions(db, protectedRepos, reviewerIds),
    // team owners are satisfied by a member's approval: the reviewers' teams, for that rule only
    ownersRule ? teamsOfUsers(db, reviewerIds) : [],
  ]);
  /** Per user: the `org/slug`s of their teams. */
  const teamsOf = new Map<string, Set<string>>();
  for (const t of teamRows) {
    if (!teamsOf.has(t.userId)) teamsOf.set(t.userId, new Set());
    teamsOf.get(t.userId)!.add(t.team);
  }
  const statusesOf = new Map(states);
  await Promise.all(
    protectedPrs.map(async ({ pr, rule }) => {
      // GitHub's rule: only reviews by people with write access now count (a reader's approval is a
      // comment); the one access rule, so an approval by someone who lost access — removed, or
      // without two-factor authentication in an organization now requiring it — stops counting
      const writes = (id: string | null) => atLeast(permissionIn(perms, pr.repoId, id), "write");
      const counted = reviews
        .filter((r) => r.pullRequestId === pr.id && writes(r.authorId))
        .map((r) => ({ ...r, username: r.author?.username ?? "a deleted user" }));
      let codeOwners: { path: string; owners: string[] }[] | null = null;
      const where = rule.requireCodeOwnerReview && git ? await git(pr) : null;
      if (where?.targetTip) {
        const approved = latestVerdicts(counted, pr.authorId).filter((r) => r.state === "approved");
        // a team owner is satisfied by any member's approval (docs/orgs.md "Teams")
        const approvers = new Set([
          ...approved.map((r) => r.username.toLowerCase()),
          ...approved.flatMap((r) => [...(r.authorId ? (teamsOf.get(r.authorId) ?? []) : [])]),
        ]);
        codeOwners = await waitingOwnedPaths(where.gitDir, where.targetTip, pr.headSha, approvers);
      }
      const requirements = evaluateRequirements({
        rule,
        authorId: pr.authorId,
        codeOwners,
        reviews: counted,
        statuses: statusesOf.get(pr.repoId)?.get(pr.headSha) ?? [],
        behindBy: pr.behindBy,
        targetBranch: pr.targetBranch,
      });
      out.set(pr.id, { rule, requirements });
    }),
  );
  return out;
}

/**
 * The requirements of pull request `pr` of repository `repoId`, `behindBy` commits behind its
 * target (the merge box and pulls.merge): `pullsRequirements` of one. `git`: the target
 * repository and tip for the code owner rule (null: not evaluated).
 */
export async function pullRequirements(
  db: Db,
  repoId: string,
  pr: { id: string; authorId: string | null; targetBranch: string; headSha: string },
  behindBy: number,
  git: { gitDir: string; targetTip: string | null } | null = null,
): Promise<PullRequirements> {
  const one = { id: pr.id, repoId, authorId: pr.authorId, targetBranch: pr.targetBranch, headSha: pr.headSha, behindBy };
  const all = await pullsRequirements(db, [one], async () => git);
  return all.get(pr.id)!;
}

/** Largest CODEOWNERS file read (bytes; GitHub's limit is 3 MB). */
const MAX_CODEOWNERS_BYTES = 3 * 1024 * 1024;
/** Most changed paths checked against CODEOWNERS. */
const MAX_OWNED_PATHS = 5000;

/**
 * The CODEOWNERS rules at commit `tip` (CODEOWNERS_PATHS, first found; at most 3 MB read); null
 * when there is none or git cannot tell. One git process when there is no file (the usual answer).
 */
export async function readCodeOwnersAt(gitDir: string, tip: string): Promise<CodeOwnersRule[] | null> {
  // one process tells whether any of the candidates exists (the usual answer: none)
  const listed = await runGit(["ls-tree", "--name-only", tip, "--", ...CODEOWNERS_PATHS], { gitDir }).catch(() => null);
  const present = new Set(listed && listed.code === 0 ? listed.stdout.toString("utf8").split("\n").filter(Boolean) : []);
  for (const p of CODEOWNERS_PATHS.filter((c) => present.has(c))) {
    const r = await runGit(["cat-file", "blob", `${tip}:${p}`], { gitDir, maxBytes: MAX_CODEOWNERS_BYTES }).catch(() => null);
    if (r && r.code === 0) return parseCodeOwners(r.stdout.toString("utf8"));
  }
  return null;
}

/** The paths `head` changes against its merge base with `targetTip` (at most MAX_OWNED_PATHS); null when git cannot tell. */
export async function changedPathsOf(gitDir: string, targetTip: string, head: string): Promise<string[] | null> {
  const base = await mergeBase(gitDir, targetTip, head).catch(() => null);
  if (!base) return null;
  const diff = await runGit(["diff", "--name-only", "--no-renames", "-z", base, head], { gitDir });
  if (diff.code !== 0) return null;
  return diff.stdout.toString("utf8").split("\0").filter(Boolean).slice(0, MAX_OWNED_PATHS);
}

/**
 * The CODEOWNERS rules at `targetTip` (readCodeOwnersAt) and the paths `head` changes against its
 * merge base with `targetTip` (changedPathsOf); null when there is no CODEOWNERS file or git
 * cannot tell.
 */
export async function codeOwnersOfChange(
  gitDir: string,
  targetTip: string,
  head: string,
): Promise<{ rules: CodeOwnersRule[]; paths: string[] } | null> {
  const rules = await readCodeOwnersAt(gitDir, targetTip);
  if (!rules) return null;
  const paths = await changedPathsOf(gitDir, targetTip, head);
  return paths ? { rules, paths } : null;
}

/** The owned changed paths of `head` whose owners have not approved (`approvers`: lower-cased usernames); null without CODEOWNERS. */
async function waitingOwnedPaths(
  gitDir: string,
  targetTip: string,
  head: string,
  approvers: Set<string>,
): Promise<{ path: string; owners: string[] }[] | null> {
  const owned = await codeOwnersOfChange(gitDir, targetTip, head);
  return owned ? unapprovedOwnedPaths(owned.rules, owned.paths, approvers) : null;
}
