"use client";
/**
 * The issue page, composed of its parts: header (./issue-header.tsx), description and timeline
 * (./issue-timeline.tsx), comment form (./comment-form.tsx) and sidebar (./issue-sidebar.tsx).
 * Properties (status, priority, labels, assignee, due date, estimate) change optimistically with
 * rollback and an error toast (./use-optimistic-issue.ts); other changes (title, body, comments,
 * relations) call the tRPC client, show a server error above the page, and refresh the
 * server-rendered data (router.refresh), so the page shows what the server stored.
 */
import Link from "next/link";
import { FormError } from "@/components/ui/form-error";
import { button, cx } from "@/components/ui/styles";
import { CommentBox } from "./comment-form";
import { TitleBlock } from "./issue-header";
import { Sidebar } from "./issue-sidebar";
import { BodyBlock, Timeline } from "./issue-timeline";
import { issueUrl, type Activity, type Comment, type Issue, type IssueDetail, type Label } from "./model";
import { useRunner, type Assignee, type Me, type RepoRef, type Titles } from "./issue-shared";
import { useOptimisticIssue } from "./use-optimistic-issue";
import type { CycleRef, ProjectRef } from "./plan-pickers";

/** The whole issue page for server-rendered `issue`, `comments`, `activity`…; `canWrite` turns the controls on. */
export function IssueView({
  repo,
  issue: serverIssue,
  comments,
  activity,
  subIssues,
  labels,
  titles,
  me,
  canWrite,
  assignees = [],
  projects = [],
  cycles = [],
}: {
  repo: RepoRef;
  issue: IssueDetail;
  comments: Comment[];
  activity: Activity[];
  subIssues: Issue[];
  labels: Label[];
  titles: Titles;
  me: Me;
  canWrite: boolean;
  assignees?: Assignee[];
  projects?: ProjectRef[];
  cycles?: CycleRef[];
}) {
  const { run, error, busy, clearError } = useRunner();
  const { view: issue, change } = useOptimisticIssue(serverIssue);
  const n = issue.number;

  return (
    <div data-testid="issue-page" data-number={n}>
      <TitleBlock repo={repo} issue={issue} canWrite={canWrite} run={run} commentCount={comments.length} />
      {error && (
        <div className="mt-4 flex items-start gap-2" data-testid="issue-error">
          <div className="flex-1">
            <FormError message={error} />
          </div>
          <button type="button" className={cx(button.ghost, "px-2!")} onClick={clearError} aria-label="Dismiss">
            ×
          </button>
        </div>
      )}
      {/* minmax(0,1fr): a long word or title may not widen the page past the viewport;
          on phones the properties (status, priority, assignee…) come first, near the title */}
      <div className="mt-6 grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="order-2 min-w-0 space-y-5 lg:order-1">
          <BodyBlock repo={repo} issue={issue} canWrite={canWrite} run={run} people={assignees} />
          <Timeline
            repo={repo}
            issue={issue}
            comments={comments}
            activity={activity}
            me={me}
            canWrite={canWrite}
            run={run}
            assignees={assignees}
          />
          {me ? (
            <CommentBox repo={repo} issue={issue} canWrite={canWrite} run={run} busy={busy} people={assignees} />
          ) : (
            <p className="rounded-md border border-border bg-card px-4 py-3 text-sm text-muted-foreground">
              <Link
                href={`/signin?callbackUrl=${encodeURIComponent(issueUrl(repo.owner, repo.name, n))}`}
                className="font-medium text-primary hover:underline"
              >
                Sign in
              </Link>{" "}
              to comment.
            </p>
          )}
        </div>
        <Sidebar
          repo={repo}
          issue={issue}
          subIssues={subIssues}
          labels={labels}
          titles={titles}
          me={me}
          canWrite={canWrite}
          run={run}
          change={change}
          assignees={assignees}
          projects={projects}
          cycles={cycles}
        />
      </div>
    </div>
  );
}
