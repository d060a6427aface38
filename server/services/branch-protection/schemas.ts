/**
 * Input schemas of branchProtection.* (docs/api.md "Branch protection") and the rule as the API
 * returns it. Bounds: pattern ≤ 255 characters (pattern.ts `patternProblem`), requiredApprovals
 * 0–10, at most 50 required status contexts of ≤ 255 characters, at most 100 allowlisted users.
 */
import { z } from "zod";
import { line } from "@/server/validation/strings";
import { patternProblem } from "./pattern";

export const MAX_STATUS_CHECKS = 50;
export const MAX_ALLOWLIST = 100;

export const patternField = line("pattern").superRefine((p, ctx) => {
  const problem = patternProblem(p);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

const flag = (field: string) => z.boolean({ error: `${field} must be a boolean` }).optional();

export const upsertRuleInput = z.object({
  pattern: patternField,
  requirePullRequest: flag("requirePullRequest"),
  requiredApprovals: z
    .number({ error: "requiredApprovals must be a number" })
    .int("requiredApprovals must be an integer")
    .min(0, "requiredApprovals is between 0 and 10")
    .max(10, "requiredApprovals is between 0 and 10")
    .optional(),
  dismissStaleApprovals: flag("dismissStaleApprovals"),
  requireCodeOwnerReview: flag("requireCodeOwnerReview"),
  requiredStatusChecks: z
    .array(
      line("requiredStatusChecks[]").min(1, "a status context cannot be empty").max(255, "a status context is at most 255 characters"),
      {
        error: "requiredStatusChecks must be an array of strings",
      },
    )
    .max(MAX_STATUS_CHECKS, `at most ${MAX_STATUS_CHECKS} required status checks`)
    .optional(),
  requireUpToDate: flag("requireUpToDate"),
  allowForcePush: flag("allowForcePush"),
  allowDeletion: flag("allowDeletion"),
  pushAllowlist: z
    .array(line("pushAllowlist[]").min(1, "a username cannot be empty").max(100, "a username is at most 100 characters"), {
      error: "pushAllowlist must be an array of usernames",
    })
    .max(MAX_ALLOWLIST, `at most ${MAX_ALLOWLIST} users in the push allowlist`)
    .optional(),
  enforceAdmins: flag("enforceAdmins"),
});
export type UpsertRuleInput = z.input<typeof upsertRuleInput>;

export const ruleByPatternInput = z.object({ pattern: patternField });

/** A rule as branchProtection.* return it (pushAllowlist as usernames; unknown users left out). */
export interface ProtectionRuleView {
  id: string;
  pattern: string;
  requirePullRequest: boolean;
  requiredApprovals: number;
  dismissStaleApprovals: boolean;
  requireCodeOwnerReview: boolean;
  requiredStatusChecks: string[];
  requireUpToDate: boolean;
  allowForcePush: boolean;
  allowDeletion: boolean;
  pushAllowlist: string[];
  enforceAdmins: boolean;
  createdAt: string;
  updatedAt: string;
}
