/**
 * What the notifications fan-out job is told (docs/notifications.md): one event on one subject,
 * as ids and small text. The services where a change happens build it inside their transaction
 * and queue it after commit (enqueueNotification in ./enqueue.ts); the job (./fan-out.ts) reads
 * current state, decides who is notified and why, bumps their threads and, when SMTP is
 * configured, writes the email outbox (NotificationEmail) and queues notifications.email.
 */

/** The reasons a user is notified (GitHub's notification reasons), most specific first. */
export const NOTIFICATION_REASONS = [
  "review_requested",
  "assigned",
  "mention",
  "team_mention",
  "author",
  "comment",
  "state_change",
  "ci_failed",
  "subscribed",
] as const;
export type NotificationReason = (typeof NOTIFICATION_REASONS)[number];

/** What a notification is about. `id`: Issue.id or PullRequest.id; the commit SHA for a commit. */
export type NotificationSubjectType = "issue" | "pull_request" | "commit";

/** What happened. */
export type NotificationEventKind =
  "opened" | "comment" | "review" | "review_requested" | "assigned" | "state_change" | "ci_failed" | "push";

export interface NotificationEvent {
  repoId: string;
  subjectType: NotificationSubjectType;
  subjectId: string;
  kind: NotificationEventKind;
  /** Who did it (never notified of their own activity); null: svc itself. */
  actorId: string | null;
  /** ISO time of the activity. */
  at: string;
  /** Fragment of the activity on the subject's page ("comment-<id>", "review-<id>"). */
  anchor?: string;
  /** The text of the activity (a comment or description, for mentions and the email), at most 64 KiB. */
  body?: string;
  /** Users the event is aimed at (a requested reviewer, an assignee). */
  targetUserIds?: string[];
  /** Teams the event is aimed at (a team review request). */
  targetTeamIds?: string[];
}
