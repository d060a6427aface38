"use client";
/**
 * One proposed change (docs/agent.md "Proposed changes and approval"): its path and kind, a status
 * badge (pending, approved, rejected), its diff, Approve and Reject (with an optional reason, which
 * the agent reads in its next turn), and once approved the commit that applied it: "Commit <short
 * sha>" (the commit page) and "View file" (the file at that commit in the code browser). A failed
 * approval (the file changed since the proposal) leaves the change pending with the reason shown. A
 * proposed issue (type "issue", from the pm mode: `title`, `content` = body, `issueNumber` once
 * approved) shows its title and body instead of a diff, and links to the issue once created.
 */
import { useState } from "react";
import Link from "next/link";
import type { ProposedChangeView } from "@/server/services/agent/model";
import { useTRPCClient } from "@/components/trpc/provider";
import { useAction } from "@/components/trpc/use-action";
import { IssueMarkdown } from "@/components/issues/markdown";
import { codeUrl, commitUrl, repoUrl } from "@/components/code/urls";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { Textarea } from "@/components/ui/input";
import { card, cx } from "@/components/ui/styles";
import { ChangeDiff } from "./change-diff";

/** A change as the page knows it: the API's view, plus the fields of a proposed issue when the server has them. */
export type AgentChange = Omit<ProposedChangeView, "type"> & {
  type: ProposedChangeView["type"] | "issue";
  title?: string | null;
  issueNumber?: number | null;
};

const KIND: Record<AgentChange["type"], string> = { create: "New file", modify: "Edit", delete: "Delete", issue: "Issue" };
const TONE: Record<AgentChange["status"], BadgeTone> = { pending: "warning", approved: "primary", rejected: "danger" };

export function ChangeCard({
  change,
  repo,
  canWrite,
  onChanged,
}: {
  change: AgentChange;
  repo: { owner: string; name: string };
  canWrite: boolean;
  onChanged: () => void;
}) {
  const client = useTRPCClient();
  const action = useAction();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const pending = change.status === "pending";
  const isIssue = change.type === "issue";
  const heading = isIssue ? (change.title ?? change.path) : change.path;

  const approve = () =>
    action.run(async () => {
      setFailure(null);
      const r = await client.agent.approveChange.mutate({ changeId: change.id });
      if (!r.success) setFailure(r.message);
    }, onChanged);
  const reject = (e: React.FormEvent) => {
    e.preventDefault();
    void action.run(
      () => client.agent.rejectChange.mutate({ changeId: change.id, ...(reason.trim() ? { reason: reason.trim() } : {}) }),
      () => {
        setRejecting(false);
        onChanged();
      },
    );
  };

  return (
    <li
      id={`change-${change.id}`}
      className={cx(card, "scroll-mt-4 overflow-hidden")}
      data-testid="change-card"
      data-path={change.path}
      data-status={change.status}
      data-change-id={change.id}
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-border bg-muted px-3 py-2 text-sm">
        <Badge tone="neutral" data-testid="change-kind">
          {KIND[change.type]}
        </Badge>
        <span
          className={cx("min-w-0 flex-1 [overflow-wrap:anywhere]", isIssue ? "font-medium" : "font-mono text-xs font-medium")}
          data-testid="change-path"
        >
          {heading}
        </span>
        <Badge tone={TONE[change.status]} data-testid="change-status">
          {change.status === "pending" ? "Pending" : change.status === "approved" ? "Approved" : "Rejected"}
        </Badge>
      </div>
      {isIssue ? (
        <div className="px-3 py-2">
          {change.content ? (
            <IssueMarkdown source={change.content} repo={repo} testId="change-issue-body" />
          ) : (
            <p className="text-sm text-muted-foreground">No description.</p>
          )}
        </div>
      ) : (
        <ChangeDiff diff={change.diff} path={change.path} />
      )}
      <div className="space-y-2 border-t border-border px-3 py-2 text-sm">
        {change.status === "rejected" && change.reason && (
          <p className="text-muted-foreground" data-testid="change-reason">
            Rejected: {change.reason}
          </p>
        )}
        {pending && (failure ?? change.reason) && (
          <p className="text-danger" role="status" data-testid="change-failure">
            Not applied: {failure ?? change.reason}
          </p>
        )}
        {change.status === "approved" && (
          <div className="flex flex-wrap items-center gap-3" data-testid="change-applied">
            {isIssue && change.issueNumber ? (
              <Link
                href={`${repoUrl(repo.owner, repo.name)}/issues/${change.issueNumber}`}
                className="font-medium text-primary hover:underline"
                data-testid="change-issue-link"
              >
                Issue #{change.issueNumber}
              </Link>
            ) : null}
            {change.commitSha && (
              <Link
                href={commitUrl(repo.owner, repo.name, change.commitSha)}
                className="font-mono text-xs text-primary hover:underline"
                data-testid="change-commit-link"
              >
                Commit {change.commitSha.slice(0, 7)}
              </Link>
            )}
            {change.commitSha && !isIssue && change.type !== "delete" && (
              <Link
                href={codeUrl(repo.owner, repo.name, "blob", change.commitSha, change.path)}
                className="text-primary hover:underline"
                data-testid="change-view-file"
              >
                View file
              </Link>
            )}
          </div>
        )}
        {pending && canWrite && !rejecting && (
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="primary" onClick={() => void approve()} disabled={action.busy} data-testid="approve-change">
              Approve
            </Button>
            <Button size="sm" variant="dangerOutline" onClick={() => setRejecting(true)} disabled={action.busy} data-testid="reject-change">
              Reject
            </Button>
          </div>
        )}
        {pending && !canWrite && (
          <p className="text-xs text-muted-foreground">Approving commits to the repository: you need write permission.</p>
        )}
        {pending && rejecting && (
          <form onSubmit={reject} className="space-y-2" data-testid="reject-form">
            <Field label="Reason (optional)" hint="The agent reads it in its next turn.">
              <Textarea
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                rows={2}
                maxLength={2000}
                className="min-h-0"
                data-testid="reject-reason"
              />
            </Field>
            <div className="flex gap-2">
              <Button size="sm" type="submit" variant="danger" disabled={action.busy} data-testid="confirm-reject">
                Reject change
              </Button>
              <Button size="sm" onClick={() => setRejecting(false)} disabled={action.busy}>
                Cancel
              </Button>
            </div>
          </form>
        )}
        <FormError message={action.error} />
      </div>
    </li>
  );
}
