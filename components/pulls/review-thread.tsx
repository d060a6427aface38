"use client";
/**
 * A review thread (docs/pulls.md "Threads in the UI (both tabs)") — the ONE component both tabs
 * compose: the Files changed tab under a diff line (./review-threads.tsx LineSlot,
 * `context="line"`) and the Conversation tab's timeline (./conversation-timeline.tsx,
 * `context="file"`: the path is named and the thread's original diff hunk shown). The header names
 * the range with its "Outdated" / "Resolved" / "Pending" badges, Show / Hide and Resolve /
 * Unresolve; resolved and outdated threads start collapsed; then the comments
 * (./review-comment.tsx: edit, delete) and the reply box. A general comment (no path) is a thread
 * too: its comments with their menus, no header, no resolve, no reply box. Suggestions render
 * through `renderSuggestion` (the Files tab commits them; elsewhere a read-only preview).
 */
import { useState } from "react";
import { useTRPCClient } from "@/components/trpc/provider";
import { useAction } from "@/components/trpc/use-action";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useDiscardConfirm } from "@/components/ui/discard-dialog";
import { FormError } from "@/components/ui/form-error";
import { Textarea } from "@/components/ui/input";
import { useDraft } from "@/components/ui/use-draft";
import { cx } from "@/components/ui/styles";
import type { Thread, ThreadComment } from "./review-model";
import { ReviewCommentView, SuggestionPreview, type ThreadEnv } from "./review-comment";

export type { ThreadEnv };

/** "line 12" or "lines 10–12". */
export function threadRange(t: Pick<Thread, "startLine" | "line">): string {
  return t.startLine && t.startLine !== t.line ? `lines ${t.startLine}–${t.line}` : `line ${t.line}`;
}

export function ReviewThread({
  thread,
  env,
  context,
  renderSuggestion,
  defaultExpanded = false,
}: {
  thread: Thread;
  env: ThreadEnv;
  /** "line": under its line in the diff (the hunk only when outdated); "file": on its own (path and hunk shown). */
  context: "line" | "file";
  renderSuggestion?: (comment: ThreadComment) => React.ReactNode;
  /** Start a resolved or outdated thread expanded (it is collapsed otherwise). */
  defaultExpanded?: boolean;
}) {
  const client = useTRPCClient();
  const [expanded, setExpanded] = useState(defaultExpanded);
  const { busy, error, run } = useAction();
  const inline = thread.path !== null;
  const comments = [thread as ThreadComment, ...thread.replies];
  const collapsible = inline && (thread.isResolved || thread.isOutdated);
  const collapsed = collapsible && !expanded;
  const canResolve = inline && !!env.me && !thread.isPending && (env.canWrite || thread.author?.id === env.me.id);
  const range = threadRange(thread);
  const resolve = () =>
    run(
      async () => (
        await (thread.isResolved ? client.pulls.unresolveComment : client.pulls.resolveComment).mutate({ commentId: thread.id }),
        await env.refetch()
      ),
    );
  const hunk = inline && thread.diffHunk && (context === "file" || thread.isOutdated) ? thread.diffHunk : null;
  const label = inline ? `Thread on ${thread.path} ${range}` : `Comment by ${thread.author?.username ?? "ghost"}`;
  return (
    <section
      className="min-w-0 overflow-hidden rounded-md border border-border bg-background text-sm"
      data-testid="review-thread"
      data-resolved={thread.isResolved}
      data-outdated={thread.isOutdated}
      aria-label={label}
    >
      {inline && (
        <header className="flex min-w-0 flex-wrap items-center gap-2 border-b border-border bg-muted px-3 py-1.5 text-xs text-muted-foreground">
          {context === "file" && (
            <span className="min-w-0 max-w-full truncate font-mono text-foreground" data-testid="pull-thread-path">
              {thread.path}
            </span>
          )}
          <span className="shrink-0">{range}</span>
          {thread.revision !== null && (
            <span
              className="shrink-0"
              data-testid="thread-revision"
              title={thread.commitSha ? `Made on ${thread.commitSha.slice(0, 7)}` : undefined}
            >
              revision {thread.revision}
            </span>
          )}
          {thread.isOutdated && (
            <Badge tone="warning" data-testid="thread-outdated">
              Outdated
            </Badge>
          )}
          {thread.isResolved && (
            <Badge data-testid="thread-resolved">Resolved{thread.resolvedBy ? ` by ${thread.resolvedBy.username}` : ""}</Badge>
          )}
          {thread.isPending && (
            <Badge tone="warning" data-testid="comment-pending">
              Pending
            </Badge>
          )}
          {collapsed && (
            <span className="shrink-0" data-testid="thread-count">
              {comments.length} comment{comments.length === 1 ? "" : "s"}
            </span>
          )}
          <span className="ml-auto flex flex-wrap gap-2">
            {collapsible && (
              <Button
                size="sm"
                variant="ghost"
                aria-expanded={!collapsed}
                onClick={() => setExpanded((x) => !x)}
                data-testid="thread-toggle"
              >
                {collapsed ? "Show" : "Hide"}
              </Button>
            )}
            {canResolve && (
              <Button
                size="sm"
                disabled={busy}
                onClick={() => void resolve()}
                data-testid={thread.isResolved ? "thread-unresolve" : "thread-resolve"}
              >
                {thread.isResolved ? "Unresolve" : "Resolve conversation"}
              </Button>
            )}
          </span>
        </header>
      )}
      {!collapsed && (
        <>
          {hunk && <Hunk hunk={hunk} label={`Original diff of ${thread.path} at ${range}`} />}
          <div className="divide-y divide-border">
            {comments.map((c) => (
              <ReviewCommentView
                key={c.id}
                comment={c}
                thread={thread}
                env={env}
                suggestion={renderSuggestion ? renderSuggestion(c) : <SuggestionPreview comment={c} />}
              />
            ))}
            {inline && env.me && <ReplyBox thread={thread} env={env} />}
          </div>
        </>
      )}
      <FormError message={error} />
    </section>
  );
}

