/**
 * Notification email end to end (docs/notifications-email.md) against a real SMTP receiver on
 * loopback (test/fixtures/smtp-receiver.ts): NotificationEmail rows are inserted as the fan-out
 * writes them, then the `notifications.email` work runs (through the job worker once, then called
 * directly per attempt, as the webhook tests do). Asserts GitHub's threading headers, one-click
 * unsubscribe, the settings rules, the daily digest, retries with backoff and the settings procedures.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/server/config";
import { getDb } from "@/server/db";
import { enqueue, getJob, startJobWorker, stopJobWorker } from "@/server/jobs";
import { NOTIFY_DIGEST, NOTIFY_EMAIL } from "@/server/jobs/names";
import { registerJobHandlers } from "@/server/jobs/handlers";
import { closeMailTransport } from "@/server/mail/transport";
import { getUnsubscribe, postUnsubscribe } from "@/server/http/unsubscribe";
import { MAX_ATTEMPTS, sendNotificationEmails } from "@/server/services/notifications/email/send-emails";
import { nextDigestAt, sendDigests } from "@/server/services/notifications/email/send-digest";
import { signUnsubscribeToken, verifyUnsubscribeToken } from "@/server/services/notifications/email/unsubscribe-token";
import { loadEmailContext, loadEmailRows } from "@/server/services/notifications/email/load-context";
import { countingDb } from "./query-count";
import { actorOf, callerFor, makeUser } from "../helpers";
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from "../fixtures/smtp-receiver";
import { codeOf, team, type Member, type Team } from "./pulls-fixtures";

const HOST = "svc.test";
let smtp: SmtpReceiver;
let t: Team;
let pr: { id: string; number: number };
let issue: { id: string; number: number };
/** The owner/repo prefix of thread ids. */
let base: string;

async function withEmail(m: Member, email: string): Promise<void> {
  await m.as.users.updateProfile({ email });
}

type Row = {
  userId: string;
  subjectType?: string;
  subjectId?: string;
  reason?: string;
  event?: string;
  anchor?: string | null;
  body?: string;
};

/** Inserts one NotificationEmail row as the fan-out writes it (a comment on the pull request by the owner, by default). */
async function row(r: Row): Promise<string> {
  const created = await (
    await getDb()
  ).notificationEmail.create({
    data: {
      userId: r.userId,
      repoId: t.repo.id,
      subjectType: r.subjectType ?? "pull_request",
      subjectId: r.subjectId ?? pr.id,
      reason: r.reason ?? "comment",
      event: r.event ?? "comment",
      actorId: t.owner.user.id,
      anchor: r.anchor === undefined ? "comment-1" : r.anchor,
      body: r.body ?? "Looks good",
    },
  });
  return created.id;
}

async function state(id: string) {
  return (await getDb()).notificationEmail.findUniqueOrThrow({ where: { id }, select: { sentAt: true, skippedAt: true, attempts: true } });
}

/** Messages received for `to` since `from` (an index into smtp.messages). */
const mailsTo = (to: string, from = 0): ReceivedMail[] => smtp.messages.slice(from).filter((m) => m.to.includes(to));

function useSmtp(url: string | undefined): void {
  if (url) process.env.SMTP_URL = url;
  else delete process.env.SMTP_URL;
  resetConfig();
  closeMailTransport();
}

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  process.env.NEXTAUTH_URL = `https://${HOST}`;
  process.env.SVC_MAIL_FROM = "svc <notifications@svc.test>";
  useSmtp(smtp.url);
  t = await team("mail");
  await withEmail(t.reader, "reader@example.com");
  await withEmail(t.writer, "writer@example.com");
  await t.wt.run("checkout", "--quiet", "-b", "topic", "main");
  const head = await t.wt.commit("a.txt", "a\n", "a");
  await t.wt.push("topic");
  await t.wt.run("checkout", "--quiet", "main");
  const created = await t.owner.as.pulls.create({
    repoId: t.repo.id,
    title: "Add <a> & more",
    sourceBranch: "topic",
    targetBranch: "main",
    headSha: head,
    baseSha: await t.wt.sha("main"),
  });
  pr = { id: created.id, number: created.number };
  const i = await t.owner.as.issues.create({ repoId: t.repo.id, title: "Crash on start" });
  issue = { id: i.id, number: i.number };
  base = `${t.owner.user.username}/${t.repo.name}`;
}, 60_000);

