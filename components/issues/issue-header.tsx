"use client";
/**
 * The issue page's header: the title (writers edit it in place), state and status badges, who
 * opened it and when, the comment count and the parent link.
 */
import { useState } from "react";
import Link from "next/link";
import { useTRPCClient } from "@/components/trpc/provider";
import { button, cx, input } from "@/components/ui/styles";
import { issueUrl, type IssueDetail } from "./model";
import { StateBadge, StatusBadge, TimeAgo } from "./ui";
import type { RepoRef, Run } from "./issue-shared";

/** Title block; `issue` is the optimistic view (the status badge follows a pick at once). */
export function TitleBlock({
  repo,
  issue,
  canWrite,
  run,
  commentCount,
}: {
  repo: RepoRef;
  issue: IssueDetail;
  canWrite: boolean;
  run: Run;
  commentCount: number;
}) {
  const client = useTRPCClient();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(issue.title);
  return (
    <div className="border-b border-border pb-4">
      {editing ? (
        <form
          method="post"
          className="flex flex-wrap items-center gap-2"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!title.trim()) return;
            await run(
              () => client.issues.update.mutate({ issueId: issue.id, title: title.trim() }),
              () => setEditing(false),
            );
          }}
        >
          <input
            className={cx(input, "min-w-0 flex-1 text-lg!")}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            maxLength={256}
            autoFocus
            aria-label="Title"
            data-testid="title-input"
          />
          <button type="submit" className={button.primary} disabled={!title.trim()} data-testid="title-save">
            Save
          </button>
          <button type="button" className={button.ghost} onClick={() => (setEditing(false), setTitle(issue.title))}>
            Cancel
          </button>
        </form>
      ) : (
        <div className="flex flex-wrap items-start gap-3">
          <h1 className="min-w-0 flex-1 text-2xl font-semibold text-foreground [overflow-wrap:anywhere]">
            <span data-testid="issue-title-text">{issue.title}</span>{" "}
            <span className="font-normal text-subtle-foreground">#{issue.number}</span>
          </h1>
          {canWrite && (
            <button type="button" className={button.secondary} onClick={() => setEditing(true)} data-testid="edit-title">
              Edit
            </button>
          )}
        </div>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <StateBadge state={issue.state} status={issue.status} />
        <StatusBadge status={issue.status} />
        <span>
          <strong className="font-medium text-foreground">{issue.author?.username ?? "someone"}</strong> opened this issue{" "}
          <TimeAgo iso={issue.createdAt} /> · {commentCount} comment{commentCount === 1 ? "" : "s"}
        </span>
        {issue.parentNumber !== null && (
          <span>
            · sub-issue of{" "}
            <Link href={issueUrl(repo.owner, repo.name, issue.parentNumber)} className="text-primary underline underline-offset-2">
              #{issue.parentNumber}
            </Link>
          </span>
        )}
      </div>
    </div>
  );
}
