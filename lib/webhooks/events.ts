/**
 * The events a webhook may subscribe to (GitHub's names; docs/api.md "Webhooks"), shared by the
 * server (validation, emitting) and the settings page (the event checkboxes). `ping` is sent to a
 * new hook whatever it subscribes to, so the page offers the others.
 */
export const WEBHOOK_EVENTS = [
  "push",
  "create",
  "delete",
  "pull_request",
  "pull_request_review",
  "pull_request_review_comment",
  "issues",
  "issue_comment",
  "status",
  "check_run",
  "repository",
  "ping",
] as const;

/** One of WEBHOOK_EVENTS. */
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** The events a person picks in the settings page: every event but `ping`. */
export const SUBSCRIBABLE_EVENTS = WEBHOOK_EVENTS.filter((e): e is Exclude<WebhookEventName, "ping"> => e !== "ping");
