"use client";
/**
 * Settings → Branches (docs/ui.md "Repository settings"): the repository's branch protection
 * rules, most specific first, with Edit and Delete (confirmation), and Add rule — through
 * branchProtection.list / upsert / delete, and under each rule its recent admin bypasses
 * (branchProtection.bypasses). After a change the page's server data is refreshed.
 */
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC, errorMessage } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toast";
import { card, cx } from "@/components/ui/styles";
import { useRefresh } from "./use-refresh";
import { RowActions } from "./row-actions";
import { BranchRuleDialog, type BranchRule } from "./branch-rule-form";
import { BranchRuleBypasses } from "./branch-rule-bypasses";
import type { RuleBypasses } from "@/server/services/branch-protection/list-bypasses";

/** The rule's settings in a few words ("pull request, 1 approval, no force-push"). */
function summary(r: BranchRule): string {
  const parts: string[] = [];
  if (r.requirePullRequest) parts.push("pull request required");
  if (r.requiredApprovals) parts.push(`${r.requiredApprovals} approval${r.requiredApprovals === 1 ? "" : "s"}`);
  if (r.requiredStatusChecks.length) parts.push(`checks: ${r.requiredStatusChecks.join(", ")}`);
  if (r.requireUpToDate) parts.push("up to date");
  if (r.dismissStaleApprovals) parts.push("stale approvals dismissed");
  parts.push(r.allowForcePush ? "force-push allowed" : "no force-push");
  parts.push(r.allowDeletion ? "deletion allowed" : "no deletion");
  if (r.pushAllowlist.length) parts.push(`push: ${r.pushAllowlist.join(", ")}`);
  if (r.enforceAdmins) parts.push("admins included");
  return parts.join(" · ");
}

export function BranchRulesManager({
  repoId,
  repoPath,
  rules,
  bypasses,
}: {
  repoId: string;
  /** "owner/name", for links to pull requests */
  repoPath: string;
  rules: BranchRule[];
  /** branchProtection.bypasses: each rule's recent admin bypasses */
  bypasses: RuleBypasses[];
}) {
  const trpc = useTRPC();
  const remove = useMutation(trpc.branchProtection.delete.mutationOptions());
  const { refresh } = useRefresh();
  const [editing, setEditing] = useState<BranchRule | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<BranchRule | null>(null);

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync({ repoId, pattern: deleting.pattern });
      toast.success(`Rule "${deleting.pattern}" deleted`);
      setDeleting(null);
      refresh();
    } catch (err) {
      toast.error(`Could not delete "${deleting.pattern}": ${errorMessage(err)}`);
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground" data-testid="branch-rules-count">
          {rules.length} rule{rules.length === 1 ? "" : "s"}
        </p>
        <Button
          variant="primary"
          onClick={() => {
            setEditing(null);
            setDialogOpen(true);
          }}
          data-testid="new-branch-rule"
        >
          Add rule
        </Button>
      </div>
      {rules.length === 0 ? (
        <div className={cx(card, "px-6 py-10 text-center")} data-testid="no-branch-rules">
          <h3 className="font-semibold">No branch is protected</h3>
          <p className="mt-1 text-sm text-muted-foreground">
            Protect main to require pull requests and reviews, and to refuse force-pushes and deletion.
          </p>
        </div>
      ) : (
        <ul className={cx(card, "divide-y divide-border")} data-testid="branch-rules-list">
          {rules.map((r) => (
            <li
              key={r.id}
              className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3"
              data-testid="branch-rule-row"
              data-pattern={r.pattern}
            >
              <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-sm">{r.pattern}</code>
              <p className="min-w-0 flex-1 break-words text-sm text-muted-foreground">{summary(r)}</p>
              <div className="ml-auto flex items-center gap-1">
                <RowActions
                  noun="branch-rule"
                  name={r.pattern}
                  onEdit={() => {
                    setEditing(r);
                    setDialogOpen(true);
                  }}
                  onDelete={() => setDeleting(r)}
                />
              </div>
              <BranchRuleBypasses repoPath={repoPath} bypasses={bypasses.find((b) => b.pattern === r.pattern)?.bypasses ?? []} />
            </li>
          ))}
        </ul>
      )}
      <BranchRuleDialog
        repoId={repoId}
        rule={editing}
        open={dialogOpen}
        onOpenChange={setDialogOpen}
        onSaved={(saved, created) => {
          setDialogOpen(false);
          toast.success(created ? `Rule "${saved.pattern}" created` : `Rule "${saved.pattern}" saved`);
          refresh();
        }}
      />
      <ConfirmDialog
        open={!!deleting}
        title={`Delete the rule "${deleting?.pattern ?? ""}"?`}
        confirmLabel="Delete rule"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        The branches it matches are no longer protected by it (another matching rule may apply).
      </ConfirmDialog>
    </div>
  );
}