afterAll(async () => {
  await stopJobWorker();
  closeMailTransport();
  await smtp.close();
  await t?.server.close();
});

describe("sending", () => {
  it("the job worker sends a queued event's email", async () => {
    registerJobHandlers();
    await startJobWorker({ pollIntervalMs: 100 });
    try {
      const id = await row({ userId: t.reader.user.id, event: "opened", anchor: null, body: "Please review" });
      await enqueue(NOTIFY_EMAIL, { emailIds: [id], attempt: 1 });
      await expect.poll(async () => (await state(id)).sentAt, { timeout: 20_000, interval: 100 }).not.toBeNull();
      const [m] = mailsTo("reader@example.com").filter((x) => x.text.includes("Please review"));
      expect(m).toBeDefined();
      // an "opened" email is the thread's root: its Message-ID is the one later emails refer to
      expect(smtp.header(m!, "message-id")).toBe(`<${base}/pull/${pr.number}@${HOST}>`);
      expect(smtp.header(m!, "in-reply-to")).toBeUndefined();
      expect(smtp.header(m!, "subject")).toBe(`[${base}] Add <a> & more (PR #${pr.number})`);
      expect(smtp.header(m!, "from")).toBe("svc <notifications@svc.test>");
    } finally {
      await stopJobWorker();
    }
  }, 30_000);

  it("threads two events of a subject under one root, with GitHub's list headers", async () => {
    const from = smtp.messages.length;
    const a = await row({ userId: t.reader.user.id, anchor: "comment-a", body: "first <script>alert(1)</script> & done" });
    const b = await row({ userId: t.reader.user.id, anchor: "comment-b", body: "second" });
    expect((await sendNotificationEmails(await getDb(), [a], 1)).sent).toEqual([a]);
    expect((await sendNotificationEmails(await getDb(), [b], 1)).sent).toEqual([b]);
    const [first, second] = mailsTo("reader@example.com", from);
    const root = `<${base}/pull/${pr.number}@${HOST}>`;
    expect(smtp.header(first!, "message-id")).toBe(`<${base}/pull/${pr.number}/${a}@${HOST}>`);
    expect(smtp.header(second!, "message-id")).toBe(`<${base}/pull/${pr.number}/${b}@${HOST}>`);
    for (const m of [first!, second!]) {
      expect(smtp.header(m, "in-reply-to")).toBe(root);
      expect(smtp.header(m, "references")).toBe(root);
      expect(smtp.header(m, "subject")).toBe(`Re: [${base}] Add <a> & more (PR #${pr.number})`);
      expect(smtp.header(m, "list-id")).toBe(`${base} <${t.repo.name}.${t.owner.user.username}.${HOST}>`);
      expect(smtp.header(m, "list-unsubscribe")).toMatch(new RegExp(`^<https://${HOST.replace(".", "\\.")}/unsubscribe/[A-Za-z0-9_.-]+>$`));
      expect(smtp.header(m, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      expect(smtp.header(m, "x-svc-reason")).toBe("comment");
    }
    const link = `https://${HOST}/${base}/pulls/${pr.number}#comment-a`;
    expect(first!.text).toContain(`@${t.owner.user.username} commented on this pull request.`);
    expect(first!.text).toContain("first <script>alert(1)</script> & done");
    expect(first!.text).toContain(link);
    // the HTML shows the body as text: escaped, never markup
    expect(first!.html).toContain("first &lt;script&gt;alert(1)&lt;/script&gt; &amp; done");
    expect(first!.html).not.toContain("<script>");
    expect(first!.html).toContain(`href="${link}"`);
    expect((await state(a)).sentAt).not.toBeNull();
    // a second run of the same attempt sends nothing again
    await sendNotificationEmails(await getDb(), [a, b], 1);
    expect(mailsTo("reader@example.com", from)).toHaveLength(2);
  });

  it("loads a batch's rows and what they name in a constant number of queries", async () => {
    const counting = await countingDb();
    try {
      const batch = async (n: number) => {
        const ids: string[] = [];
        for (let i = 0; i < n; i++) {
          const u = await makeUser("batch");
          ids.push(await row({ userId: u.id, ...(i % 2 ? { subjectType: "issue", subjectId: issue.id } : {}) }));
        }
        return counting.count(async () => loadEmailContext(counting.db, await loadEmailRows(counting.db, ids)));
      };
      const small = await batch(2);
      expect(await batch(12)).toBe(small);
      expect(small).toBeLessThanOrEqual(8);
    } finally {
      await counting.close();
    }
  });

  it("threads an issue under issues/<n>", async () => {
    const from = smtp.messages.length;
    const id = await row({ userId: t.reader.user.id, subjectType: "issue", subjectId: issue.id, reason: "mention", anchor: "comment-9" });
    await sendNotificationEmails(await getDb(), [id], 1);
    const [m] = mailsTo("reader@example.com", from);
    expect(smtp.header(m!, "references")).toBe(`<${base}/issues/${issue.number}@${HOST}>`);
    expect(smtp.header(m!, "subject")).toBe(`Re: [${base}] Crash on start (#${issue.number})`);
    expect(smtp.header(m!, "x-svc-reason")).toBe("mention");
    expect(m!.text).toContain("because you were mentioned");
  });

  it("skips rows the recipient's settings rule out, and leaves digest rows for the digest", async () => {
    const db = await getDb();
    const noAddress = await makeUser("noaddr");
    const off = await makeUser("off");
    const muted = await makeUser("muted");
    const digest = await makeUser("digest");
    for (const [u, email] of [
      [off, "off@example.com"],
      [muted, "muted@example.com"],
      [digest, "digest@example.com"],
    ] as const)
      await db.user.update({ where: { id: u.id }, data: { email } });
    await (await callerFor(actorOf(off))).users.updateNotificationSettings({ email: false });
    await (await callerFor(actorOf(muted))).users.updateNotificationSettings({ mutedReasons: ["comment", "ci_failed"] });
    await (await callerFor(actorOf(digest))).users.updateNotificationSettings({ dailyDigest: true });
    const from = smtp.messages.length;
    const ids = [
      await row({ userId: noAddress.id }),
      await row({ userId: off.id }),
      await row({ userId: muted.id }),
      await row({ userId: digest.id }),
    ];
    const mutedButMentioned = await row({ userId: muted.id, reason: "mention" });
    const out = await sendNotificationEmails(db, [...ids, mutedButMentioned], 1);
    expect(out.skipped.sort()).toEqual(ids.slice(0, 3).sort());
    expect(out.digest).toEqual([ids[3]]);
    expect(out.sent).toEqual([mutedButMentioned]);
    for (const id of ids.slice(0, 3)) expect((await state(id)).skippedAt).not.toBeNull();
    expect(await state(ids[3]!)).toMatchObject({ sentAt: null, skippedAt: null });
    expect(smtp.messages.slice(from).map((m) => m.to)).toEqual([["muted@example.com"]]);
  });
});

describe("unsubscribe", () => {
  it("List-Unsubscribe's one-click POST unsubscribes the thread; GET only asks", async () => {
    const db = await getDb();
    const from = smtp.messages.length;
    await sendNotificationEmails(db, [await row({ userId: t.writer.user.id })], 1);
    const [m] = mailsTo("writer@example.com", from);
    const url = smtp.header(m!, "list-unsubscribe")!.slice(1, -1);
    const token = url.split("/").pop()!;
    const where = { userId_subjectType_subjectId: { userId: t.writer.user.id, subjectType: "pull_request", subjectId: pr.id } };

    const page = await getUnsubscribe(new Request(url), token);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`pull request #${pr.number}: Add &lt;a&gt; &amp; more`);
    expect(html).toContain('<form method="post">');
    expect(await db.notificationSubscription.findUnique({ where })).toBeNull();

    const res = await postUnsubscribe(
      new Request(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      }),
      token,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("You are unsubscribed");
    expect(await db.notificationSubscription.findUnique({ where })).toMatchObject({ subscribed: false, repoId: t.repo.id });
    // again: still unsubscribed, still 200
    expect((await postUnsubscribe(new Request(url, { method: "POST" }), token)).status).toBe(200);
  });

  it("a tampered or malformed token answers a 400 page, not a 500", async () => {
    const token = signUnsubscribeToken({ userId: t.writer.user.id, repoId: t.repo.id, subjectType: "issue", subjectId: issue.id });
    expect(verifyUnsubscribeToken(token)).toMatchObject({ userId: t.writer.user.id, subjectId: issue.id });
    const [payload, sig] = token.split(".");
    const forged = Buffer.from(JSON.stringify([t.reader.user.id, t.repo.id, "issue", issue.id])).toString("base64url");
    for (const bad of [`${forged}.${sig}`, `${payload}.${sig!.slice(0, -2)}AA`, "nonsense", `${payload}`, "a".repeat(5000)]) {
      expect(verifyUnsubscribeToken(bad)).toBeNull();
      for (const res of [
        await getUnsubscribe(new Request(`https://${HOST}/unsubscribe/x`), bad),
        await postUnsubscribe(new Request(`https://${HOST}/unsubscribe/x`, { method: "POST" }), bad),
      ]) {
        expect(res.status).toBe(400);
        expect(await res.text()).toContain("This unsubscribe link is not valid");
      }
    }
    // a token of a deleted thread: 400 too
    const gone = signUnsubscribeToken({
      userId: t.writer.user.id,
      repoId: t.repo.id,
      subjectType: "issue",
      subjectId: crypto.randomUUID(),
    });
    expect((await postUnsubscribe(new Request(`https://${HOST}/unsubscribe/x`, { method: "POST" }), gone)).status).toBe(400);
  });
});

describe("daily digest", () => {
  it("gathers a user's unsent rows by repository and subject in one email, marks them sent, and queues the next day", async () => {
    const db = await getDb();
    const u = await makeUser("dig");
    await db.user.update({ where: { id: u.id }, data: { email: "dig@example.com" } });
    await (await callerFor(actorOf(u))).users.updateNotificationSettings({ dailyDigest: true });
    const ids = [
      await row({ userId: u.id, body: "on the pull request" }),
      await row({ userId: u.id, subjectType: "issue", subjectId: issue.id, anchor: "comment-7", body: "on the issue <b>" }),
      await row({ userId: u.id, body: "again on the pull request" }),
    ];
    expect((await sendNotificationEmails(db, ids, 1)).digest).toHaveLength(3);
    const from = smtp.messages.length;
    const now = new Date();
    const out = await sendDigests(db, now);
    expect(out.failedUsers).toEqual([]);
    const mails = mailsTo("dig@example.com", from);
    expect(mails).toHaveLength(1);
    const m = mails[0]!;
    expect(smtp.header(m, "subject")).toMatch(/^\[svc\] Your daily digest: 3 notifications/);
    expect(smtp.header(m, "x-svc-reason")).toBe("digest");
    // grouped: the repository once, each subject once, both pull request events under it
    expect(m.text.split(base).length - 1).toBeGreaterThanOrEqual(1);
    expect(m.text.match(new RegExp(`^${base}$`, "gm"))).toHaveLength(1);
    expect(m.text.match(/Add <a> & more \(PR #\d+\)/g)).toHaveLength(1);
    expect(m.text).toMatch(/on the pull request[\s\S]*again on the pull request/);
    expect(m.text).toContain(`https://${HOST}/${base}/issues/${issue.number}#comment-7`);
    expect(m.html).toContain("on the issue &lt;b&gt;");
    for (const id of ids) expect((await state(id)).sentAt).not.toBeNull();
    // nothing twice
    await sendDigests(db, now);
    expect(mailsTo("dig@example.com", from)).toHaveLength(1);
    // the next run is waiting (a second enqueue with the singleton key is dropped)
    expect(await enqueue(NOTIFY_DIGEST, {}, { singletonKey: "digest" })).toBeNull();
    expect(nextDigestAt(new Date("2026-01-01T06:59:00Z")).toISOString()).toBe("2026-01-01T07:00:00.000Z");
    expect(nextDigestAt(new Date("2026-01-01T07:00:00Z")).toISOString()).toBe("2026-01-02T07:00:00.000Z");
  });
});

describe("failures", () => {
  it("a rejected send queues attempt+1 with backoff; after the last attempt the row is skipped", async () => {
    const db = await getDb();
    const id = await row({ userId: t.reader.user.id, body: "retry me" });
    smtp.reject = 451;
    try {
      const before = Date.now();
      const first = await sendNotificationEmails(db, [id], 1);
      expect(first.failed.map((f) => f.id)).toEqual([id]);
      expect(first.retry).toMatchObject({ attempt: 2 });
      expect(first.retry!.runAt.getTime()).toBeGreaterThanOrEqual(before + 60_000);
      const job = await getJob(NOTIFY_EMAIL, first.retry!.jobId!);
      expect(job).toMatchObject({ state: "created" });
      expect(job!.runAt.getTime()).toBe(first.retry!.runAt.getTime());
      expect(await state(id)).toMatchObject({ attempts: 1, sentAt: null, skippedAt: null });
      // the same attempt again (a job run twice) does not send or queue again
      expect((await sendNotificationEmails(db, [id], 1)).retry).toBeNull();
      for (let attempt = 2; attempt < MAX_ATTEMPTS; attempt++)
        expect((await sendNotificationEmails(db, [id], attempt)).retry?.attempt).toBe(attempt + 1);
      const last = await sendNotificationEmails(db, [id], MAX_ATTEMPTS);
      expect(last.retry).toBeNull();
      expect(last.skipped).toEqual([id]);
      expect(await state(id)).toMatchObject({ attempts: MAX_ATTEMPTS, sentAt: null });
      expect((await state(id)).skippedAt).not.toBeNull();
    } finally {
      smtp.reject = null;
    }
    expect(smtp.messages.some((m) => m.text.includes("retry me"))).toBe(false);
  });

  it("a receiver that is down is a failure too, and the next attempt sends", async () => {
    const db = await getDb();
    const down = await startSmtpReceiver();
    await down.close();
    useSmtp(down.url);
    const id = await row({ userId: t.reader.user.id, body: "after the outage" });
    try {
      const out = await sendNotificationEmails(db, [id], 1);
      expect(out.failed).toHaveLength(1);
      expect(out.failed[0]!.error).toMatch(/ECONNREFUSED|connect/i);
      expect(out.retry?.attempt).toBe(2);
    } finally {
      useSmtp(smtp.url);
    }
    expect((await sendNotificationEmails(db, [id], 2)).sent).toEqual([id]);
    expect(await state(id)).toMatchObject({ attempts: 2 });
  });
});

describe("settings procedures", () => {
  it("reads defaults, updates fields independently, refuses unknown reasons, and needs user:write to change", async () => {
    const u = await makeUser("set");
    const me = await callerFor(actorOf(u));
    expect(await me.users.notificationSettings()).toMatchObject({
      email: true,
      mutedReasons: [],
      dailyDigest: false,
      emailConfigured: true,
      address: null,
    });
    expect((await me.users.notificationSettings()).reasons.map((r) => r.id)).toContain("review_requested");
    await me.users.updateNotificationSettings({ mutedReasons: ["subscribed", "comment"] });
    expect(await me.users.updateNotificationSettings({ dailyDigest: true })).toMatchObject({
      email: true,
      mutedReasons: ["comment", "subscribed"],
      dailyDigest: true,
    });
    expect(await codeOf(me.users.updateNotificationSettings({ mutedReasons: ["nope" as "comment"] }))).toBe("BAD_REQUEST");
    expect(await codeOf(me.users.updateNotificationSettings({ mutedReasons: ["comment", "comment"] }))).toBe("BAD_REQUEST");
    const readOnly = await callerFor(actorOf(u, ["user:read"]));
    expect(await readOnly.users.notificationSettings()).toMatchObject({ dailyDigest: true });
    expect(await codeOf(readOnly.users.updateNotificationSettings({ email: false }))).toBe("FORBIDDEN");
    expect(await codeOf((await callerFor(actorOf(u, ["repo:read"]))).users.notificationSettings())).toBe("FORBIDDEN");
    expect(await codeOf((await callerFor(null)).users.notificationSettings())).toBe("UNAUTHORIZED");
    expect(await (await callerFor(actorOf(u, ["user:write"]))).users.updateNotificationSettings({ email: false })).toMatchObject({
      email: false,
    });
  });

  it("without SMTP_URL the settings say email is off, stay editable, and queued rows are skipped", async () => {
    const u = await makeUser("nosmtp");
    useSmtp(undefined);
    try {
      const me = await callerFor(actorOf(u));
      expect(await me.users.notificationSettings()).toMatchObject({ emailConfigured: false });
      expect(await me.users.updateNotificationSettings({ dailyDigest: true })).toMatchObject({ dailyDigest: true, emailConfigured: false });
      const id = await row({ userId: t.reader.user.id });
      expect((await sendNotificationEmails(await getDb(), [id], 1)).skipped).toEqual([id]);
    } finally {
      useSmtp(smtp.url);
    }
  });
});
