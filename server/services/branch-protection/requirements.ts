/**
 * The merge requirements of a protected branch (docs/pulls.md "Merge requirements"), as a pure
 * function of the rule, the pull request's reviews, its head's statuses and how far it is
 * behind: pulls.checkMergeability lists them, pulls.merge refuses while one is unsatisfied.
 *
 * - approvals: the latest verdict (approved / changes_requested; "commented" reviews are not
 *   verdicts) of each reviewer other than the author, dismissed reviews left out (the caller
 *   passes only reviews by people with write permission: pull-requirements.ts). At least
 *   `requiredApprovals` approving verdicts are needed; and, on any protected branch, each
 *   reviewer whose latest verdict requests changes blocks ("Changes requested by alice") until
 *   they approve or the review is dismissed (pulls.dismissReview) — GitHub's rule.
 * - status: one requirement per `requiredStatusChecks` context, satisfied when its latest state
 *   is "success" (pending, failure, error or none: unsatisfied).
 * - upToDate (`requireUpToDate`): the head contains the target branch's tip (behindBy 0).
 * - codeOwners (`requireCodeOwnerReview`): every changed path that CODEOWNERS gives owners
 *   (codeowners.ts) needs an approving verdict by one of its owners; the caller passes the
 *   paths still waiting (`codeOwners`), or null when CODEOWNERS could not be read (then no
 *   requirement is listed: the rule cannot be evaluated without the file).
 */
import type { StatusState } from "./status-lookup";

export type RequirementKind = "approvals" | "status" | "codeOwners" | "upToDate";

/** One merge requirement (spec extension of pulls.checkMergeability). */
export interface Requirement {
  kind: RequirementKind;
  satisfied: boolean;
  /** What is needed or what blocks, for people ("1 approving review required"). */
  message: string;
  /** The status context (kind "status") or the reviewer's username (a changes-requested block). */
  context?: string;
}

/** The rule fields the requirements read. */
export interface RequirementRule {
  requiredApprovals: number;
  requiredStatusChecks: string[];
  requireUpToDate: boolean;
  requireCodeOwnerReview?: boolean;
}

/** A review as the requirements see it. */
export interface RequirementReview {
  authorId: string | null;
  username: string;
  state: string;
  createdAt: Date;
  dismissedAt: Date | null;
}

export interface RequirementInput {
  rule: RequirementRule;
  /** The pull request's author (their own reviews never count). */
  authorId: string | null;
  reviews: RequirementReview[];
  /** Latest state per context of the head commit. */
  statuses: { context: string; state: StatusState }[];
  /** Commits of the target branch not in the head. */
  behindBy: number;
  targetBranch: string;
  /** With requireCodeOwnerReview: the owned paths without an owner's approval (codeowners.ts `unapprovedOwnedPaths`); null/absent: not evaluated. */
  codeOwners?: { path: string; owners: string[] }[] | null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The latest verdict per reviewer (not the author, not dismissed), in first-verdict order. */
export function latestVerdicts(reviews: RequirementReview[], authorId: string | null): RequirementReview[] {
  const latest = new Map<string, RequirementReview>();
  const sorted = [...reviews].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  for (const r of sorted) {
    if (!r.authorId || r.authorId === authorId || r.dismissedAt) continue;
    if (r.state !== "approved" && r.state !== "changes_requested") continue;
    latest.set(r.authorId, r);
  }
  return [...latest.values()];
}

/** The requirements of a pull request into a protected branch (see the module comment); [] when the rule asks for none. */
export function evaluateRequirements(input: RequirementInput): Requirement[] {
  const { rule } = input;
  const out: Requirement[] = [];
  const verdicts = latestVerdicts(input.reviews, input.authorId);
  const approvals = verdicts.filter((r) => r.state === "approved").length;
  if (rule.requiredApprovals > 0) {
    const satisfied = approvals >= rule.requiredApprovals;
    out.push({
      kind: "approvals",
      satisfied,
      message: satisfied
        ? `${plural(approvals, "approving review")} (${rule.requiredApprovals} required)`
        : `${plural(rule.requiredApprovals - approvals, approvals ? "more approving review" : "approving review")} required`,
    });
  }
  for (const r of verdicts.filter((v) => v.state === "changes_requested"))
    out.push({ kind: "approvals", satisfied: false, message: `Changes requested by ${r.username}`, context: r.username });
  const byContext = new Map(input.statuses.map((s) => [s.context, s.state]));
  for (const context of rule.requiredStatusChecks) {
    const state = byContext.get(context);
    out.push({
      kind: "status",
      context,
      satisfied: state === "success",
      message: state ? `${context}: ${state}` : `${context}: expected, waiting for its status to be reported`,
    });
  }
  const waiting = rule.requireCodeOwnerReview ? input.codeOwners : null;
  if (waiting) {
    const owners = [...new Set(waiting.flatMap((w) => w.owners))];
    out.push({
      kind: "codeOwners",
      satisfied: waiting.length === 0,
      message:
        waiting.length === 0
          ? "code owners approved"
          : `Code owner review required from ${owners.map((o) => `@${o}`).join(", ")} (${plural(waiting.length, "file")})`,
    });
  }
  if (rule.requireUpToDate) {
    const satisfied = input.behindBy === 0;
    out.push({
      kind: "upToDate",
      satisfied,
      message: satisfied
        ? `up to date with ${input.targetBranch}`
        : `the branch is ${plural(input.behindBy, "commit")} behind ${input.targetBranch}: update it first`,
    });
  }
  return out;
}

/** The unsatisfied requirements' messages joined for an error ("1 approving review required; Changes requested by alice"). */
export function describeUnmet(requirements: Requirement[]): string {
  return requirements
    .filter((r) => !r.satisfied)
    .map((r) => r.message)
    .join("; ");
}
