"use client";
/**
 * The Conversation tab's timeline (issue #9): event sentences, reviews ("alice approved these
 * changes", with the body and a stale marker when the head moved since) and comment threads
 * (general comments inline; inline review threads with their file and diff hunk; outdated threads
 * collapsed under an "Outdated" label), oldest first (./timeline.ts conversationItems); then the
 * comment box (Markdown with preview, as issue comments) → pulls.addComment.
 */
import { useState } from "react";
import { useTRPCClient } from "@/components/trpc/provider";
import { useRunner, type RepoRef } from "@/components/issues/issue-shared";
import { MarkdownEditor } from "@/components/issues/markdown-editor";
import { IssueMarkdown } from "@/components/issues/markdown";
import { Avatar, TimeAgo } from "@/components/issues/ui";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { card, cx } from "@/components/ui/styles";
import type { PullReview, PullThread } from "./model";
import { conversationItems, eventSentence, reviewSentence, type PullEvent } from "./timeline";
import { ReviewStateIcon } from "./review-state";

const TONE = { neutral: "text-subtle-foreground", primary: "text-primary", danger: "text-danger", merged: "text-merged" } as const;
const dot = "absolute -left-[1.72rem] top-1.5 h-2.5 w-2.5 rounded-full border-2 border-background bg-current";

/** Events, reviews and threads of a pull request, oldest first. */
export function PullTimeline({ events, reviews = [], threads = [], repo }: { events: PullEvent[]; reviews?: PullReview[]; threads?: PullThread[]; repo?: RepoRef }) {
  const items = conversationItems(events, reviews, threads);
  return (
    <ol className="relative ml-4 space-y-3 border-l border-border pl-5" data-testid="pull-timeline">
      {items.map((item) => {
        if (item.kind === "event") {
          const s = eventSentence(item.event)!;
          return (
            <li key={item.key} className="relative text-sm text-muted-foreground" data-testid="pull-event" data-type={item.event.type}>
              <span className={cx(dot, TONE[s.tone])} aria-hidden="true" />
              <strong className="font-medium text-foreground">{s.who}</strong> {s.text}
              {s.sha && <code className="ml-1 font-mono text-xs text-foreground">{s.sha}</code>} <TimeAgo iso={item.at} />
            </li>
          );
        }
        if (item.kind === "review") return <ReviewEntry key={item.key} review={item.review} repo={repo} />;
        return <ThreadEntry key={item.key} thread={item.thread} repo={repo} />;
      })}
    </ol>
  );
}

function ReviewEntry({ review, repo }: { review: PullReview; repo?: RepoRef }) {
  const s = reviewSentence(review.state);
  const who = review.author?.username ?? "someone";
  return (
    <li className="relative text-sm text-muted-foreground" data-testid="pull-review" data-state={review.state} data-stale={review.isStale ? "true" : "false"}>
      <span className={cx(dot, TONE[s.tone])} aria-hidden="true" />
      <div className="flex flex-wrap items-center gap-x-1.5 gap-y-1">
        <ReviewStateIcon state={review.state} />
        <strong className="font-medium text-foreground">{who}</strong> <span data-testid="pull-review-text">{s.text}</span> <TimeAgo iso={review.createdAt} />
        {review.isStale && (
          <span className="rounded-full border border-border px-2 text-xs text-subtle-foreground" title={`Reviewed ${review.commitSha.slice(0, 7)}; the branch has changed since`} data-testid="pull-review-stale">
            Stale
          </span>
        )}
      </div>
      {review.body?.trim() && (
        <div className={cx(card, "mt-2 px-4 py-3")}>
          <IssueMarkdown source={review.body} repo={repo} testId="pull-review-body" />
        </div>
      )}
    </li>
  );
}

