/**
 * The NOTIFY_FAN_OUT job (docs/notifications.md): one event → the notification threads of
 * everyone it concerns, bumped in bulk, a live notice on each recipient's channel, and the
 * email outbox when SMTP is configured. Runs off the request path (enqueued by ./enqueue.ts).
 */
import { randomUUID } from "node:crypto";
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { enqueue } from "@/server/jobs";
import { NOTIFY_EMAIL } from "@/server/jobs/names";
import { publish } from "@/server/events/bus";
import { Sql } from "@/server/services/issues/query";
import { NOTIFICATION_REASONS, type NotificationEvent, type NotificationReason } from "./event";
import { decideRecipients, loadSubject } from "./recipients";

/** Rows per INSERT (13 parameters each: well under SQLite's 32 766 and PostgreSQL's 65 535). */
const CHUNK = 500;

/** The bus channel of user `userId`'s notices (count changes; server/http/notification-events.ts). */
export const userChannel = (userId: string): string => `user:${userId}`;

/** SQL CASE giving the rank (NOTIFICATION_REASONS order) of the reason in column `col`. */
const rankSql = (col: string) => `(CASE ${col} ${NOTIFICATION_REASONS.map((r, i) => `WHEN '${r}' THEN ${i}`).join(" ")} ELSE 99 END)`;

/**
 * Upserts one thread per recipient of `recipients` for `event`'s subject in repository
 * `repoId`, in ceil(n/500) INSERT … ON CONFLICT statements (SQLite and PostgreSQL): unread, not
 * done, lastActivityAt / lastActorId / lastAnchor from the event, and the most specific of the
 * thread's old reason and the new one.
 */
export async function upsertThreads(
  db: Db,
  repoId: string,
  event: NotificationEvent,
  recipients: Map<string, NotificationReason>,
): Promise<void> {
  const at = new Date(event.at);
  const now = new Date();
  const entries = [...recipients];
  for (let i = 0; i < entries.length; i += CHUNK) {
    const sql = new Sql(getConfig().provider);
    const values = entries
      .slice(i, i + CHUNK)
      .map(
        ([userId, reason]) =>
          `(${sql.list([randomUUID(), userId, repoId, event.subjectType, event.subjectId, reason])}, TRUE, FALSE, ${sql.list([at, event.actorId, event.anchor ?? null, now, now])})`,
      );
    await db.$executeRawUnsafe(
      `INSERT INTO "Notification" ("id", "userId", "repoId", "subjectType", "subjectId", "reason", "unread", "done",
         "lastActivityAt", "lastActorId", "lastAnchor", "createdAt", "updatedAt")
       VALUES ${values.join(", ")}
       ON CONFLICT ("userId", "subjectType", "subjectId") DO UPDATE SET
         "repoId" = excluded."repoId", "unread" = TRUE, "done" = FALSE,
         "lastActivityAt" = excluded."lastActivityAt", "lastActorId" = excluded."lastActorId",
         "lastAnchor" = excluded."lastAnchor", "updatedAt" = excluded."updatedAt",
         "reason" = CASE WHEN ${rankSql(`excluded."reason"`)} < ${rankSql(`"Notification"."reason"`)}
           THEN excluded."reason" ELSE "Notification"."reason" END`,
      ...sql.params,
    );
  }
}

/**
 * Runs one event's fan-out: reads the subject (nothing when it is gone), decides the recipients
 * and reasons (recipients.ts), upserts their threads, publishes `{type: "notification"}` on each
 * recipient's channel `user:<id>`, and when getConfig().mail is set writes one NotificationEmail
 * per recipient and queues NOTIFY_EMAIL for them. A constant number of queries for any number of
 * recipients (chunks of 500 rows). A ci_failed event on a commit goes to each open pull request
 * whose head it is. Returns the number of recipients. Re-running it re-bumps the
 * same threads (harmless) and writes the email rows again (the job's retries are few).
 */
export async function fanOutNotification(db: Db, event: NotificationEvent): Promise<number> {
  if (event.subjectType === "commit" && event.kind === "ci_failed") {
    // a failing status or check on a commit: the threads of the open pull requests it heads
    const pulls = await db.pullRequest.findMany({
      where: { repoId: event.repoId, headSha: event.subjectId, state: "open" },
      select: { id: true },
      take: 20,
    });
    let n = 0;
    for (const pr of pulls) n += await fanOutNotification(db, { ...event, subjectType: "pull_request", subjectId: pr.id });
    return n;
  }
  const subject = await loadSubject(db, event);
  if (!subject) return 0;
  const recipients = await decideRecipients(db, event, subject);
  if (recipients.size === 0) return 0;
  await upsertThreads(db, subject.repoId, event, recipients);
  for (const userId of recipients.keys())
    publish(userChannel(userId), {
      type: "notification",
      actorId: event.actorId,
      data: { repoId: subject.repoId, subjectType: event.subjectType, number: subject.number, kind: event.kind },
    });
  if (getConfig().mail) {
    const rows = [...recipients].map(([userId, reason]) => ({
      id: randomUUID(),
      userId,
      repoId: subject.repoId,
      subjectType: event.subjectType,
      subjectId: event.subjectId,
      reason,
      event: event.kind,
      actorId: event.actorId,
      anchor: event.anchor ?? null,
      body: subject.text.slice(0, 64 * 1024),
    }));
    for (let i = 0; i < rows.length; i += CHUNK) await db.notificationEmail.createMany({ data: rows.slice(i, i + CHUNK) });
    await enqueue(NOTIFY_EMAIL, { emailIds: rows.map((r) => r.id), attempt: 1 });
  }
  return recipients.size;
}
