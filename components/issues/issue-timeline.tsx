"use client";
/**
 * The issue page's body and timeline: the description (writers edit it), activity entries as
 * sentences merged with comments oldest first, and comment cards (authors edit, writers delete).
 * Bodies render `#N` and `@user` as links; the editors offer `@` mentions of `people`.
 */
import { useState } from "react";
import Link from "next/link";
import { useTRPCClient } from "@/components/trpc/provider";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useDiscardConfirm } from "@/components/ui/discard-dialog";
import { button, card, cx } from "@/components/ui/styles";
import { MarkdownEditor } from "./markdown-editor";
import { IssueMarkdown } from "./markdown";
import { eventSentence, issueUrl, timelineEvents, type Activity, type Comment, type IssueDetail, type TimelineEvent } from "./model";
import { Avatar, CommentIcon, IssueClosedIcon, IssueOpenedIcon, PriorityIcon, StatusIcon, TimeAgo } from "./ui";
import type { Assignee, Me, RepoRef, Run } from "./issue-shared";

/** The description card; `people` are offered as `@` mentions while editing. */
export function BodyBlock({
  repo,
  issue,
  canWrite,
  run,
  people,
}: {
  repo: RepoRef;
  issue: IssueDetail;
  canWrite: boolean;
  run: Run;
  people: Assignee[];
}) {
  const client = useTRPCClient();
  const [editing, setEditing] = useState(false);
  const [body, setBody] = useState(issue.body ?? "");
  return (
    <div className={card} data-testid="issue-body">
      <div className="flex items-center gap-2 border-b border-border bg-muted px-4 py-2 text-sm">
        {issue.author && <Avatar username={issue.author.username} />}
        <strong className="font-medium text-foreground">{issue.author?.username ?? "someone"}</strong>
        <span className="text-subtle-foreground">
          <TimeAgo iso={issue.createdAt} />
        </span>
        {canWrite && !editing && (
          <button
            type="button"
            className="ml-auto text-xs text-subtle-foreground hover:text-primary"
            onClick={() => (setBody(issue.body ?? ""), setEditing(true))}
            data-testid="edit-body"
          >
            Edit
          </button>
        )}
      </div>
      <div className="px-4 py-3">
        {editing ? (
          <MarkdownEditForm
            value={body}
            initial={issue.body ?? ""}
            onChange={setBody}
            label="Description"
            testId="body-input"
            saveLabel="Save"
            saveTestId="body-save"
            people={people}
            repo={repo}
            onCancel={() => setEditing(false)}
            onSave={() =>
              run(
                () => client.issues.update.mutate({ issueId: issue.id, body }),
                () => setEditing(false),
              )
            }
          />
        ) : issue.body?.trim() ? (
          <IssueMarkdown source={issue.body} testId="issue-body-markdown" repo={repo} />
        ) : (
          <p className="text-sm italic text-subtle-foreground">No description provided.</p>
        )}
      </div>
    </div>
  );
}

/**
 * Editing Markdown in place (an issue's description, a comment): the editor with mentions, Cancel
 * and a save button. `required` keeps blank text from being saved (a comment cannot be empty;
 * a description can). Cancel asks first when `value` differs from `initial` (discard-dialog.tsx).
 */
function MarkdownEditForm({
  value,
  initial,
  onChange,
  label,
  testId,
  rows,
  required,
  saveLabel,
  saveTestId,
  people,
  repo,
  onCancel,
  onSave,
}: {
  value: string;
  initial: string;
  onChange: (value: string) => void;
  label: string;
  testId: string;
  rows?: number;
  required?: boolean;
  saveLabel: string;
  saveTestId: string;
  people: React.ComponentProps<typeof MarkdownEditor>["people"];
  repo: RepoRef;
  onCancel: () => void;
  onSave: () => Promise<unknown>;
}) {
  const blank = required && !value.trim();
  const { confirmDiscard, dialog } = useDiscardConfirm();
  return (
    <form
      method="post"
      className="space-y-2"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!blank) await onSave();
      }}
    >
      <MarkdownEditor value={value} onChange={onChange} label={label} testId={testId} rows={rows} autoFocus people={people} repo={repo} />
      <div className="flex justify-end gap-2">
        <button
          type="button"
          className={button.ghost}
          onClick={() => confirmDiscard(value, initial, onCancel)}
          data-testid={`${testId}-cancel`}
        >
          Cancel
        </button>
        <button type="submit" className={button.primary} disabled={blank} data-testid={saveTestId}>
          {saveLabel}
        </button>
      </div>
      {dialog}
    </form>
  );
}

type TimelineItem =
  { kind: "comment"; at: string; key: string; comment: Comment } | { kind: "event"; at: string; key: string; event: TimelineEvent };

