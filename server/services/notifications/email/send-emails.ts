/**
 * The `notifications.email` job (docs/notifications-email.md "Sending"): sends the emails of one
 * event — NotificationEmail rows the fan-out wrote, one per recipient — after applying each
 * recipient's settings, and retries a failed send with backoff, up to MAX_ATTEMPTS attempts.
 */
import type { Db } from "@/server/db";
import { getConfig } from "@/server/config";
import { enqueue } from "@/server/jobs";
import { retryDelayMs } from "@/server/jobs/backoff";
import { NOTIFY_EMAIL } from "@/server/jobs/names";
import { sendMail } from "@/server/mail/transport";
import { loadEmailContext, loadEmailRows, type EmailRow } from "./load-context";
import { renderNotificationEmail, siteOf } from "./render";

/** Attempts per email (the first and four retries), as webhook deliveries. */
export const MAX_ATTEMPTS = 5;
/** Base delay of the retries (ms): retry k waits 1–2 · 2^(k−1) minutes (server/jobs/backoff.ts), about half an hour in all. */
export const RETRY_BACKOFF_MS = 60_000;

/** What the recipient's settings say of one row. */
export type Disposition = "send" | "digest" | { skip: string };

/**
 * GitHub's rules for one row (docs/notifications-email.md "Settings"): no address, email off or
 * the row's reason muted → skipped; a daily digest → left for the digest; else sent. A user
 * without a settings row has the defaults (email on, nothing muted, no digest).
 */
export function dispositionOf(row: Pick<EmailRow, "reason" | "user">): Disposition {
  const s = row.user.notificationSettings ?? { email: true, mutedReasons: "", dailyDigest: false };
  if (!row.user.email) return { skip: "the user has no email address" };
  if (!s.email) return { skip: "email is off in the user's settings" };
  if (s.mutedReasons.split(",").includes(row.reason)) return { skip: `the reason ${row.reason} is muted` };
  return s.dailyDigest ? "digest" : "send";
}

/** The outcome of one run: row ids by what became of them, and the retry queued (if any). */
export interface SendOutcome {
  sent: string[];
  skipped: string[];
  /** Left for the daily digest. */
  digest: string[];
  /** Failed this attempt; `retry` holds their next attempt, else (the last attempt) they were skipped. */
  failed: { id: string; error: string }[];
  retry: { jobId: string | null; attempt: number; runAt: Date } | null;
}

/**
 * Attempt `attempt` (1–MAX_ATTEMPTS) of the emails `emailIds`: loads the rows still unsent and
 * what they name (a constant number of queries, load-context.ts), marks `skippedAt` on the rows
 * the settings rule out (dispositionOf), on those whose subject is gone and on all of them when
 * SMTP_URL is unset, leaves digest rows alone, and sends the others one by one. Each send is
 * claimed first (attempts < attempt → attempt, one conditional update), so a second run of the
 * same attempt sends nothing twice. A sent row gets `sentAt`; failed rows get one next attempt,
 * queued together after retryDelayMs(RETRY_BACKOFF_MS, attempt), or `skippedAt` after the last.
 * Errors: database errors (the job retries; sent rows are not sent again).
 */
export async function sendNotificationEmails(db: Db, emailIds: string[], attempt: number): Promise<SendOutcome> {
  const out: SendOutcome = { sent: [], skipped: [], digest: [], failed: [], retry: null };
  const rows = await loadEmailRows(db, emailIds);
  if (rows.length === 0) return out;
  const mail = getConfig().mail;
  const toSend: EmailRow[] = [];
  for (const row of rows) {
    const d = mail ? dispositionOf(row) : { skip: "SMTP_URL is not set" };
    if (d === "digest") out.digest.push(row.id);
    else if (d === "send") toSend.push(row);
    else out.skipped.push(row.id);
  }
  const ctx = await loadEmailContext(db, toSend);
  const site = siteOf(getConfig().publicUrl);
  for (const row of toSend) {
    const message = renderNotificationEmail(row, row.user.email!, ctx, site);
    if (!message) {
      out.skipped.push(row.id);
      continue;
    }
    const claimed = await db.notificationEmail.updateMany({
      where: { id: row.id, sentAt: null, skippedAt: null, attempts: { lt: attempt } },
      data: { attempts: attempt },
    });
    if (claimed.count === 0) continue;
    try {
      await sendMail(message);
      await db.notificationEmail.update({ where: { id: row.id }, data: { sentAt: new Date() } });
      out.sent.push(row.id);
    } catch (e) {
      out.failed.push({ id: row.id, error: e instanceof Error ? e.message : String(e) });
    }
  }
  const giveUp = attempt >= MAX_ATTEMPTS;
  if (giveUp) out.skipped.push(...out.failed.map((f) => f.id));
  if (out.skipped.length)
    await db.notificationEmail.updateMany({
      where: { id: { in: out.skipped }, sentAt: null, skippedAt: null },
      data: { skippedAt: new Date() },
    });
  if (out.failed.length) {
    // the SMTP error names the server's answer (never the URL: it holds the password)
    console.error(
      `notification emails: attempt ${attempt} failed for ${out.failed.length} email(s) (${out.failed[0]!.error})${giveUp ? "; given up" : ""}`,
    );
    if (!giveUp) {
      const runAt = new Date(Date.now() + retryDelayMs(RETRY_BACKOFF_MS, attempt));
      const ids = out.failed.map((f) => f.id);
      const jobId = await enqueue(NOTIFY_EMAIL, { emailIds: ids, attempt: attempt + 1 }, { runAt });
      out.retry = { jobId, attempt: attempt + 1, runAt };
    }
  }
  return out;
}
