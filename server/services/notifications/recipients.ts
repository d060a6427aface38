/**
 * Who is notified of one event, and why (docs/notifications.md "Who is notified"): read from
 * current state by the fan-out job (./fan-out.ts) in a constant number of queries whatever the
 * number of recipients.
 */
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { readRows } from "@/server/db/read";
import { boolOf } from "@/server/db/raw";
import { Sql } from "@/server/services/issues/query";
import { readableRepoCondition } from "@/server/services/repos/grants";
import { parseMentions } from "@/lib/mentions";
import { NOTIFICATION_REASONS, type NotificationEvent, type NotificationReason } from "./event";

/** The subject of an event as the fan-out and the email need it. */
export interface SubjectInfo {
  repoId: string;
  number: number;
  title: string;
  authorId: string | null;
  /** Users with a part in the thread: commenters, reviewers (comment reason). */
  participantIds: string[];
  /** The issue's assignee. */
  assigneeIds: string[];
  /** A pull request's requested reviewers, team requests expanded to their members. */
  reviewerIds: string[];
  /** The event's text: `event.body`, else read here (the description when opened, the comment or review named by the anchor). */
  text: string;
}

/** The id in an anchor "comment-<id>" / "review-<id>" of `prefix`, or null. */
const anchorId = (anchor: string | undefined, prefix: string): string | null =>
  anchor?.startsWith(`${prefix}-`) ? anchor.slice(prefix.length + 1) : null;

/** The text of `event` when it carries none: the subject's description, or its comment/review. One query at most. */
async function eventText(db: Db, event: NotificationEvent, description: string | null): Promise<string> {
  if (event.body !== undefined) return event.body;
  if (event.kind === "opened") return description ?? "";
  const commentId = anchorId(event.anchor, "comment");
  if (event.kind === "comment" && commentId) {
    const c =
      event.subjectType === "issue"
        ? await db.issueComment.findUnique({ where: { id: commentId }, select: { body: true } })
        : await db.pullRequestComment.findUnique({ where: { id: commentId }, select: { body: true } });
    return c?.body ?? "";
  }
  const reviewId = anchorId(event.anchor, "review");
  if (event.kind === "review" && reviewId) {
    const r = await db.pullRequestReview.findUnique({
      where: { id: reviewId },
      select: { body: true, comments: { select: { body: true }, take: 100 } },
    });
    return [r?.body ?? "", ...(r?.comments.map((c) => c.body) ?? [])].join("\n\n");
  }
  return "";
}

/** Rank of a reason: lower is more specific (NOTIFICATION_REASONS order). */
export const reasonRank = (r: string): number => {
  const i = NOTIFICATION_REASONS.indexOf(r as NotificationReason);
  return i < 0 ? NOTIFICATION_REASONS.length : i;
};

/** The more specific of two reasons. */
export const moreSpecific = (a: NotificationReason, b: NotificationReason): NotificationReason => (reasonRank(a) <= reasonRank(b) ? a : b);

/** Reasons that reach a user who unsubscribed from the thread (GitHub's rule). */
const THROUGH_UNSUBSCRIBE = new Set<NotificationReason>(["mention", "team_mention", "review_requested"]);

/** Reads the subject of `event` (null when it is gone or a commit: commits have no threads yet). 3–4 queries. */
export async function loadSubject(db: Db, event: NotificationEvent): Promise<SubjectInfo | null> {
  if (event.subjectType === "issue") {
    const issue = await db.issue.findUnique({
      where: { id: event.subjectId },
      select: { repoId: true, number: true, title: true, body: true, authorId: true, assigneeId: true },
    });
    if (!issue) return null;
    const commenters = await db.issueComment.findMany({
      where: { issueId: event.subjectId, authorId: { not: null } },
      select: { authorId: true },
      distinct: ["authorId"],
    });
    return {
      repoId: issue.repoId,
      number: issue.number,
      title: issue.title,
      authorId: issue.authorId,
      participantIds: commenters.map((c) => c.authorId!),
      assigneeIds: issue.assigneeId ? [issue.assigneeId] : [],
      reviewerIds: [],
      text: await eventText(db, event, issue.body),
    };
  }
  if (event.subjectType !== "pull_request") return null;
  const pr = await db.pullRequest.findUnique({
    where: { id: event.subjectId },
    select: { repoId: true, number: true, title: true, body: true, authorId: true },
  });
  if (!pr) return null;
  const [commenters, reviewers, requests, teamMembers] = await Promise.all([
    db.pullRequestComment.findMany({
      where: { pullRequestId: event.subjectId, authorId: { not: null }, isPending: false },
      select: { authorId: true },
      distinct: ["authorId"],
    }),
    db.pullRequestReview.findMany({
      where: { pullRequestId: event.subjectId, authorId: { not: null } },
      select: { authorId: true },
      distinct: ["authorId"],
    }),
    db.pullRequestReviewRequest.findMany({ where: { pullRequestId: event.subjectId }, select: { reviewerId: true } }),
    db.teamMember.findMany({
      where: { team: { reviewRequests: { some: { pullRequestId: event.subjectId } } } },
      select: { userId: true },
    }),
  ]);
  return {
    repoId: pr.repoId,
    number: pr.number,
    title: pr.title,
    authorId: pr.authorId,
    participantIds: [...commenters, ...reviewers].map((c) => c.authorId!),
    assigneeIds: [],
    reviewerIds: [...requests.map((r) => r.reviewerId), ...teamMembers.map((m) => m.userId)],
    text: await eventText(db, event, pr.body),
  };
}