function CommentBody({ c, repo }: { c: { id: string; body: string; author: { username: string } | null; createdAt: string; isDeleted: boolean }; repo?: RepoRef }) {
  return (
    <div className="px-4 py-3" data-testid="pull-comment">
      <div className="mb-1 flex flex-wrap items-center gap-2 text-sm">
        {c.author && <Avatar username={c.author.username} />}
        <strong className="font-medium text-foreground">{c.author?.username ?? "someone"}</strong>
        <span className="text-subtle-foreground">
          <TimeAgo iso={c.createdAt} />
        </span>
      </div>
      {c.isDeleted ? <p className="text-sm italic text-subtle-foreground">This comment was deleted.</p> : <IssueMarkdown source={c.body} repo={repo} testId="pull-comment-body" />}
    </div>
  );
}

/** A diff hunk as the thread saw it: +/− lines tinted, scrolling inside its box (never the page). */
function Hunk({ hunk }: { hunk: string }) {
  return (
    <pre className="max-h-60 overflow-auto border-b border-border bg-muted/40 py-1 font-mono text-xs" data-testid="pull-thread-hunk">
      {hunk.split("\n").map((line, i) => (
        <div key={i} className={cx("px-3", line.startsWith("+") && "bg-primary-muted", line.startsWith("-") && "bg-danger-muted", line.startsWith("@@") && "text-subtle-foreground")}>
          {line || " "}
        </div>
      ))}
    </pre>
  );
}

function ThreadEntry({ thread, repo }: { thread: PullThread; repo?: RepoRef }) {
  const comments = [thread, ...thread.replies];
  const inline = thread.path !== null;
  const cards = (
    <div className={cx(card, "overflow-hidden")}>
      {inline && (
        <div className="flex min-w-0 items-center gap-2 border-b border-border bg-muted px-3 py-1.5 text-xs">
          <span className="min-w-0 truncate font-mono text-foreground" data-testid="pull-thread-path">
            {thread.path}
          </span>
          {thread.line !== null && <span className="shrink-0 text-subtle-foreground">line {thread.line}</span>}
          {thread.isResolved && <span className="ml-auto shrink-0 text-subtle-foreground">Resolved</span>}
        </div>
      )}
      {inline && thread.diffHunk && <Hunk hunk={thread.diffHunk} />}
      <div className="divide-y divide-border">
        {comments.map((c) => (
          <CommentBody key={c.id} c={c} repo={repo} />
        ))}
      </div>
    </div>
  );
  return (
    <li className="relative" data-testid="pull-thread" data-inline={inline ? "true" : "false"} data-outdated={thread.isOutdated ? "true" : "false"}>
      <span className={cx(dot, "text-subtle-foreground")} aria-hidden="true" />
      {thread.isOutdated ? (
        <details className="group">
          <summary className="flex cursor-pointer flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <span className="rounded-full border border-warning-border px-2 text-xs text-warning" data-testid="pull-thread-outdated">
              Outdated
            </span>
            <span className="min-w-0 truncate font-mono text-xs">{thread.path}</span>
            <span className="text-xs">
              {comments.length} comment{comments.length === 1 ? "" : "s"}
            </span>
          </summary>
          <div className="mt-2">{cards}</div>
        </details>
      ) : (
        cards
      )}
    </li>
  );
}

/** The comment box at the end of the conversation: Markdown with preview → pulls.addComment. */
export function PullCommentBox({ prId, repo, people }: { prId: string; repo: RepoRef; people: { id: string; username: string; name: string | null }[] }) {
  const client = useTRPCClient();
  const { run, error, busy } = useRunner();
  const [body, setBody] = useState("");
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        const text = body.trim();
        if (text) void run(() => client.pulls.addComment.mutate({ prId, body: text }), () => setBody(""));
      }}
      data-testid="pull-comment-form"
    >
      <MarkdownEditor value={body} onChange={setBody} label="Comment" placeholder="Leave a comment" testId="pull-comment-input" rows={4} people={people} repo={repo} />
      <FormError message={error} />
      <div className="flex justify-end">
        <Button type="submit" variant="primary" disabled={busy || !body.trim()} data-testid="pull-comment-submit">
          Comment
        </Button>
      </div>
    </form>
  );
}
