"use client";
/**
 * The issue page: title (editable by writers), state and status badges, Markdown body, timeline
 * (activity entries as sentences merged with comments), comment box with close/reopen, and the
 * sidebar (status, priority, labels, assignee, due date, estimate, parent, sub-issues, relations,
 * mark as duplicate). Every change calls the tRPC client and then refreshes the server-rendered
 * data (router.refresh), so the page always shows what the server stored.
 */
import { useEffect, useState, useTransition } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTRPCClient, errorMessage } from "@/components/trpc/provider";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError } from "@/components/ui/form-error";
import { button, card, cx, input } from "@/components/ui/styles";
import { MarkdownEditor } from "./markdown-editor";
import { IssueMarkdown } from "./markdown";
import { LabelPicker, MenuItem, OptionPicker, Popover, labelColorFor } from "./pickers";
import {
  PRIORITIES, STATUSES, eventSentence, issueUrl, timelineEvents, type Activity, type TimelineEvent, type Comment, type Issue, type IssueDetail, type Label,
} from "./model";
import {
  Avatar, CommentIcon, DueDate, IssueClosedIcon, IssueOpenedIcon, LabelChip, PriorityIcon, ProgressBar, StateBadge, StatusBadge, StatusIcon, TimeAgo, priorityLabel, statusLabel,
} from "./ui";

type RepoRef = { id: string; owner: string; name: string };
type Me = { id: string; username: string } | null;
type Assignee = { id: string; username: string; name: string | null };
type Run = (fn: () => Promise<unknown>, after?: () => void) => Promise<boolean>;
type Titles = Record<number, { title: string; status: string }>;

/** Runs a mutation, shows its error, refreshes the server data on success. */
function useRunner() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [, startTransition] = useTransition();
  const run: Run = async (fn, after) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      after?.();
      startTransition(() => router.refresh());
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { run, error, busy, clearError: () => setError(null) };
}

export function IssueView({
  repo, issue, comments, activity, subIssues, labels, titles, me, canWrite, assignees = [],
}: { repo: RepoRef; issue: IssueDetail; comments: Comment[]; activity: Activity[]; subIssues: Issue[]; labels: Label[]; titles: Titles; me: Me; canWrite: boolean; assignees?: Assignee[] }) {
  const client = useTRPCClient();
  const { run, error, busy, clearError } = useRunner();
  const n = issue.number;
  const base = { repoId: repo.id, number: n };

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
      {/* minmax(0,1fr): a long word or title may not widen the page past the viewport (issue #7);
          on phones the properties (status, priority, assignee…) come first, near the title */}
      <div className="mt-6 grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="order-2 min-w-0 space-y-5 lg:order-1">
          <BodyBlock issue={issue} canWrite={canWrite} run={run} />
          <Timeline repo={repo} issue={issue} comments={comments} activity={activity} me={me} canWrite={canWrite} run={run} assignees={assignees} />
          {me ? (
            <CommentBox issue={issue} canWrite={canWrite} run={run} busy={busy} base={base} />
          ) : (
            <p className="rounded-md border border-slate-200 bg-white px-4 py-3 text-sm text-slate-600">
              <Link href={`/signin?callbackUrl=${encodeURIComponent(issueUrl(repo.owner, repo.name, n))}`} className="font-medium text-emerald-700 hover:underline">
                Sign in
              </Link>{" "}
              to comment.
            </p>
          )}
        </div>
        <Sidebar repo={repo} issue={issue} subIssues={subIssues} labels={labels} titles={titles} me={me} canWrite={canWrite} run={run} client={client} assignees={assignees} />
      </div>
    </div>
  );
}

