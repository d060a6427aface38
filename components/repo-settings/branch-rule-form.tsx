"use client";
/**
 * The rule dialog of Settings → Branches (docs/ui.md "Repository settings"): pattern, the rule's
 * checkboxes, required approvals (0–10), required status checks and push allowlist (comma or
 * space separated). Saves through branchProtection.upsert; editing a rule keeps its pattern
 * (a rule is keyed by it: delete and add to rename).
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FormError } from "@/components/ui/form-error";

export interface BranchRule {
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
}

type Flag =
  | "requirePullRequest"
  | "dismissStaleApprovals"
  | "requireCodeOwnerReview"
  | "requireUpToDate"
  | "allowForcePush"
  | "allowDeletion"
  | "enforceAdmins";

const FLAGS: { key: Flag; label: string; hint: string }[] = [
  { key: "requirePullRequest", label: "Require a pull request before merging", hint: "Direct pushes and svc's own commits are refused." },
  { key: "dismissStaleApprovals", label: "Dismiss stale approvals", hint: "A push that changes the diff dismisses earlier approvals." },
  { key: "requireUpToDate", label: "Require the branch to be up to date", hint: "The head must contain the target branch's tip." },
  { key: "requireCodeOwnerReview", label: "Require review from code owners", hint: "Each changed file's CODEOWNERS owners must approve." },
  { key: "allowForcePush", label: "Allow force-pushes", hint: "Non-fast-forward updates are refused unless checked." },
  { key: "allowDeletion", label: "Allow deletion", hint: "Deleting a matching branch is refused unless checked." },
  { key: "enforceAdmins", label: "Include administrators", hint: "Otherwise admins may bypass (recorded)." },
];

const splitList = (s: string) => s.split(/[\s,]+/).filter(Boolean);

export function BranchRuleDialog({
  repoId,
  rule,
  open,
  onOpenChange,
  onSaved,
}: {
  repoId: string;
  rule: BranchRule | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (rule: BranchRule, created: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && <Body repoId={repoId} rule={rule} onCancel={() => onOpenChange(false)} onSaved={onSaved} />}
    </Dialog>
  );
}

function Body({
  repoId,
  rule,
  onCancel,
  onSaved,
}: {
  repoId: string;
  rule: BranchRule | null;
  onCancel: () => void;
  onSaved: (rule: BranchRule, created: boolean) => void;
}) {
  const trpc = useTRPC();
  const upsert = useMutation(trpc.branchProtection.upsert.mutationOptions());
  const [pattern, setPattern] = useState(rule?.pattern ?? "");
  const [flags, setFlags] = useState<Record<Flag, boolean>>(() => ({
    requirePullRequest: rule?.requirePullRequest ?? true,
    dismissStaleApprovals: rule?.dismissStaleApprovals ?? false,
    requireCodeOwnerReview: rule?.requireCodeOwnerReview ?? false,
    requireUpToDate: rule?.requireUpToDate ?? false,
    allowForcePush: rule?.allowForcePush ?? false,
    allowDeletion: rule?.allowDeletion ?? false,
    enforceAdmins: rule?.enforceAdmins ?? false,
  }));
  const [approvals, setApprovals] = useState(String(rule?.requiredApprovals ?? 1));
  const [checks, setChecks] = useState((rule?.requiredStatusChecks ?? []).join(", "));
  const [allowlist, setAllowlist] = useState((rule?.pushAllowlist ?? []).join(", "));
  const [error, setError] = useState<string>();
  const n = Number(approvals);
  const approvalsError = !Number.isInteger(n) || n < 0 || n > 10 ? "A number from 0 to 10" : undefined;

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!pattern.trim() || approvalsError) return setError(approvalsError ?? "Pattern is required");
    try {
      const saved = await upsert.mutateAsync({
        repoId,
        pattern: pattern.trim(),
        ...flags,
        requiredApprovals: n,
        requiredStatusChecks: splitList(checks),
        pushAllowlist: splitList(allowlist),
      });
      onSaved(saved, !rule);
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <DialogContent
      title={rule ? `Edit rule ${rule.pattern}` : "Add branch protection rule"}
      description="The rule applies to every branch whose name matches the pattern, unless a more specific pattern matches it."
      testId="branch-rule-dialog"
    >
      <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
        <FormError message={error} />
        <Field label="Branch name pattern" hint="A name (main) or a glob: * within a path segment, ** across, ? one character." required>
          <Input
            value={pattern}
            maxLength={255}
            disabled={!!rule}
            onChange={(e) => setPattern(e.target.value)}
            autoFocus={!rule}
            data-testid="branch-rule-pattern"
          />
        </Field>
        <Field label="Required approving reviews" hint="From people with write access; 0 to 10." error={approvalsError}>
          <Input
            type="number"
            min={0}
            max={10}
            value={approvals}
            className="w-24!"
            onChange={(e) => setApprovals(e.target.value)}
            data-testid="branch-rule-approvals"
          />
        </Field>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Rules</legend>
          {FLAGS.map((f) => (
            <label key={f.key} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-0.5 accent-primary"
                checked={flags[f.key]}
                onChange={(e) => setFlags((s) => ({ ...s, [f.key]: e.target.checked }))}
                data-testid={`branch-rule-${f.key}`}
              />
              <span>
                {f.label}
                <span className="block text-xs text-subtle-foreground">{f.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <Field label="Required status checks" hint="Status contexts that must succeed on the head, separated by commas.">
          <Input value={checks} onChange={(e) => setChecks(e.target.value)} data-testid="branch-rule-checks" />
        </Field>
        <Field label="Push allowlist" hint="Usernames; when set, only they may push or merge. Separated by commas.">
          <Input value={allowlist} onChange={(e) => setAllowlist(e.target.value)} data-testid="branch-rule-allowlist" />
        </Field>
        <div className="flex justify-end gap-2 border-t border-border pt-4">
          <Button variant="secondary" onClick={onCancel} disabled={upsert.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={upsert.isPending} data-testid="branch-rule-save">
            {upsert.isPending ? "Saving…" : rule ? "Save changes" : "Create rule"}
          </Button>
        </div>
      </form>
    </DialogContent>
  );
}
