"use client";
/**
 * The Conversation tab's timeline (docs/pulls.md "Pages"): event sentences, reviews ("alice
 * approved these changes", with the body and a stale marker when the head moved since) and comment
 * threads (general comments inline; inline review threads with their file and diff hunk; resolved
 * and outdated threads collapsed), oldest first (./timeline.ts conversationItems); then the comment
 * box (Markdown with preview, as issue comments) → pulls.addComment. Threads are the Files tab's
 * own component (./review-thread.tsx): reply, resolve, edit and delete work here too; after a
 * change the page re-renders from the server (router.refresh).
 */
import { useCallback, useMemo, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { useTRPCClient } from "@/components/trpc/provider";
import { useRunner, type RepoRef } from "@/components/issues/issue-shared";
import { MarkdownEditor } from "@/components/issues/markdown-editor";
import { IssueMarkdown } from "@/components/issues/markdown";
import { TimeAgo } from "@/components/issues/ui";
import { BotBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { card, cx } from "@/components/ui/styles";
import type { PullReview, PullThread } from "./model";
import { conversationItems, eventSentence, reviewSentence, type PullEvent } from "./timeline";
import { ReviewStateIcon } from "./review-state";
import { ReviewThread, type ThreadEnv } from "./review-thread";

/** Who reads the page and what they may do (the threads' ThreadEnv without `refetch` and `repo`). */
export type TimelineReader = Pick<ThreadEnv, "prId" | "me" | "canWrite" | "open">;

const TONE = { neutral: "text-subtle-foreground", primary: "text-primary", danger: "text-danger", merged: "text-merged" } as const;
const dot = "absolute -left-[1.72rem] top-1.5 h-2.5 w-2.5 rounded-full border-2 border-background bg-current";

/** Events, reviews and threads of a pull request, oldest first; the threads are interactive for `reader`. */
export function PullTimeline({
  events,
  reviews = [],
  threads = [],
  repo,
  reader,
}: {
  events: PullEvent[];
  reviews?: PullReview[];
  threads?: PullThread[];
  repo: RepoRef;
  reader: TimelineReader;
}) {
  const items = conversationItems(events, reviews, threads);
  const router = useRouter();
  const [, startTransition] = useTransition();
  const refetch = useCallback(async () => startTransition(() => router.refresh()), [router]);
  const env: ThreadEnv = useMemo(
    () => ({ ...reader, repo: { owner: repo.owner, name: repo.name }, refetch }),
    [reader, repo.owner, repo.name, refetch],
  );
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
        return <ThreadEntry key={item.key} thread={item.thread} env={env} />;
      })}
    </ol>
  );
}

function ReviewEntry({ review, repo }: { review: PullReview; repo?: RepoRef }) {
  const s = reviewSentence(review.state);
  const who = review.author?.username ?? "someone";
  return (
    <li
      className="relative text-sm text-muted-foreground"
      data-testid="pull-review"
      data-state={review.state}
      data-stale={review.isStale ? "true" : "false"}
    >
      <span className={cx(dot, TONE[s.tone])} aria-hidden="true" />
      <div className="flex flex-wrap items-center gap-x-1.5 gap-y-1">
        <ReviewStateIcon state={review.state} />
        <strong className="font-medium text-foreground">{who}</strong> {review.author?.isBot && <BotBadge />}{" "}
        <span data-testid="pull-review-text">{s.text}</span> <TimeAgo iso={review.createdAt} />
        {review.isStale && (
          <span
            className="rounded-full border border-border px-2 text-xs text-subtle-foreground"
            title={`Reviewed ${review.commitSha.slice(0, 7)}; the branch has changed since`}
            data-testid="pull-review-stale"
          >
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

function ThreadEntry({ thread, env }: { thread: PullThread; env: ThreadEnv }) {
  return (
    <li
      className="relative min-w-0"
      data-testid="pull-thread"
      data-inline={thread.path !== null ? "true" : "false"}
      data-outdated={thread.isOutdated ? "true" : "false"}
    >
      <span className={cx(dot, "text-subtle-foreground")} aria-hidden="true" />
      <ReviewThread thread={thread} env={env} context="file" />
    </li>
  );
}

/** The comment box at the end of the conversation: Markdown with preview → pulls.addComment. */
export function PullCommentBox({
  prId,
  repo,
  people,
}: {
  prId: string;
  repo: RepoRef;
  people: { id: string; username: string; name: string | null }[];
}) {
  const client = useTRPCClient();
  const { run, error, busy } = useRunner();
  const [body, setBody] = useState("");
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        const text = body.trim();
        if (text)
          void run(
            () => client.pulls.addComment.mutate({ prId, body: text }),
            () => setBody(""),
          );
      }}
      data-testid="pull-comment-form"
    >
      <MarkdownEditor
        value={body}
        onChange={setBody}
        label="Comment"
        placeholder="Leave a comment"
        testId="pull-comment-input"
        rows={4}
        people={people}
        repo={repo}
      />
      <FormError message={error} />
      <div className="flex justify-end">
        <Button type="submit" variant="primary" disabled={busy || !body.trim()} data-testid="pull-comment-submit">
          Comment
        </Button>
      </div>
    </form>
  );
}