function TitleBlock({ repo, issue, canWrite, run, commentCount }: { repo: RepoRef; issue: IssueDetail; canWrite: boolean; run: Run; commentCount: number }) {
  const client = useTRPCClient();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(issue.title);
  return (
    <div className="border-b border-slate-200 pb-4">
      {editing ? (
        <form
          method="post"
          className="flex flex-wrap items-center gap-2"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!title.trim()) return;
            await run(() => client.issues.update.mutate({ issueId: issue.id, title: title.trim() }), () => setEditing(false));
          }}
        >
          <input className={cx(input, "min-w-0 flex-1 text-lg!")} value={title} onChange={(e) => setTitle(e.target.value)} maxLength={256} autoFocus aria-label="Title" data-testid="title-input" />
          <button type="submit" className={button.primary} disabled={!title.trim()} data-testid="title-save">
            Save
          </button>
          <button type="button" className={button.ghost} onClick={() => (setEditing(false), setTitle(issue.title))}>
            Cancel
          </button>
        </form>
      ) : (
        <div className="flex flex-wrap items-start gap-3">
          <h1 className="min-w-0 flex-1 text-2xl font-semibold text-slate-900 [overflow-wrap:anywhere]">
            <span data-testid="issue-title-text">{issue.title}</span> <span className="font-normal text-slate-400">#{issue.number}</span>
          </h1>
          {canWrite && (
            <button type="button" className={button.secondary} onClick={() => setEditing(true)} data-testid="edit-title">
              Edit
            </button>
          )}
        </div>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm text-slate-600">
        <StateBadge state={issue.state} status={issue.status} />
        <StatusBadge status={issue.status} />
        <span>
          <strong className="font-medium text-slate-800">{issue.author?.username ?? "someone"}</strong> opened this issue{" "}
          <TimeAgo iso={issue.createdAt} /> · {commentCount} comment{commentCount === 1 ? "" : "s"}
        </span>
        {issue.parentNumber !== null && (
          <span>
            · sub-issue of{" "}
            <Link href={issueUrl(repo.owner, repo.name, issue.parentNumber)} className="text-emerald-700 hover:underline">
              #{issue.parentNumber}
            </Link>
          </span>
        )}
      </div>
    </div>
  );
}

function BodyBlock({ issue, canWrite, run }: { issue: IssueDetail; canWrite: boolean; run: Run }) {
  const client = useTRPCClient();
  const [editing, setEditing] = useState(false);
  const [body, setBody] = useState(issue.body ?? "");
  return (
    <div className={card} data-testid="issue-body">
      <div className="flex items-center gap-2 border-b border-slate-200 bg-slate-50 px-4 py-2 text-sm">
        {issue.author && <Avatar username={issue.author.username} />}
        <strong className="font-medium text-slate-800">{issue.author?.username ?? "someone"}</strong>
        <span className="text-slate-500">
          <TimeAgo iso={issue.createdAt} />
        </span>
        {canWrite && !editing && (
          <button type="button" className="ml-auto text-xs text-slate-500 hover:text-emerald-700" onClick={() => (setBody(issue.body ?? ""), setEditing(true))} data-testid="edit-body">
            Edit
          </button>
        )}
      </div>
      <div className="px-4 py-3">
        {editing ? (
          <form
            method="post"
            className="space-y-2"
            onSubmit={async (e) => {
              e.preventDefault();
              await run(() => client.issues.update.mutate({ issueId: issue.id, body }), () => setEditing(false));
            }}
          >
            <MarkdownEditor value={body} onChange={setBody} label="Description" testId="body-input" autoFocus />
            <div className="flex justify-end gap-2">
              <button type="button" className={button.ghost} onClick={() => setEditing(false)}>
                Cancel
              </button>
              <button type="submit" className={button.primary} data-testid="body-save">
                Save
              </button>
            </div>
          </form>
        ) : issue.body?.trim() ? (
          <IssueMarkdown source={issue.body} testId="issue-body-markdown" />
        ) : (
          <p className="text-sm italic text-slate-500">No description provided.</p>
        )}
      </div>
    </div>
  );
}

type TimelineItem = { kind: "comment"; at: string; key: string; comment: Comment } | { kind: "event"; at: string; key: string; event: TimelineEvent };

