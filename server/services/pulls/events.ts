/**
 * A pull request's timeline: one PullRequestEvent row per change, written in the
 * same transaction as the change. Types and their `data` (JSON) — docs/pulls.md "Records and
 * timeline":
 *   opened {}                          edited {field: "title"|"body", from, to}
 *   ready_for_review {}                converted_to_draft {}
 *   closed {}                          reopened {}
 *   pushed {commits, before, after}    force_pushed {commits, before, after}
 *   merged {mergeSha, strategy, baseTip (svc merges: the target tip merged onto; pulls.revert)}
 *   source_deleted {sha}      source_restored {sha}
 * (base_changed, referenced and merges by svc are written by their owners; reviewed {reviewId,
 * state, commitSha} (read back with `revision`: listPullEvents), labeled/unlabeled {label {id, name, color}}, review_requested /
 * review_request_removed {reviewer {id, username, name}} by the review part; review_dismissed
 * {reviewId, reviewer, state, reason} (reason "stale" with actor null: a push changed the diff)
 * and protection_bypassed {requirements: [messages], kinds: [approvals|status|codeOwners|upToDate],
 * pattern} by branch protection; auto_merge_enabled
 * {strategy} and auto_merge_disabled {reason} by auto-merge.)
 */
import type { Db, Prisma } from "@/server/db";
import { pullUserSelect, type PullUser } from "./view";
import { reviewRevisions } from "./revision-of";
import { afterCommit } from "@/server/db/after-commit";
import { publish, pullChannel, type LiveEvent } from "@/server/events/bus";

type Tx = Prisma.TransactionClient;

export type PullEventType =
  | "opened"
  | "edited"
  | "ready_for_review"
  | "converted_to_draft"
  | "closed"
  | "reopened"
  | "pushed"
  | "force_pushed"
  | "merged"
  | "source_deleted"
  | "source_restored"
  | "base_changed"
  | "referenced"
  // review (docs/pulls.md "Review")
  | "reviewed"
  | "labeled"
  | "unlabeled"
  | "review_requested"
  | "review_request_removed"
  // branch protection (docs/pulls.md "Merge requirements")
  | "review_dismissed"
  | "protection_bypassed"
  // auto-merge (docs/pulls.md "Auto-merge")
  | "auto_merge_enabled"
  | "auto_merge_disabled";

/** Appends one event to pull request `pullRequestId`'s timeline. `actorId` null = svc itself (a push hook without a user). */
export async function recordPullEvent(
  tx: Tx | Db,
  pullRequestId: string,
  type: PullEventType,
  data: Record<string, unknown>,
  actorId: string | null,
): Promise<void> {
  await tx.pullRequestEvent.create({ data: { pullRequestId, type, data: JSON.stringify(data), actorId } });
  notifyPull(tx, pullRequestId, type, actorId);
}

/**
 * Tells the pull request's open pages (live updates, server/events/bus.ts) that `type` happened,
 * once `tx` commits. Every writer of a pull request's timeline, comments or reviews calls this
 * (recordPullEvent does it for events).
 */
export function notifyPull(tx: Tx | Db, pullRequestId: string, type: string, actorId: string | null, data?: LiveEvent["data"]): void {
  afterCommit(tx, () => publish(pullChannel(pullRequestId), { type, actorId, ...(data ? { data } : {}) }));
}

export interface PullEventView {
  id: number;
  type: string;
  data: Record<string, unknown>;
  actor: PullUser | null;
  createdAt: string;
}

/**
 * pulls.timeline (extension): events oldest first, `data` parsed, with the actor. One query, and
 * one more when there are `reviewed` events: each gets `data.revision`, the revision its review
 * was made on (revision-of.ts; null when no revision has its head), as pulls.reviews answers it.
 */
export async function listPullEvents(db: Db, pullRequestId: string, limit = 500): Promise<PullEventView[]> {
  const rows = await db.pullRequestEvent.findMany({
    where: { pullRequestId },
    orderBy: { id: "asc" },
    take: limit,
    select: { id: true, type: true, data: true, createdAt: true, actor: { select: pullUserSelect } },
  });
  const events = rows.map((r) => ({
    id: r.id,
    type: r.type,
    data: safeJson(r.data),
    actor: r.actor,
    createdAt: r.createdAt.toISOString(),
  }));
  const reviewed = events.filter((e) => e.type === "reviewed");
  if (reviewed.length) {
    const revisions = await reviewRevisions(db, pullRequestId);
    for (const e of reviewed) e.data.revision = typeof e.data.reviewId === "string" ? (revisions.get(e.data.reviewId) ?? null) : null;
  }
  return events;
}

function safeJson(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
