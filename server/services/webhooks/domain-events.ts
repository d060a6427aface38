/**
 * One-call emitters for the pull request and issue events (GitHub's payload shapes; docs/api.md
 * "Webhooks"), called by the services where each change happens, inside their transaction.
 * Thin wrappers of emitWebhookEvent: the payload is read only when a hook subscribes.
 */
import type { Db } from "@/server/db";
import type { Tx } from "@/server/db/transaction";
import { emitWebhookEvent, type PayloadParts, type Sender } from "./emit-event";
import { issueCommentPayload, issuePayload, pullRequestPayload, userPayload } from "./payloads";

type Client = Db | Tx;

/**
 * `pull_request` with `action` (opened, closed, reopened, synchronize, edited, ready_for_review,
 * converted_to_draft, labeled, unlabeled, review_requested, review_request_removed …) for pull
 * request `prId` of `repoId`: `{action, number, pull_request, ...extra}` (`extra`: GitHub's
 * `label`, `requested_reviewer`, `changes`, `before`/`after` …). Errors: emitWebhookEvent's.
 */
export function emitPullRequestEvent(
  client: Client,
  repoId: string,
  action: string,
  sender: Sender,
  prId: string,
  extra: PayloadParts = {},
) {
  return emitWebhookEvent(client, { id: repoId }, "pull_request", action, sender, async () => {
    const pull_request = await pullRequestPayload(client, prId);
    return { number: pull_request.number, pull_request, ...extra };
  });
}

/**
 * `pull_request_review` (submitted, dismissed) of review `reviewId`: `{action, review, pull_request}`.
 * A dismissed review's `state` is "dismissed", as GitHub sends it.
 */
export function emitPullReviewEvent(client: Client, repoId: string, action: string, sender: Sender, prId: string, reviewId: string) {
  return emitWebhookEvent(client, { id: repoId }, "pull_request_review", action, sender, async () => {
    const pull_request = await pullRequestPayload(client, prId);
    const r = await client.pullRequestReview.findUniqueOrThrow({
      where: { id: reviewId },
      include: { author: { select: { id: true, username: true } } },
    });
    return {
      review: {
        id: r.id,
        user: userPayload(r.author),
        body: r.body,
        state: r.dismissedAt ? "dismissed" : r.state.toLowerCase(),
        commit_id: r.commitSha,
        submitted_at: r.createdAt.toISOString(),
        html_url: `${pull_request.html_url as string}#review-${r.id}`,
      },
      pull_request,
    };
  });
}

/**
 * `pull_request_review_comment` (created, edited, deleted) of line comment `commentId`:
 * `{action, comment, pull_request, ...extra}` (`extra`: `changes` of an edit). The comment is read
 * when emitting, so a deletion emits before it deletes.
 */
export function emitPullReviewCommentEvent(
  client: Client,
  repoId: string,
  action: string,
  sender: Sender,
  prId: string,
  commentId: string,
  extra: PayloadParts = {},
) {
  return emitWebhookEvent(client, { id: repoId }, "pull_request_review_comment", action, sender, async () => {
    const pull_request = await pullRequestPayload(client, prId);
    const c = await client.pullRequestComment.findUniqueOrThrow({
      where: { id: commentId },
      include: { author: { select: { id: true, username: true } } },
    });
    return {
      comment: {
        id: c.id,
        pull_request_review_id: c.reviewId,
        in_reply_to_id: c.replyToId ?? undefined,
        user: userPayload(c.author),
        body: c.body,
        path: c.path,
        line: c.line,
        side: c.side,
        start_line: c.startLine,
        commit_id: c.commitSha,
        diff_hunk: c.diffHunk,
        html_url: `${pull_request.html_url as string}#comment-${c.id}`,
        created_at: c.createdAt.toISOString(),
        updated_at: c.updatedAt.toISOString(),
      },
      pull_request,
      ...extra,
    };
  });
}

/** `issues` with `action` (opened, closed, reopened, edited, labeled, unlabeled, assigned, unassigned …) for issue `issueId`: `{action, issue, ...extra}`. */
export function emitIssuesEvent(client: Client, repoId: string, action: string, sender: Sender, issueId: string, extra: PayloadParts = {}) {
  return emitWebhookEvent(client, { id: repoId }, "issues", action, sender, async () => ({
    issue: await issuePayload(client, issueId),
    ...extra,
  }));
}

/**
 * `issue_comment` (created, edited, deleted) of comment `commentId` on issue `issueId`:
 * `{action, issue, comment, ...extra}` (`extra`: `changes: {body: {from}}` of an edit). The
 * comment is read when emitting, so a deletion emits before it deletes.
 */
export function emitIssueCommentEvent(
  client: Client,
  repoId: string,
  action: string,
  sender: Sender,
  issueId: string,
  commentId: string,
  extra: PayloadParts = {},
) {
  return emitWebhookEvent(client, { id: repoId }, "issue_comment", action, sender, async () => {
    const issue = await issuePayload(client, issueId);
    return { issue, comment: await issueCommentPayload(client, commentId, issue.html_url as string), ...extra };
  });
}

/** A new, published comment on a pull request: emitPullCommentEvent "created". */
export function emitPullCommentCreated(client: Client, sender: Sender, commentId: string): Promise<number> {
  return emitPullCommentEvent(client, "created", sender, commentId);
}

/**
 * `action` (created, edited, deleted) of a published comment on a pull request:
 * `pull_request_review_comment` for a line comment (it has a path), else `issue_comment` with
 * GitHub's issue form of the pull request (`issue.pull_request` set), as GitHub sends for a pull
 * request's conversation; `extra` (an edit's `changes`) is added to the payload. The comment is
 * read when emitting, so a deletion emits before it deletes. Errors: emitWebhookEvent's; Prisma's
 * not-found for a missing comment.
 */
export async function emitPullCommentEvent(
  client: Client,
  action: "created" | "edited" | "deleted",
  sender: Sender,
  commentId: string,
  extra: PayloadParts = {},
): Promise<number> {
  const c = await client.pullRequestComment.findUniqueOrThrow({
    where: { id: commentId },
    select: { pullRequestId: true, path: true, pullRequest: { select: { repoId: true } } },
  });
  const repoId = c.pullRequest.repoId;
  if (c.path !== null) return emitPullReviewCommentEvent(client, repoId, action, sender, c.pullRequestId, commentId, extra);
  return emitWebhookEvent(client, { id: repoId }, "issue_comment", action, sender, async () => {
    const pr = await pullRequestPayload(client, c.pullRequestId);
    const row = await client.pullRequestComment.findUniqueOrThrow({
      where: { id: commentId },
      include: { author: { select: { id: true, username: true } } },
    });
    return {
      issue: {
        id: pr.id,
        number: pr.number,
        title: pr.title,
        body: pr.body,
        state: pr.state,
        user: pr.user,
        labels: pr.labels,
        html_url: pr.html_url,
        pull_request: { url: pr.url, html_url: pr.html_url },
      },
      comment: {
        id: row.id,
        body: row.body,
        user: userPayload(row.author),
        html_url: `${pr.html_url as string}#comment-${row.id}`,
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
      },
      ...extra,
    };
  });
}

/** GitHub's `label` object (`color` without '#') of a label as services hold it. */
export function webhookLabel(label: { id: string; name: string; color: string; description?: string | null }): Record<string, unknown> {
  return { id: label.id, name: label.name, color: label.color.replace(/^#/, ""), description: label.description ?? null };
}