/**
 * A diff hunk as the thread saw it: +/− lines tinted, scrolling inside its box (never the page);
 * focusable, so keyboard users can scroll it too (axe: scrollable-region-focusable).
 */
export function Hunk({ hunk, label }: { hunk: string; label: string }) {
  return (
    <pre
      tabIndex={0}
      role="region"
      aria-label={label}
      className="max-h-60 overflow-auto border-b border-border bg-muted/40 py-1 font-mono text-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
      data-testid="pull-thread-hunk"
    >
      {hunk.split("\n").map((line, i) => (
        <div
          key={i}
          className={cx(
            "px-3",
            line.startsWith("+") && "bg-primary-muted",
            line.startsWith("-") && "bg-danger-muted",
            line.startsWith("@@") && "text-subtle-foreground",
          )}
        >
          {line || " "}
        </div>
      ))}
    </pre>
  );
}

function ReplyBox({ thread, env }: { thread: Thread; env: ThreadEnv }) {
  const client = useTRPCClient();
  const [opened, setOpen] = useState(false);
  // a reply with a draft (components/ui/use-draft.ts) stays open across remounts and reloads
  const { text: body, setText: setBody, clear } = useDraft(`pr:${env.prId}:reply:${thread.id}`);
  const { busy, error, run } = useAction();
  const { confirmDiscard, dialog } = useDiscardConfirm();
  const open = opened || body !== "";
  if (!open)
    return (
      <div className="px-3 py-2">
        <Button size="sm" onClick={() => setOpen(true)} data-testid="thread-reply">
          Reply…
        </Button>
      </div>
    );
  const send = () =>
    run(
      async () => (await client.pulls.addComment.mutate({ prId: env.prId, body, replyToId: thread.id }), await env.refetch()),
      () => (clear(), setOpen(false)),
    );
  return (
    <form className="space-y-2 px-3 py-2" onSubmit={(e) => (e.preventDefault(), void send())}>
      <Textarea
        autoFocus={opened}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        rows={3}
        aria-label="Reply"
        data-testid="reply-body"
      />
      <FormError message={error} />
      <div className="flex justify-end gap-2">
        <Button
          size="sm"
          variant="ghost"
          onClick={() => confirmDiscard(body, "", () => (clear(), setOpen(false)))}
          data-testid="reply-cancel"
        >
          Cancel
        </Button>
        <Button size="sm" variant="primary" type="submit" disabled={busy || !body.trim()} data-testid="reply-submit">
          Reply
        </Button>
      </div>
      {dialog}
    </form>
  );
}