/** User ids mentioned by `body` (`@user`) and members of mentioned teams (`@org/team`). 0–2 queries. */
async function mentioned(db: Db, body: string): Promise<{ users: string[]; teamMembers: string[] }> {
  if (!body) return { users: [], teamMembers: [] };
  const m = parseMentions(body);
  const [users, members] = await Promise.all([
    m.users.length
      ? db.user.findMany({ where: { usernameLower: { in: m.users } }, select: { id: true } })
      : Promise.resolve([] as { id: string }[]),
    m.teams.length
      ? db.teamMember.findMany({
          where: { team: { OR: m.teams.map((t) => ({ slug: t.team, org: { usernameLower: t.org } })) } },
          select: { userId: true },
        })
      : Promise.resolve([] as { userId: string }[]),
  ]);
  return { users: users.map((u) => u.id), teamMembers: members.map((x) => x.userId) };
}

/**
 * The recipients of `event` on `subject`, each with the most specific reason it has:
 * targets of the event (review_requested / assigned), requested reviewers, the assignee,
 * @-mentioned users (mention) and members of @-mentioned teams (team_mention), the author
 * (author; ci_failed goes to the author only), commenters and reviewers (comment, or
 * state_change for a state change), watchers at level "all" and users subscribed to the thread
 * (subscribed). Left out: the actor; users watching the repository at "ignore"; users who
 * unsubscribed from the thread unless mentioned or asked to review; bots and organizations; and
 * every user who cannot read the repository (readableRepoCondition, one statement for all). A constant
 * number of queries (about 6) whatever the number of recipients.
 */
export async function decideRecipients(db: Db, event: NotificationEvent, subject: SubjectInfo): Promise<Map<string, NotificationReason>> {
  const reasons = new Map<string, NotificationReason>();
  const add = (ids: readonly (string | null | undefined)[], reason: NotificationReason) => {
    for (const id of ids) if (id) reasons.set(id, reasons.has(id) ? moreSpecific(reasons.get(id)!, reason) : reason);
  };
  if (event.kind === "ci_failed") add([subject.authorId], "ci_failed");
  else {
    const withText = event.kind === "opened" || event.kind === "comment" || event.kind === "review";
    const [mentions, watchers] = await Promise.all([
      withText ? mentioned(db, subject.text) : Promise.resolve({ users: [], teamMembers: [] }),
      db.repoWatch.findMany({ where: { repoId: subject.repoId, level: "all" }, select: { userId: true } }),
    ]);
    const targets = [...(event.targetUserIds ?? [])];
    if (event.targetTeamIds?.length) {
      const members = await db.teamMember.findMany({ where: { teamId: { in: event.targetTeamIds } }, select: { userId: true } });
      targets.push(...members.map((m) => m.userId));
    }
    if (event.kind === "review_requested") add(targets, "review_requested");
    if (event.kind === "assigned") add(targets, "assigned");
    add(subject.reviewerIds, "review_requested");
    add(subject.assigneeIds, "assigned");
    add(mentions.users, "mention");
    add(mentions.teamMembers, "team_mention");
    add([subject.authorId], "author");
    add(subject.participantIds, event.kind === "state_change" ? "state_change" : "comment");
    add(
      watchers.map((w) => w.userId),
      "subscribed",
    );
  }
  const subs = await db.notificationSubscription.findMany({
    where: { subjectType: event.subjectType, subjectId: event.subjectId },
    select: { userId: true, subscribed: true },
  });
  if (event.kind !== "ci_failed")
    add(
      subs.filter((s) => s.subscribed).map((s) => s.userId),
      "subscribed",
    );
  for (const s of subs)
    if (!s.subscribed && reasons.has(s.userId) && !THROUGH_UNSUBSCRIBE.has(reasons.get(s.userId)!)) reasons.delete(s.userId);
  // the actor is never told of their own activity; a failing CI run is news to the author even when their own token posted it
  if (event.actorId && event.kind !== "ci_failed") reasons.delete(event.actorId);
  if (reasons.size === 0) return reasons;
  const allowed = await readersAmong(db, subject.repoId, [...reasons.keys()]);
  for (const id of [...reasons.keys()]) if (!allowed.has(id)) reasons.delete(id);
  return reasons;
}

/** Candidates checked per statement (bound parameters stay far below SQLite's 32 766 and PostgreSQL's 65 535). */
const CANDIDATES_PER_STATEMENT = 5_000;

/**
 * Of `userIds`, those who are people (not bots, not organizations), can read repository
 * `repoId` (the one authorization statement, grants.ts readableRepoCondition; site admins read
 * everything) and do not watch it at "ignore". One query per 5,000 candidates.
 */
export async function readersAmong(db: Db, repoId: string, userIds: string[]): Promise<Set<string>> {
  const readers = new Set<string>();
  for (let i = 0; i < userIds.length; i += CANDIDATES_PER_STATEMENT) {
    const sql = new Sql(getConfig().provider);
    const readable = readableRepoCondition(() => `u."id"`);
    const text = `SELECT u."id" AS "id", u."isAdmin" AS "isAdmin", ${readable} AS "readable" FROM "Repository" r
      JOIN "User" u ON u."id" IN (${sql.list(userIds.slice(i, i + CANDIDATES_PER_STATEMENT))})
      WHERE r."id" = ${sql.p(repoId)} AND NOT u."isBot" AND NOT u."isOrg"
        AND NOT EXISTS (SELECT 1 FROM "RepoWatch" w WHERE w."userId" = u."id" AND w."repoId" = r."id" AND w."level" = 'ignore')`;
    const rows = await readRows<{ id: string; isAdmin: unknown; readable: unknown }>(db, text, sql.params);
    for (const r of rows) if (boolOf(r.readable) || boolOf(r.isAdmin)) readers.add(r.id);
  }
  return readers;
}