function Timeline({ repo, issue, comments, activity, me, canWrite, run, assignees }: { repo: RepoRef; issue: IssueDetail; comments: Comment[]; activity: Activity[]; me: Me; canWrite: boolean; run: Run; assignees: Assignee[] }) {
  // names for the user ids in activity values (assigned/unassigned store ids)
  const users: Record<string, string> = {};
  for (const u of [...assignees, issue.author, issue.assignee, me, ...comments.map((c) => c.author), ...activity.map((a) => a.actor)]) if (u) users[u.id] = u.username;
  const items: TimelineItem[] = [
    ...timelineEvents(activity).map((event) => ({ kind: "event" as const, at: event.entry.createdAt, key: `a${event.entry.id}`, event })),
    ...comments.map((comment) => ({ kind: "comment" as const, at: comment.createdAt, key: `c${comment.id}`, comment })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return (
    <ol className="relative space-y-3 border-l-2 border-slate-200 pl-5 ml-3" data-testid="timeline">
      {items.map((item) =>
        item.kind === "comment" ? (
          <li key={item.key} className="-ml-9">
            <CommentCard comment={item.comment} me={me} canWrite={canWrite} run={run} />
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
  // link "#12" mentions
  const parts = s.text.split(/(#\d+)/g);
  return (
    <li className="relative flex items-center gap-2 text-sm text-slate-600" data-testid="activity-entry" data-action={entry.action}>
      <span className="absolute -left-[1.95rem] flex h-5 w-5 items-center justify-center rounded-full border border-slate-200 bg-white">
        {closed ? (
          entry.newValue === "closed" ? <IssueClosedIcon className="h-3! w-3! text-violet-600" /> : <IssueOpenedIcon className="h-3! w-3! text-emerald-600" />
        ) : entry.action === "status_changed" ? (
          <StatusIcon status={entry.newValue ?? "backlog"} className="h-3! w-3!" />
        ) : entry.action === "priority_changed" ? (
          <PriorityIcon priority={entry.newValue ?? "none"} className="h-3! w-3!" />
        ) : (
          <span className="h-1.5 w-1.5 rounded-full bg-slate-400" />
        )}
      </span>
      <span className="min-w-0">
        <strong className="font-medium text-slate-800">{s.actor}</strong>{" "}
        <span data-testid="activity-text">
          {parts.map((p, i) =>
            /^#\d+$/.test(p) ? (
              <Link key={i} href={issueUrl(repo.owner, repo.name, Number(p.slice(1)))} className="text-emerald-700 hover:underline">
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

function CommentCard({ comment, me, canWrite, run }: { comment: Comment; me: Me; canWrite: boolean; run: Run }) {
  const client = useTRPCClient();
  const [editing, setEditing] = useState(false);
  const [body, setBody] = useState(comment.body);
  const [confirming, setConfirming] = useState(false);
  const own = !!me && comment.authorId === me.id;
  const edited = comment.updatedAt !== comment.createdAt;
  return (
    <div className={card} data-testid="comment" data-comment-id={comment.id}>
      <div className="flex items-center gap-2 border-b border-slate-200 bg-slate-50 px-4 py-2 text-sm">
        {comment.author ? <Avatar username={comment.author.username} /> : <CommentIcon className="text-slate-400" />}
        <strong className="font-medium text-slate-800">{comment.author?.username ?? "someone"}</strong>
        <span className="text-slate-500">
          commented <TimeAgo iso={comment.createdAt} />
          {edited && " · edited"}
        </span>
        {!editing && (own || canWrite) && (
          <span className="ml-auto flex gap-3 text-xs">
            {own && (
              <button type="button" className="text-slate-500 hover:text-emerald-700" onClick={() => (setBody(comment.body), setEditing(true))} data-testid="edit-comment">
                Edit
              </button>
            )}
            <button type="button" className="text-slate-500 hover:text-red-700" onClick={() => setConfirming(true)} data-testid="delete-comment">
              Delete
            </button>
          </span>
        )}
      </div>
      <div className="px-4 py-3">
        {editing ? (
          <form
            method="post"
            className="space-y-2"
            onSubmit={async (e) => {
              e.preventDefault();
              if (body.trim()) await run(() => client.issues.updateComment.mutate({ commentId: comment.id, body }), () => setEditing(false));
            }}
          >
            <MarkdownEditor value={body} onChange={setBody} label="Comment" testId="comment-edit-input" rows={4} autoFocus />
            <div className="flex justify-end gap-2">
              <button type="button" className={button.ghost} onClick={() => setEditing(false)}>
                Cancel
              </button>
              <button type="submit" className={button.primary} disabled={!body.trim()} data-testid="comment-edit-save">
                Update comment
              </button>
            </div>
          </form>
        ) : (
          <IssueMarkdown source={comment.body} testId="comment-body" />
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

function CommentBox({ issue, canWrite, run, busy, base }: { issue: IssueDetail; canWrite: boolean; run: Run; busy: boolean; base: { repoId: string; number: number } }) {
  const client = useTRPCClient();
  const [body, setBody] = useState("");
  const open = issue.state === "open";
  const submit = async (andToggle: boolean) => {
    const text = body.trim();
    await run(
      async () => {
        if (text) await client.issues.addComment.mutate({ ...base, body: text });
        if (andToggle) await (open ? client.issues.close.mutate(base) : client.issues.reopen.mutate(base));
      },
      () => setBody(""),
    );
  };
  return (
    <form
      method="post"
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (body.trim()) void submit(false);
      }}
      data-testid="comment-form"
    >
      <MarkdownEditor value={body} onChange={setBody} label="Comment" placeholder="Leave a comment" testId="comment-input" rows={4} />
      <div className="flex flex-wrap justify-end gap-2">
        {canWrite && (
          <button type="button" className={button.secondary} disabled={busy} onClick={() => void submit(true)} data-testid={open ? "close-issue" : "reopen-issue"}>
            {open ? <IssueClosedIcon className="text-violet-600" /> : <IssueOpenedIcon className="text-emerald-600" />}
            {open ? (body.trim() ? "Close with comment" : "Close issue") : body.trim() ? "Reopen with comment" : "Reopen issue"}
          </button>
        )}
        <button type="submit" className={button.primary} disabled={busy || !body.trim()} data-testid="comment-submit">
          Comment
        </button>
      </div>
    </form>
  );
}

// ---- sidebar ----

function Section({ title, children, testId, action }: { title: string; children: React.ReactNode; testId?: string; action?: React.ReactNode }) {
  return (
    <section className="border-b border-slate-200 pb-3" data-testid={testId}>
      <div className="mb-1 flex items-center justify-between">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}

function Sidebar({
  repo, issue, subIssues, labels, titles, me, canWrite, run, client, assignees,
}: { repo: RepoRef; issue: IssueDetail; subIssues: Issue[]; labels: Label[]; titles: Titles; me: Me; canWrite: boolean; run: Run; client: ReturnType<typeof useTRPCClient>; assignees: Assignee[] }) {
  const base = { repoId: repo.id, number: issue.number };
  const [due, setDue] = useState(issue.dueDate ?? "");
  const [estimate, setEstimate] = useState(issue.estimate === null ? "" : String(issue.estimate));
  // label checkboxes follow the click at once; the server's answer (after refresh) wins
  const serverLabels = issue.labels.map((l) => l.id).join(",");
  const [selectedLabels, setSelectedLabels] = useState<string[]>(() => issue.labels.map((l) => l.id));
  useEffect(() => setSelectedLabels(serverLabels ? serverLabels.split(",") : []), [serverLabels]);
  return (
    <aside className="order-1 min-w-0 space-y-3 text-sm lg:order-2" data-testid="issue-sidebar">
      <Section title="Status" testId="sidebar-status">
        <OptionPicker
          name="status"
          options={STATUSES}
          value={issue.status}
          icon={(key) => <StatusIcon status={key} />}
          disabled={!canWrite}
          onPick={(status) => void run(() => client.issues.updateStatus.mutate({ ...base, status }))}
        />
      </Section>
      <Section title="Priority" testId="sidebar-priority">
        <OptionPicker
          name="priority"
          options={PRIORITIES}
          value={issue.priority}
          icon={(key) => <PriorityIcon priority={key} />}
          disabled={!canWrite}
          onPick={(priority) => void run(() => client.issues.updatePriority.mutate({ ...base, priority }))}
        />
      </Section>
      <Section title="Labels" testId="sidebar-labels">
        {canWrite ? (
          <LabelPicker
            labels={labels}
            selected={selectedLabels}
            testId="labels-picker"
            onCreate={async (name) => {
              await run(async () => {
                const label = await client.issues.createLabel.mutate({ repoId: repo.id, name, color: labelColorFor(name) });
                setSelectedLabels((ids) => [...ids, label.id]);
                await client.issues.addLabel.mutate({ ...base, labelId: label.id });
              });
            }}
            onToggle={(l, on) => {
              setSelectedLabels((ids) => (on ? [...ids, l.id] : ids.filter((x) => x !== l.id)));
              void run(() => (on ? client.issues.addLabel.mutate({ ...base, labelId: l.id }) : client.issues.removeLabel.mutate({ ...base, labelId: l.id }))).then(
                (ok) => ok || setSelectedLabels(serverLabels ? serverLabels.split(",") : []),
              );
            }}
          />
        ) : (
          <div className="flex flex-wrap gap-1 px-2 py-1">{issue.labels.length ? issue.labels.map((l) => <LabelChip key={l.id} label={l} />) : <span className="text-slate-500">None yet</span>}</div>
        )}
      </Section>
      <Section title="Assignee" testId="sidebar-assignee">
        <div className="flex items-center gap-2 px-2 py-1">
          {canWrite && assignees.length > 0 ? (
            <Popover
              testId="assignee-picker"
              trigger={issue.assignee ? (
                <>
                  <Avatar username={issue.assignee.username} /> <span data-testid="current-assignee">{issue.assignee.username}</span>
                </>
              ) : (
                <span className="text-slate-500" data-testid="current-assignee">No one</span>
              )}
            >
              {(close) => (
                <>
                  {assignees.map((u) => (
                    <MenuItem key={u.id} selected={u.id === issue.assigneeId} testId={`assignee-option-${u.username}`} onSelect={() => (close(), void run(() => client.issues.update.mutate({ issueId: issue.id, assigneeId: u.id })))}>
                      <Avatar username={u.username} /> {u.username}
                      {u.name && <span className="truncate text-xs text-slate-500">{u.name}</span>}
                    </MenuItem>
                  ))}
                  {issue.assignee && (
                    <MenuItem testId="assignee-option-none" onSelect={() => (close(), void run(() => client.issues.update.mutate({ issueId: issue.id, assigneeId: null })))}>
                      <span className="text-slate-500">Unassign</span>
                    </MenuItem>
                  )}
                </>
              )}
            </Popover>
          ) : issue.assignee ? (
            <>
              <Avatar username={issue.assignee.username} /> <span data-testid="current-assignee">{issue.assignee.username}</span>
            </>
          ) : (
            <span className="text-slate-500" data-testid="current-assignee">
              No one
            </span>
          )}
          {canWrite && me && (
            <span className="ml-auto">
              {issue.assigneeId === me.id ? (
                <button type="button" className="text-xs text-slate-500 hover:text-red-700" onClick={() => void run(() => client.issues.update.mutate({ issueId: issue.id, assigneeId: null }))} data-testid="unassign">
                  Unassign
                </button>
              ) : (
                <button type="button" className="text-xs text-emerald-700 hover:underline" onClick={() => void run(() => client.issues.update.mutate({ issueId: issue.id, assigneeId: me.id }))} data-testid="assign-me">
                  Assign to me
                </button>
              )}
            </span>
          )}
        </div>
      </Section>
      <Section title="Due date" testId="sidebar-due">
        {canWrite ? (
          <form
            method="post"
            className="flex items-center gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              void run(() => (due ? client.issues.setDueDate.mutate({ ...base, dueDate: due }) : client.issues.clearDueDate.mutate(base)));
            }}
          >
            <input type="date" className={cx(input, "py-1!")} value={due} onChange={(e) => setDue(e.target.value)} aria-label="Due date" data-testid="due-input" />
            <button type="submit" className={cx(button.secondary, "px-2! py-1!")} disabled={due === (issue.dueDate ?? "")} data-testid="due-save">
              Set
            </button>
          </form>
        ) : null}
        <div className="px-2 pt-1">{issue.dueDate ? <DueDate issue={issue} /> : !canWrite && <span className="text-slate-500">None</span>}</div>
      </Section>
      <Section title="Estimate" testId="sidebar-estimate">
        {canWrite ? (
          <form
            method="post"
            className="flex items-center gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              const v = estimate.trim();
              void run(() => (v === "" ? client.issues.clearEstimate.mutate(base) : client.issues.setEstimate.mutate({ ...base, estimate: Number(v) })));
            }}
          >
            <input type="number" min={0} step="any" className={cx(input, "py-1!")} value={estimate} onChange={(e) => setEstimate(e.target.value)} placeholder="Points" aria-label="Estimate" data-testid="estimate-input" />
            <button type="submit" className={cx(button.secondary, "px-2! py-1!")} disabled={estimate.trim() === (issue.estimate === null ? "" : String(issue.estimate))} data-testid="estimate-save">
              Set
            </button>
          </form>
        ) : (
          <div className="px-2">{issue.estimate === null ? <span className="text-slate-500">None</span> : `${issue.estimate} points`}</div>
        )}
      </Section>
      <ParentSection repo={repo} issue={issue} titles={titles} canWrite={canWrite} run={run} client={client} />
      <SubIssuesSection repo={repo} issue={issue} subIssues={subIssues} canWrite={canWrite} run={run} client={client} />
      <RelationsSection repo={repo} issue={issue} titles={titles} canWrite={canWrite} run={run} client={client} />
    </aside>
  );
}

type Client = ReturnType<typeof useTRPCClient>;

/** A compact "#number" input with a button; calls `onSubmit` with the number. */
function NumberForm({ placeholder, label, onSubmit, testId, children }: { placeholder: string; label: string; onSubmit: (n: number) => Promise<boolean>; testId: string; children?: React.ReactNode }) {
  const [value, setValue] = useState("");
  const n = Number(value.replace(/^#/, ""));
  const valid = Number.isInteger(n) && n > 0;
  return (
    <form
      method="post"
      className="mt-2 flex items-center gap-2"
      onSubmit={async (e) => {
        e.preventDefault();
        if (valid && (await onSubmit(n))) setValue("");
      }}
      data-testid={testId}
    >
      {children}
      <input className={cx(input, "w-20! py-1!")} value={value} onChange={(e) => setValue(e.target.value)} placeholder={placeholder} aria-label={label} inputMode="numeric" />
      <button type="submit" className={cx(button.secondary, "px-2! py-1!")} disabled={!valid}>
        Add
      </button>
    </form>
  );
}

/** "#12 Title" with the status icon, linking to the issue. */
function IssueRef({ repo, number, titles }: { repo: RepoRef; number: number; titles: Titles }) {
  const t = titles[number];
  return (
    <Link href={issueUrl(repo.owner, repo.name, number)} className="flex min-w-0 items-center gap-1.5 text-slate-800 hover:text-emerald-700" title={t?.title}>
      {t && <StatusIcon status={t.status} className="h-3.5! w-3.5!" />}
      <span className="shrink-0 text-slate-500">#{number}</span>
      {t && <span className="truncate">{t.title}</span>}
    </Link>
  );
}

function ParentSection({ repo, issue, titles, canWrite, run, client }: { repo: RepoRef; issue: IssueDetail; titles: Titles; canWrite: boolean; run: Run; client: Client }) {
  const base = { repoId: repo.id, number: issue.number };
  return (
    <Section title="Parent issue" testId="sidebar-parent">
      {issue.parentNumber !== null ? (
        <div className="flex items-center gap-2 px-2">
          <span className="min-w-0" data-testid="parent-link">
            <IssueRef repo={repo} number={issue.parentNumber} titles={titles} />
          </span>
          {canWrite && (
            <button type="button" className="ml-auto text-xs text-slate-500 hover:text-red-700" onClick={() => void run(() => client.issues.removeParent.mutate(base))} data-testid="remove-parent">
              Remove
            </button>
          )}
        </div>
      ) : canWrite ? (
        <NumberForm placeholder="#" label="Parent issue number" testId="set-parent" onSubmit={(parentNumber) => run(() => client.issues.setParent.mutate({ ...base, parentNumber }))} />
      ) : (
        <span className="px-2 text-slate-500">None</span>
      )}
    </Section>
  );
}

function SubIssuesSection({ repo, issue, subIssues, canWrite, run, client }: { repo: RepoRef; issue: IssueDetail; subIssues: Issue[]; canWrite: boolean; run: Run; client: Client }) {
  const [adding, setAdding] = useState(false);
  const [title, setTitle] = useState("");
  const done = subIssues.filter((s) => s.state === "closed").length;
  return (
    <Section
      title="Sub-issues"
      testId="sidebar-sub-issues"
      action={
        canWrite && !adding ? (
          <button type="button" className="text-xs text-emerald-700 hover:underline" onClick={() => setAdding(true)} data-testid="add-sub-issue">
            + Add sub-issue
          </button>
        ) : null
      }
    >
      {subIssues.length > 0 && (
        <div className="mb-2 space-y-1 px-2" data-testid="sub-issue-progress-bar">
          <div className="flex justify-between text-xs text-slate-500">
            <span>
              {done} of {subIssues.length} done
            </span>
            <span>{issue.subIssueProgress}%</span>
          </div>
          <ProgressBar percentage={issue.subIssueProgress} />
        </div>
      )}
      <ul className="space-y-1">
        {subIssues.map((s) => (
          <li key={s.id} className="flex items-center gap-2 px-2" data-testid="sub-issue">
            <StatusIcon status={s.status} />
            <Link href={issueUrl(repo.owner, repo.name, s.number)} className={cx("min-w-0 truncate hover:text-emerald-700", s.state === "closed" ? "text-slate-500 line-through" : "text-slate-800")}>
              {s.title}
            </Link>
            <span className="ml-auto text-xs text-slate-400">#{s.number}</span>
          </li>
        ))}
        {subIssues.length === 0 && !adding && <li className="px-2 text-slate-500">None</li>}
      </ul>
      {adding && (
        <form
          method="post"
          className="mt-2 space-y-2"
          onSubmit={async (e) => {
            e.preventDefault();
            if (title.trim()) await run(() => client.issues.createSubIssue.mutate({ repoId: repo.id, parentNumber: issue.number, title: title.trim() }), () => (setTitle(""), setAdding(false)));
          }}
        >
          <input className={cx(input, "py-1!")} value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Sub-issue title" aria-label="Sub-issue title" autoFocus data-testid="sub-issue-title" />
          <div className="flex justify-end gap-2">
            <button type="button" className={cx(button.ghost, "py-1!")} onClick={() => setAdding(false)}>
              Cancel
            </button>
            <button type="submit" className={cx(button.primary, "py-1!")} disabled={!title.trim()} data-testid="sub-issue-create">
              Create
            </button>
          </div>
        </form>
      )}
    </Section>
  );
}

type RelKind = "blocks" | "blocked_by" | "relates_to" | "duplicates";
const REL_KINDS: { key: RelKind; label: string }[] = [
  { key: "blocks", label: "Blocks" },
  { key: "blocked_by", label: "Blocked by" },
  { key: "relates_to", label: "Related to" },
  { key: "duplicates", label: "Duplicate of" },
];

function RelationsSection({ repo, issue, titles, canWrite, run, client }: { repo: RepoRef; issue: IssueDetail; titles: Titles; canWrite: boolean; run: Run; client: Client }) {
  const [kind, setKind] = useState<RelKind>("blocks");
  const [dupOpen, setDupOpen] = useState(false);
  const [canonical, setCanonical] = useState("");
  const me = issue.number;
  const r = issue.relations;
  const rel = (type: "blocks" | "relates_to" | "duplicates", sourceNumber: number, targetNumber: number) => ({ repoId: repo.id, type, sourceNumber, targetNumber });
  const groups: { label: string; numbers: number[]; remove: (n: number) => ReturnType<typeof rel>; testId: string }[] = [
    { label: "Blocks", numbers: r.blocking, remove: (n) => rel("blocks", me, n), testId: "rel-blocking" },
    { label: "Blocked by", numbers: r.blockedBy, remove: (n) => rel("blocks", n, me), testId: "rel-blocked-by" },
    { label: "Related to", numbers: r.related, remove: (n) => rel("relates_to", me, n), testId: "rel-related" },
    { label: "Duplicate of", numbers: r.duplicates, remove: (n) => rel("duplicates", me, n), testId: "rel-duplicates" },
    { label: "Duplicated by", numbers: r.duplicatedBy, remove: (n) => rel("duplicates", n, me), testId: "rel-duplicated-by" },
  ];
  const any = groups.some((g) => g.numbers.length > 0);
  const canonicalNumber = Number(canonical.replace(/^#/, ""));
  return (
    <Section title="Relations" testId="sidebar-relations">
      {!any && <p className="px-2 text-slate-500">None</p>}
      {groups
        .filter((g) => g.numbers.length > 0)
        .map((g) => (
          <div key={g.label} className="px-2 py-1" data-testid={g.testId}>
            <div className="text-xs text-slate-500">{g.label}</div>
            <ul className="mt-0.5 space-y-0.5">
              {g.numbers.map((n) => (
                <li key={n} className="flex min-w-0 items-center gap-1" data-testid="relation" data-number={n}>
                  <IssueRef repo={repo} number={n} titles={titles} />
                  {canWrite && (
                    <button type="button" className="ml-auto px-1 text-slate-400 hover:text-red-700" aria-label={`Remove ${g.label.toLowerCase()} #${n}`} onClick={() => void run(() => client.issues.removeRelation.mutate(g.remove(n)))} data-testid="remove-relation">
                      ×
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))}
      {canWrite && (
        <NumberForm
          placeholder="#"
          label="Related issue number"
          testId="add-relation"
          onSubmit={(n) =>
            run(() =>
              client.issues.addRelation.mutate(
                kind === "blocked_by" ? rel("blocks", n, me) : rel(kind === "blocks" ? "blocks" : kind === "relates_to" ? "relates_to" : "duplicates", me, n),
              ),
            )
          }
        >
          <select className={cx(input, "w-auto! py-1!")} value={kind} onChange={(e) => setKind(e.target.value as RelKind)} aria-label="Relation type" data-testid="relation-type">
            {REL_KINDS.map((k) => (
              <option key={k.key} value={k.key}>
                {k.label}
              </option>
            ))}
          </select>
        </NumberForm>
      )}
      {canWrite && issue.status !== "canceled" && (
        <div className="mt-3 px-2">
          <button type="button" className="text-xs text-slate-600 hover:text-red-700" onClick={() => setDupOpen(true)} data-testid="mark-duplicate">
            Mark as duplicate…
          </button>
          <ConfirmDialog
            open={dupOpen}
            title="Mark as duplicate"
            confirmLabel="Mark as duplicate"
            confirmDisabled={!(Number.isInteger(canonicalNumber) && canonicalNumber > 0)}
            onCancel={() => setDupOpen(false)}
            onConfirm={() => {
              setDupOpen(false);
              void run(() => client.issues.markAsDuplicate.mutate({ repoId: repo.id, duplicateNumber: me, canonicalNumber }), () => setCanonical(""));
            }}
          >
            <p className="mb-2">This issue will be closed as a duplicate (status Canceled) of:</p>
            <input className={input} value={canonical} onChange={(e) => setCanonical(e.target.value)} placeholder="Issue number, e.g. 12" aria-label="Original issue number" data-testid="canonical-input" />
          </ConfirmDialog>
        </div>
      )}
    </Section>
  );
}