/** Activity and comments, oldest first. */
export function Timeline({
  repo,
  issue,
  comments,
  activity,
  me,
  canWrite,
  run,
  assignees,
}: {
  repo: RepoRef;
  issue: IssueDetail;
  comments: Comment[];
  activity: Activity[];
  me: Me;
  canWrite: boolean;
  run: Run;
  assignees: Assignee[];
}) {
  // names for the user ids in activity values (assigned/unassigned store ids)
  const users: Record<string, string> = {};
  for (const u of [...assignees, issue.author, issue.assignee, me, ...comments.map((c) => c.author), ...activity.map((a) => a.actor)])
    if (u) users[u.id] = u.username;
  const items: TimelineItem[] = [
    ...timelineEvents(activity).map((event) => ({ kind: "event" as const, at: event.entry.createdAt, key: `a${event.entry.id}`, event })),
    ...comments.map((comment) => ({ kind: "comment" as const, at: comment.createdAt, key: `c${comment.id}`, comment })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return (
    <ol className="relative space-y-3 border-l-2 border-border pl-5 ml-3" data-testid="timeline">
      {items.map((item) =>
        item.kind === "comment" ? (
          <li key={item.key} className="-ml-9">
            <CommentCard repo={repo} comment={item.comment} me={me} canWrite={canWrite} run={run} people={assignees} />
          </li>
        ) : (
          <EventRow key={item.key} event={item.event} users={users} repo={repo} />
        ),
      )}
    </ol>
  );
}

function EventRow({ event, users, repo }: { event: TimelineEvent; users: Record<string, string>; repo: RepoRef }) {
  const { entry } = event;
  const s = eventSentence(event, users);
  if (!s) return null;
  const closed = entry.action === "status_changed" && entry.field === "state";
  // link "#12" mentions; project and cycle names are text (a "#2" in one is not an issue)
  const parts = entry.action === "project_set" || entry.action === "cycle_set" ? [s.text] : s.text.split(/(#\d+)/g);
  return (
    <li className="relative flex items-center gap-2 text-sm text-muted-foreground" data-testid="activity-entry" data-action={entry.action}>
      <span className="absolute -left-[1.95rem] flex h-5 w-5 items-center justify-center rounded-full border border-border bg-card">
        {closed ? (
          entry.newValue === "closed" ? (
            <IssueClosedIcon className="h-3! w-3! text-violet-600 dark:text-violet-400" />
          ) : (
            <IssueOpenedIcon className="h-3! w-3! text-primary" />
          )
        ) : entry.action === "status_changed" ? (
          <StatusIcon status={entry.newValue ?? "backlog"} className="h-3! w-3!" />
        ) : entry.action === "priority_changed" ? (
          <PriorityIcon priority={entry.newValue ?? "none"} className="h-3! w-3!" />
        ) : (
          <span className="h-1.5 w-1.5 rounded-full bg-subtle-foreground" />
        )}
      </span>
      <span className="min-w-0">
        <strong className="font-medium text-foreground">{s.actor}</strong>{" "}
        <span data-testid="activity-text">
          {parts.map((p, i) =>
            /^#\d+$/.test(p) ? (
              <Link
                key={i}
                href={issueUrl(repo.owner, repo.name, Number(p.slice(1)))}
                className="text-primary underline underline-offset-2"
              >
                {p}
              </Link>
            ) : (
              p
            ),
          )}
        </span>{" "}
        · <TimeAgo iso={entry.createdAt} />
      </span>
    </li>
  );
}

function CommentCard({
  repo,
  comment,
  me,
  canWrite,
  run,
  people,
}: {
  repo: RepoRef;
  comment: Comment;
  me: Me;
  canWrite: boolean;
  run: Run;
  people: Assignee[];
}) {
  const client = useTRPCClient();
  const [editing, setEditing] = useState(false);
  const [body, setBody] = useState(comment.body);
  const [confirming, setConfirming] = useState(false);
  const own = !!me && comment.authorId === me.id;
  const edited = comment.updatedAt !== comment.createdAt;
  return (
    <div id={`comment-${comment.id}`} className={cx(card, "scroll-mt-16")} data-testid="comment" data-comment-id={comment.id}>
      <div className="flex items-center gap-2 border-b border-border bg-muted px-4 py-2 text-sm">
        {comment.author ? <Avatar username={comment.author.username} /> : <CommentIcon className="text-subtle-foreground" />}
        <strong className="font-medium text-foreground">{comment.author?.username ?? "someone"}</strong>
        <span className="text-subtle-foreground">
          commented <TimeAgo iso={comment.createdAt} />
          {edited && " · edited"}
        </span>
        {!editing && (own || canWrite) && (
          <span className="ml-auto flex gap-3 text-xs">
            {own && (
              <button
                type="button"
                className="text-subtle-foreground hover:text-primary"
                onClick={() => (setBody(comment.body), setEditing(true))}
                data-testid="edit-comment"
              >
                Edit
              </button>
            )}
            <button
              type="button"
              className="text-subtle-foreground hover:text-danger"
              onClick={() => setConfirming(true)}
              data-testid="delete-comment"
            >
              Delete
            </button>
          </span>
        )}
      </div>
      <div className="px-4 py-3">
        {editing ? (
          <MarkdownEditForm
            value={body}
            initial={comment.body}
            onChange={setBody}
            label="Comment"
            testId="comment-edit-input"
            rows={4}
            required
            saveLabel="Update comment"
            saveTestId="comment-edit-save"
            people={people}
            repo={repo}
            onCancel={() => setEditing(false)}
            onSave={() =>
              run(
                () => client.issues.updateComment.mutate({ commentId: comment.id, body }),
                () => setEditing(false),
              )
            }
          />
        ) : (
          <IssueMarkdown source={comment.body} testId="comment-body" repo={repo} />
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title="Delete comment"
        confirmLabel="Delete"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void run(() => client.issues.deleteComment.mutate({ commentId: comment.id }));
        }}
      >
        <p>Delete this comment? This cannot be undone.</p>
      </ConfirmDialog>
    </div>
  );
}
