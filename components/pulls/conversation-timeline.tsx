"use client";
/**
 * The Conversation tab's timeline (docs/pulls.md "Pages"): event sentences, reviews ("alice
 * approved these changes on revision 2", with the body and a stale marker when the head moved since) and comment
 * threads (general comments inline; inline review threads with their file and diff hunk; resolved
 * and outdated threads collapsed), oldest first (./timeline.ts conversationItems); then the comment
 * box (Markdown with preview, as issue comments) → pulls.addComment. Threads are the Files tab's
 * own component (./review-thread.tsx): reply, resolve, edit and delete work here too; after a
 * change the page re-renders from the server (router.refresh).
 */
import { useCallback, useMemo, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import Link from "next/link";
import { errorMessage, useTRPCClient } from "@/components/trpc/provider";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useRunner, type RepoRef } from "@/components/issues/issue-shared";
import { MarkdownEditor } from "@/components/issues/markdown-editor";
import { IssueMarkdown } from "@/components/issues/markdown";
import { TimeAgo } from "@/components/issues/ui";
import { BotBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";
import { card, cx } from "@/components/ui/styles";
import { useDraft } from "@/components/ui/use-draft";
import type { PullReview, PullThread } from "./model";
import { conversationItems, eventSentence, reviewSentence, type PullEvent } from "./timeline";
import { ReviewStateIcon } from "./review-state";
import { pushRange, rangeHref, type RevisionRef } from "./revision-range";
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
  revisions = [],
  filesHref,
}: {
  events: PullEvent[];
  reviews?: PullReview[];
  threads?: PullThread[];
  repo: RepoRef;
  reader: TimelineReader;
  /** The pull request's revisions (pulls.revisions): a force-push event links to its range on the Files tab. */
  revisions?: RevisionRef[];
  /** The Files changed tab's path, for those links. */
  filesHref?: string;
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
          const pushed =
            filesHref && item.event.type === "force_pushed" ? pushRange(revisions, item.event.data.before, item.event.data.after) : null;
          return (
            <li key={item.key} className="relative text-sm text-muted-foreground" data-testid="pull-event" data-type={item.event.type}>
              <span className={cx(dot, TONE[s.tone])} aria-hidden="true" />
              <strong className="font-medium text-foreground">{s.who}</strong> {s.text}
              {s.sha && <code className="ml-1 font-mono text-xs text-foreground">{s.sha}</code>} <TimeAgo iso={item.at} />
              {pushed && filesHref && (
                <>
                  {" · "}
                  <Link
                    href={rangeHref(filesHref, pushed)}
                    className="text-primary underline underline-offset-2"
                    data-testid="force-push-compare"
                    aria-label={`Compare revisions ${pushed.from} and ${pushed.to}`}
                  >
                    Compare
                  </Link>
                </>
              )}
            </li>
          );
        }
        if (item.kind === "review")
          return (
            <ReviewEntry
              key={item.key}
              review={item.review}
              repo={repo}
              canDismiss={reader.canWrite && reader.open}
              onDismissed={refetch}
            />
          );
        return <ThreadEntry key={item.key} thread={item.thread} env={env} />;
      })}
    </ol>
  );
}

function ReviewEntry({
  review,
  repo,
  canDismiss,
  onDismissed,
}: {
  review: PullReview;
  repo?: RepoRef;
  canDismiss?: boolean;
  onDismissed?: () => void;
}) {
  const s = reviewSentence(review.state);
  const who = review.author?.username ?? "someone";
  const dismissable = canDismiss && !review.dismissal && review.state !== "commented";
  return (
    <li
      id={`review-${review.id}`}
      className="relative scroll-mt-16 text-sm text-muted-foreground"
      data-testid="pull-review"
      data-state={review.state}
      data-stale={review.isStale ? "true" : "false"}
    >
      <span className={cx(dot, TONE[s.tone])} aria-hidden="true" />
      <div className="flex flex-wrap items-center gap-x-1.5 gap-y-1">
        <ReviewStateIcon state={review.state} />
        <strong className="font-medium text-foreground">{who}</strong> {review.author?.isBot && <BotBadge />}{" "}
        <span data-testid="pull-review-text">{s.text}</span>
        {review.revision !== null && (
          <span data-testid="pull-review-revision" title={`Reviewed ${review.commitSha.slice(0, 7)}`}>
            on revision {review.revision}
          </span>
        )}{" "}
        <TimeAgo iso={review.createdAt} />
        {review.isStale && (
          <span
            className="rounded-full border border-border px-2 text-xs text-subtle-foreground"
            title={`Reviewed ${review.commitSha.slice(0, 7)}; the change has changed since`}
            data-testid="pull-review-stale"
          >
            Stale
          </span>
        )}
        {review.dismissal && (
          <span
            className="rounded-full border border-border px-2 text-xs text-subtle-foreground"
            title={
              review.dismissal.reason === "stale" ? "Dismissed: new commits changed the diff" : `Dismissed: ${review.dismissal.reason}`
            }
            data-testid="pull-review-dismissed"
          >
            Dismissed
          </span>
        )}
        {dismissable && <DismissReview reviewId={review.id} who={who} onDismissed={onDismissed} />}
      </div>
      {review.body?.trim() && (
        <div className={cx(card, "mt-2 px-4 py-3")}>
          <IssueMarkdown source={review.body} repo={repo} testId="pull-review-body" />
        </div>
      )}
    </li>
  );
}

/** "Dismiss review" (writers, open pull requests): a reason, then pulls.dismissReview; the review stops counting for the merge requirements. */
function DismissReview({ reviewId, who, onDismissed }: { reviewId: string; who: string; onDismissed?: () => void }) {
  const client = useTRPCClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.pulls.dismissReview.mutate({ reviewId, reason: reason.trim() });
      setOpen(false);
      onDismissed?.();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)} data-testid="dismiss-review">
        Dismiss review
      </Button>
      <ConfirmDialog
        open={open}
        title={`Dismiss ${who}'s review?`}
        confirmLabel="Dismiss review"
        busy={busy}
        confirmDisabled={!reason.trim()}
        onConfirm={() => void confirm()}
        onCancel={() => setOpen(false)}
      >
        <FormError message={error} />
        <Field label="Reason" hint="Shown on the timeline. The review no longer counts toward the merge requirements.">
          <Input value={reason} maxLength={1000} onChange={(e) => setReason(e.target.value)} data-testid="dismiss-review-reason" />
        </Field>
      </ConfirmDialog>
    </>
  );
}

function ThreadEntry({ thread, env }: { thread: PullThread; env: ThreadEnv }) {
  return (
    <li
      id={`comment-${thread.id}`}
      className="relative min-w-0 scroll-mt-16"
      data-testid="pull-thread"
      data-inline={thread.path !== null ? "true" : "false"}
      data-outdated={thread.isOutdated ? "true" : "false"}
    >
      {/* notification links name a reply's comment: they land on its thread */}
      {thread.replies.map((r) => (
        <span key={r.id} id={`comment-${r.id}`} className="block scroll-mt-16" aria-hidden="true" />
      ))}
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
  // kept until posted (components/ui/use-draft.ts): a reload or a tab switch keeps the text
  const { text: body, setText: setBody, clear } = useDraft(`pr:${prId}:comment`);
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        const text = body.trim();
        if (text) void run(() => client.pulls.addComment.mutate({ prId, body: text }), clear);
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
