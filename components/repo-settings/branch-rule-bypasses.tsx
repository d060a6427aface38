/**
 * Under a branch protection rule on Settings → Branches (docs/ui.md "Repository settings"): its
 * recent admin bypasses (branchProtection.bypasses, newest 20): who, when, a push or a merge,
 * what was passed over, and the merged pull request.
 */
import Link from "next/link";
import type { BypassView } from "@/server/services/branch-protection/list-bypasses";
import { fullDate, relativeTime } from "@/components/ui/format";

/** How a bypassed requirement (a merge) or rule (a push: check-updates.ts breaches) reads. */
const NAMES: Record<string, string> = {
  approvals: "required reviews",
  codeOwners: "code owner review",
  status: "required checks",
  upToDate: "up to date",
  requirePullRequest: "pull request required",
  allowForcePush: "no force-push",
  allowDeletion: "no deletion",
  pushAllowlist: "push allowlist",
};

export function BranchRuleBypasses({ repoPath, bypasses }: { repoPath: string; bypasses: BypassView[] }) {
  if (bypasses.length === 0) return null;
  return (
    <details className="w-full text-sm" data-testid="branch-rule-bypasses">
      <summary className="cursor-pointer text-muted-foreground">
        {bypasses.length} recent bypass{bypasses.length === 1 ? "" : "es"} by admins
      </summary>
      <ul className="mt-2 space-y-1">
        {bypasses.map((b) => (
          <li key={b.id} data-testid="branch-rule-bypass" data-kind={b.kind} className="text-muted-foreground">
            <span className="font-medium text-foreground">{b.user?.username ?? "someone"}</span> {b.kind === "merge" ? "merged" : "pushed"}{" "}
            {b.pull ? (
              <Link href={`/${repoPath}/pulls/${b.pull.number}`} className="text-primary hover:underline">
                #{b.pull.number}
              </Link>
            ) : (
              <code className="font-mono text-xs">{b.ref.replace(/^refs\/heads\//, "")}</code>
            )}{" "}
            past: {b.rules.map((r) => NAMES[r] ?? r).join(", ") || "the rule"} ·{" "}
            <span title={fullDate(b.createdAt)}>{relativeTime(b.createdAt)}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
