/**
 * The daily digest (docs/notifications-email.md "Daily digest"): the `notifications.digest` job
 * runs once a day at DIGEST_HOUR_UTC, queues its next run first, then sends each user with
 * `dailyDigest` one email gathering their unsent NotificationEmail rows, and marks them sent.
 */
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { enqueue } from "@/server/jobs";
import { NOTIFY_DIGEST } from "@/server/jobs/names";
import { sendMail } from "@/server/mail/transport";
import { EMAIL_ROW_SELECT, loadEmailContext } from "./load-context";
import { renderDigest, siteOf } from "./render";
import { dispositionOf } from "./send-emails";

/** The hour (UTC) the digest goes out. */
export const DIGEST_HOUR_UTC = 7;
/** Rows gathered into one digest at most (oldest first); the rest wait for the next day's. */
export const MAX_DIGEST_ROWS = 500;
/** Users read per page. */
const USER_PAGE = 200;

/** The first DIGEST_HOUR_UTC:00 UTC strictly after `now`. */
export function nextDigestAt(now: Date = new Date()): Date {
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DIGEST_HOUR_UTC));
  if (at.getTime() <= now.getTime()) at.setUTCDate(at.getUTCDate() + 1);
  return at;
}

/** Queues the digest at `runAt` (default: the next DIGEST_HOUR_UTC) unless one is already waiting (singleton key "digest"). */
export async function scheduleDigest(runAt: Date = nextDigestAt()): Promise<void> {
  await enqueue(NOTIFY_DIGEST, {}, { singletonKey: "digest", runAt });
}

/** What one digest run did: emails sent, rows gathered, rows skipped (settings), users whose send failed. */
export interface DigestOutcome {
  emails: number;
  rows: number;
  skipped: number;
  failedUsers: string[];
}

/**
 * One digest run: queues the next one (scheduleDigest), then for every user with `dailyDigest`
 * (paged by id) loads their unsent rows (MAX_DIGEST_ROWS, oldest first), skips the ones their
 * settings rule out (no address, email off, muted reason: `skippedAt`), sends one email of the
 * rest (render.ts renderDigest) and marks them `sentAt`. Without SMTP_URL nothing is sent (rows
 * wait). A failed send leaves that user's rows for the next run and is listed in `failedUsers`
 * (the job then fails, so the queue retries it: users already sent have no unsent rows left).
 * Errors: database errors.
 */
export async function sendDigests(db: Db, now: Date = new Date()): Promise<DigestOutcome> {
  await scheduleDigest(nextDigestAt(now));
  const out: DigestOutcome = { emails: 0, rows: 0, skipped: 0, failedUsers: [] };
  if (!getConfig().mail) return out;
  const site = siteOf(getConfig().publicUrl);
  let after: string | undefined;
  for (;;) {
    const users = await db.notificationSettings.findMany({
      where: { dailyDigest: true, ...(after ? { userId: { gt: after } } : {}) },
      select: { userId: true },
      orderBy: { userId: "asc" },
      take: USER_PAGE,
    });
    for (const { userId } of users) {
      const rows = await db.notificationEmail.findMany({
        where: { userId, sentAt: null, skippedAt: null },
        select: EMAIL_ROW_SELECT,
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take: MAX_DIGEST_ROWS,
      });
      if (rows.length === 0) continue;
      const skip = rows.filter((r) => typeof dispositionOf(r) === "object").map((r) => r.id);
      const gather = rows.filter((r) => dispositionOf(r) === "digest");
      if (skip.length) {
        await db.notificationEmail.updateMany({
          where: { id: { in: skip }, sentAt: null, skippedAt: null },
          data: { skippedAt: new Date() },
        });
        out.skipped += skip.length;
      }
      if (gather.length === 0) continue;
      const message = renderDigest(gather, gather[0]!.user.email!, await loadEmailContext(db, gather), site, now);
      const ids = gather.map((r) => r.id);
      if (message) {
        try {
          await sendMail(message);
        } catch (e) {
          console.error(`notification digest: sending to user ${userId} failed (${e instanceof Error ? e.message : String(e)})`);
          out.failedUsers.push(userId);
          continue;
        }
        out.emails++;
        out.rows += ids.length;
        await db.notificationEmail.updateMany({ where: { id: { in: ids }, sentAt: null }, data: { sentAt: new Date() } });
      } else {
        // every subject is gone: nothing to gather
        await db.notificationEmail.updateMany({ where: { id: { in: ids }, sentAt: null }, data: { skippedAt: new Date() } });
        out.skipped += ids.length;
      }
    }
    if (users.length < USER_PAGE) break;
    after = users[users.length - 1]!.userId;
  }
  return out;
}
