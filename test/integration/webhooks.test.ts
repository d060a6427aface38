/**
 * Webhooks end to end (docs/api.md "Webhooks"): a real receiver on loopback checks every
 * delivery's HMAC signature and GitHub's headers; events come from real git pushes over HTTP and
 * the real routers; deliveries are sent by the job worker in this process (polled, no sleeps),
 * and a retry is driven by calling the delivery attempt directly.
 */
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { enqueue, getJob, startJobWorker, stopJobWorker } from "@/server/jobs";
import { WEBHOOK_DELIVER, WEBHOOK_SWEEP } from "@/server/jobs/names";
import { registerJobHandlers } from "@/server/jobs/handlers";
import { deliverWebhook, MAX_ATTEMPTS } from "@/server/services/webhooks/deliver-webhook";
import { OVERDUE_MS, scheduleDeliverySweep, sweepDeliveries } from "@/server/services/webhooks/sweep-deliveries";
import { codeOf, team, type Team } from "./pulls-fixtures";

const SECRET = "s3cret-for-tests";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

let t: Team;
let receiver: HttpServer;
let receiverUrl: string;
const received: Received[] = [];
/** Statuses the receiver answers with next (then 200). */
const answers: number[] = [];
let hookId: string;
/** The open pull request the review events are sent for. */
let reviewPr: { id: string; number: number };

function verify(r: Received): void {
  const expected = `sha256=${createHmac("sha256", SECRET).update(r.body).digest("hex")}`;
  expect(r.headers["x-hub-signature-256"]).toBe(expected);
  expect(r.headers["x-hub-signature"]).toBe(`sha1=${createHmac("sha1", SECRET).update(r.body).digest("hex")}`);
  expect(r.headers["content-type"]).toBe("application/json");
  expect(r.headers["user-agent"]).toMatch(/^svc-Hookshot\//);
  expect(r.headers["x-github-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
  expect(r.headers["x-svc-event"]).toBe(r.headers["x-github-event"]);
}

/** Waits for a delivery of `event` (and `action`) the receiver got, verified. */
async function delivery(event: string, match: (j: Received["json"]) => boolean = () => true): Promise<Received> {
  let found: Received | undefined;
  await expect
    .poll(() => (found = received.find((r) => r.headers["x-github-event"] === event && match(r.json))), { timeout: 30_000, interval: 100 })
    .toBeTruthy();
  verify(found!);
  return found!;
}

beforeAll(async () => {
  process.env.SVC_WEBHOOK_ALLOW_PRIVATE_URLS = "1";
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ headers: req.headers, body, json: JSON.parse(body) as Received["json"] });
      res.writeHead(answers.shift() ?? 200, { "content-type": "text/plain", "x-receiver": "test" });
      res.end("thanks");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  t = await team("wh");
  registerJobHandlers();
  await startJobWorker({ concurrency: 2, pollIntervalMs: 100 });
  const hook = await t.owner.as.webhooks.create({ repoId: t.repo.id, url: receiverUrl, secret: SECRET, events: ["*"] });
  hookId = hook.id;
});

afterAll(async () => {
  delete process.env.SVC_WEBHOOK_ALLOW_PRIVATE_URLS;
  await stopJobWorker();
  await t.server.close();
  await new Promise((r) => receiver.close(r));
});

describe("webhooks", () => {
  it("creates a hook without ever returning its secret, and delivers a signed ping", async () => {
    const [listed] = await t.owner.as.webhooks.list({ repoId: t.repo.id });
    expect(listed).toMatchObject({ id: hookId, url: receiverUrl, events: ["*"], active: true, hasSecret: true, contentType: "json" });
    expect(JSON.stringify(listed)).not.toContain(SECRET);
    const ping = await delivery("ping");
    expect(ping.json).toMatchObject({
      hook_id: hookId,
      repository: { full_name: `${t.owner.user.username}/${t.repo.name}`, private: true },
    });
    expect(ping.json.sender.login).toBe(t.owner.user.username);
    await expect
      .poll(async () => (await t.owner.as.webhooks.deliveries({ repoId: t.repo.id, id: hookId }))[0]?.state, { timeout: 10_000 })
      .toBe("delivered");
    const [d] = await t.owner.as.webhooks.deliveries({ repoId: t.repo.id, id: hookId });
    expect(d).toMatchObject({ event: "ping", attempts: 1, response: { status: 200, body: "thanks" } });
    expect(d!.response.headers?.["x-receiver"]).toBe("test");
    expect(JSON.stringify(d)).not.toContain(SECRET);
  });

  it("sends push (and create) for a real git push over HTTP", async () => {
    const before = await t.wt.sha("main");
    const sha = await t.wt.commit("a.txt", "a\n", "add a");
    await t.wt.push("main");
    const push = await delivery("push", (j) => j.after === sha);
    expect(push.json).toMatchObject({ ref: "refs/heads/main", before, after: sha, created: false, deleted: false, forced: false });
    expect(push.json.commits).toEqual([
      expect.objectContaining({ id: sha, message: "add a", author: expect.objectContaining({ name: expect.any(String) }) }),
    ]);
    expect(push.json.repository.clone_url).toMatch(/\.git$/);
    await t.wt.run("checkout", "--quiet", "-b", "topic");
    await t.wt.commit("b.txt", "b\n", "add b");
    await t.wt.push("topic");
    const create = await delivery("create", (j) => j.ref === "topic");
    expect(create.json.ref_type).toBe("branch");
    await delivery("push", (j) => j.ref === "refs/heads/topic" && j.created === true);
  });

  it("sends status and check_run (created, then completed) for CI posting through the REST API", async () => {
    const sha = await t.wt.sha("main");
    const api = `${t.server.url}/api/v3/repos/${t.owner.user.username}/${t.repo.name}`;
    const post = (path: string, body: unknown, method = "POST") =>
      fetch(`${api}${path}`, {
        method,
        headers: { authorization: `token ${t.writer.token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as { id: number } }));
    const status = await post(`/statuses/${sha}`, { state: "success", context: "ci/build", description: "green" });
    expect(status.status).toBe(201);
    const s = await delivery("status", (j) => j.id === status.json.id);
    expect(s.json).toMatchObject({ sha, state: "success", context: "ci/build", description: "green", commit: { sha } });
    expect(s.json.name).toBe(`${t.owner.user.username}/${t.repo.name}`);
    expect(s.json.sender.login).toBe(t.writer.user.username);
    expect(s.json.action).toBeUndefined();

    const run = await post("/check-runs", { name: "tests", head_sha: sha, status: "in_progress" });
    expect(run.status).toBe(201);
    const created = await delivery("check_run", (j) => j.action === "created" && j.check_run.id === run.json.id);
    expect(created.json.check_run).toMatchObject({ name: "tests", head_sha: sha, status: "in_progress" });
    expect((await post(`/check-runs/${run.json.id}`, { conclusion: "failure" }, "PATCH")).status).toBe(200);
    const done = await delivery("check_run", (j) => j.action === "completed" && j.check_run.id === run.json.id);
    expect(done.json.check_run).toMatchObject({ status: "completed", conclusion: "failure" });
  });

  it("sends pull_request opened and closed (merged), issues opened and issue_comment created", async () => {
    const main = await t.wt.sha("main");
    const head = await t.wt.sha("topic");
    const pr = await t.owner.as.pulls.create({
      repoId: t.repo.id,
      title: "Topic",
      sourceBranch: "topic",
      targetBranch: "main",
      headSha: head,
      baseSha: main,
    });
    const opened = await delivery("pull_request", (j) => j.action === "opened");
    expect(opened.json.pull_request).toMatchObject({
      number: pr.number,
      state: "open",
      draft: false,
      merged: false,
      head: { ref: "topic", sha: head },
      base: { ref: "main" },
    });
    const merged = await t.owner.as.pulls.merge({ prId: pr.id, strategy: "merge" });
    const closed = await delivery("pull_request", (j) => j.action === "closed");
    expect(closed.json.pull_request).toMatchObject({ number: pr.number, state: "closed", merged: true, merge_commit_sha: merged.mergeSha });
    await delivery("push", (j) => j.after === merged.mergeSha);

    const issue = await t.owner.as.issues.create({ repoId: t.repo.id, title: "Bug" });
    const issueOpened = await delivery("issues", (j) => j.action === "opened");
    expect(issueOpened.json.issue).toMatchObject({ number: issue.number, title: "Bug", state: "open" });
    await t.writer.as.issues.addComment({ repoId: t.repo.id, number: issue.number, body: "me too" });
    const comment = await delivery("issue_comment", (j) => j.action === "created");
    expect(comment.json).toMatchObject({
      issue: { number: issue.number },
      comment: { body: "me too", user: { login: t.writer.user.username } },
    });
  });

  it("sends issue_comment edited (changes.body.from) and deleted, for issues and a pull request's conversation", async () => {
    const issue = await t.owner.as.issues.create({ repoId: t.repo.id, title: "Comment churn" });
    const c = await t.writer.as.issues.addComment({ repoId: t.repo.id, number: issue.number, body: "first words" });
    await t.writer.as.issues.updateComment({ commentId: c.id, body: "second words" });
    const edited = await delivery("issue_comment", (j) => j.action === "edited" && j.comment.id === c.id);
    expect(edited.json).toMatchObject({
      issue: { number: issue.number },
      comment: { body: "second words", user: { login: t.writer.user.username } },
      changes: { body: { from: "first words" } },
      sender: { login: t.writer.user.username },
    });
    await t.owner.as.issues.deleteComment({ commentId: c.id });
    const deleted = await delivery("issue_comment", (j) => j.action === "deleted" && j.comment.id === c.id);
    expect(deleted.json).toMatchObject({ comment: { body: "second words" }, sender: { login: t.owner.user.username } });
    expect(deleted.json.changes).toBeUndefined();

    await t.wt.run("checkout", "--quiet", "-b", "review-me", "main");
    const head = await t.wt.commit("r.txt", "one\ntwo\n", "add r");
    await t.wt.push("review-me");
    const pr = await t.owner.as.pulls.create({
      repoId: t.repo.id,
      title: "Review me",
      sourceBranch: "review-me",
      targetBranch: "main",
      headSha: head,
      baseSha: await t.wt.sha("main"),
    });
    reviewPr = pr;
    const talk = await t.writer.as.pulls.addComment({ prId: pr.id, body: "looks fine" });
    await t.writer.as.pulls.updateComment({ commentId: talk.id, body: "looks great" });
    const prEdited = await delivery("issue_comment", (j) => j.action === "edited" && j.comment.id === talk.id);
    expect(prEdited.json).toMatchObject({
      issue: { number: pr.number, pull_request: expect.any(Object) },
      comment: { body: "looks great" },
      changes: { body: { from: "looks fine" } },
    });
    await t.writer.as.pulls.deleteComment({ commentId: talk.id });
    await delivery("issue_comment", (j) => j.action === "deleted" && j.comment.id === talk.id);
  });

  it("sends pull_request_review_comment edited and deleted, and pull_request_review dismissed", async () => {
    const head = await t.wt.sha("review-me");
    const pr = reviewPr;
    const line = await t.writer.as.pulls.addComment({
      prId: pr.id,
      body: "why two?",
      path: "r.txt",
      line: 2,
      side: "RIGHT",
      commitSha: head,
    });
    await delivery("pull_request_review_comment", (j) => j.action === "created" && j.comment.id === line.id);
    await t.writer.as.pulls.updateComment({ commentId: line.id, body: "why 2?" });
    const edited = await delivery("pull_request_review_comment", (j) => j.action === "edited" && j.comment.id === line.id);
    expect(edited.json).toMatchObject({
      comment: { body: "why 2?", path: "r.txt", line: 2 },
      changes: { body: { from: "why two?" } },
      pull_request: { number: pr.number },
    });
    await t.owner.as.pulls.deleteComment({ commentId: line.id });
    const deleted = await delivery("pull_request_review_comment", (j) => j.action === "deleted" && j.comment.id === line.id);
    expect(deleted.json).toMatchObject({ comment: { body: "why 2?", path: "r.txt" }, sender: { login: t.owner.user.username } });

    // a pending comment sends nothing until its review is submitted, then "created"
    const draft = await t.writer.as.pulls.addComment({
      prId: pr.id,
      body: "held for the review",
      path: "r.txt",
      line: 1,
      side: "RIGHT",
      commitSha: head,
      pending: true,
    });
    const review = await t.writer.as.pulls.addReview({ prId: pr.id, state: "approved", commitSha: head });
    await delivery("pull_request_review", (j) => j.action === "submitted" && j.review.id === review.id);
    const published = await delivery("pull_request_review_comment", (j) => j.action === "created" && j.comment.id === draft.id);
    expect(published.json).toMatchObject({ comment: { body: "held for the review", path: "r.txt" }, pull_request: { number: pr.number } });
    expect(received.filter((r) => r.json.action === "created" && r.json.comment?.id === draft.id)).toHaveLength(1);
    await t.owner.as.pulls.dismissReview({ reviewId: review.id, reason: "needs another look" });
    const dismissed = await delivery("pull_request_review", (j) => j.action === "dismissed" && j.review.id === review.id);
    expect(dismissed.json).toMatchObject({
      review: { state: "dismissed", user: { login: t.writer.user.username } },
      pull_request: { number: pr.number, state: "open" },
      sender: { login: t.owner.user.username },
    });
  });

  it("retries a 5xx and then records the success; redeliver sends the same body with a new guid", async () => {
    const db = await getDb();
    answers.push(500);
    const count = received.length;
    await t.owner.as.issues.create({ repoId: t.repo.id, title: "Retry me" });
    await delivery("issues", (j) => j.issue.title === "Retry me");
    const row = async () =>
      (await db.webhookDelivery.findMany({ where: { webhookId: hookId, event: "issues" }, orderBy: { createdAt: "desc" }, take: 1 }))[0]!;
    await expect.poll(async () => (await row()).responseStatus, { timeout: 10_000 }).toBe(500);
    const failed = await row();
    expect(failed).toMatchObject({ state: "pending", responseStatus: 500 });
    expect(failed.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await deliverWebhook(db, failed.id, 2)).toBe("delivered"); // the queued attempt 2, run now
    expect(await deliverWebhook(db, failed.id, 2)).toBe("skipped"); // the job's own run finds it done
    expect(received.length).toBe(count + 2);
    expect(received.at(-2)!.body).toBe(received.at(-1)!.body);

    const again = await t.owner.as.webhooks.redeliver({ repoId: t.repo.id, deliveryId: failed.id });
    expect(again.guid).not.toBe(failed.guid);
    let redelivered: Received | undefined;
    await expect
      .poll(() => (redelivered = received.find((r) => r.headers["x-github-delivery"] === again.guid)), { timeout: 30_000 })
      .toBeTruthy();
    verify(redelivered!);
    expect(redelivered!.body).toBe(failed.requestBody);
  });

  it("sweeps deliveries left pending without a job; two sweeps and a duplicate job send each once", async () => {
    const db = await getDb();
    const template = await db.webhookDelivery.findFirstOrThrow({ where: { webhookId: hookId, event: "issues" } });
    const later = Date.now() + OVERDUE_MS + 30_000; // the sweep's clock: past the bound, inside a new attempt's lease
    /** A pending delivery as a process that stopped would leave it (no job queued). */
    const orphan = (data: { attempts?: number; nextAttemptAt?: Date | null } = {}, guid = randomUUID()) =>
      db.webhookDelivery.create({
        data: {
          webhookId: hookId,
          guid,
          event: template.event,
          action: template.action,
          requestHeaders: JSON.stringify({ ...(JSON.parse(template.requestHeaders) as object), "X-GitHub-Delivery": guid }),
          requestBody: template.requestBody,
          ...data,
        },
      });
    const fresh = await orphan(); // committed, never queued
    const lost = await orphan({ attempts: 1, nextAttemptAt: new Date() }); // attempt 1 died in flight (its lease)
    const lastLost = await orphan({ attempts: MAX_ATTEMPTS, nextAttemptAt: new Date() });
    const scheduled = await orphan({ attempts: 1, nextAttemptAt: new Date(later + 3_600_000) }); // a retry not yet due

    // nothing is overdue on the real clock yet
    const early = await sweepDeliveries(db);
    expect(early.queued).toEqual([]);

    const [a, b, direct1, direct2] = await Promise.all([
      sweepDeliveries(db, later),
      sweepDeliveries(db, later),
      deliverWebhook(db, fresh.id, 1),
      deliverWebhook(db, fresh.id, 1),
    ]);
    expect([direct1, direct2].filter((r) => r === "delivered").length).toBeLessThanOrEqual(1);
    expect(a.failed + b.failed).toBe(1);
    const jobs = [...a.queued, ...b.queued];
    expect(jobs.length).toBeGreaterThanOrEqual(1); // lost's attempt 2, and fresh's attempt 1 unless a direct call claimed it first
    await expect
      .poll(async () => (await Promise.all(jobs.map((id) => getJob(WEBHOOK_DELIVER, id)))).every((j) => j?.state === "completed"), {
        timeout: 30_000,
      })
      .toBe(true);
    const rows = await db.webhookDelivery.findMany({ where: { id: { in: [fresh.id, lost.id, lastLost.id, scheduled.id] } } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(fresh.id)).toMatchObject({ state: "delivered", attempts: 1 });
    expect(byId.get(lost.id)).toMatchObject({ state: "delivered", attempts: 2 });
    expect(byId.get(lastLost.id)).toMatchObject({ state: "failed", attempts: MAX_ATTEMPTS });
    expect(byId.get(scheduled.id)).toMatchObject({ state: "pending", attempts: 1 });
    for (const { guid } of [fresh, lost]) expect(received.filter((r) => r.headers["x-github-delivery"] === guid)).toHaveLength(1);
    expect(received.some((r) => r.headers["x-github-delivery"] === lastLost.guid)).toBe(false);
    await db.webhookDelivery.delete({ where: { id: scheduled.id } });

    // each server queues the sweep when its worker starts; one waits at a time
    await scheduleDeliverySweep();
    expect(await enqueue(WEBHOOK_SWEEP, {}, { singletonKey: "webhooks" })).toBeNull();
  });

  it("refuses loopback and private URLs without SVC_WEBHOOK_ALLOW_PRIVATE_URLS, also when delivering", async () => {
    delete process.env.SVC_WEBHOOK_ALLOW_PRIVATE_URLS;
    try {
      for (const url of [
        "http://127.0.0.1:9/x",
        "http://localhost/x",
        "http://10.0.0.1/",
        "http://[::1]/",
        "http://169.254.169.254/latest",
      ]) {
        expect(await codeOf(t.owner.as.webhooks.create({ repoId: t.repo.id, url, events: ["push"] })), url).toBe("BAD_REQUEST");
      }
      // a hook saved while allowed is refused where the connection is made
      const db = await getDb();
      const [d] = await db.webhookDelivery.findMany({ where: { webhookId: hookId }, take: 1, select: { id: true } });
      const again = await t.owner.as.webhooks.redeliver({ repoId: t.repo.id, deliveryId: d!.id });
      await expect
        .poll(async () => (await db.webhookDelivery.findUniqueOrThrow({ where: { id: again.id } })).state, { timeout: 10_000 })
        .toBe("failed");
      const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: again.id } });
      expect(row.error).toMatch(/loopback/);
      expect(row.responseStatus).toBeNull();
    } finally {
      process.env.SVC_WEBHOOK_ALLOW_PRIVATE_URLS = "1";
    }
  });

  it("is for repository admins only: a writer is FORBIDDEN, a stranger NOT_FOUND", async () => {
    expect(await codeOf(t.writer.as.webhooks.list({ repoId: t.repo.id }))).toBe("FORBIDDEN");
    expect(await codeOf(t.stranger.as.webhooks.list({ repoId: t.repo.id }))).toBe("NOT_FOUND");
    expect(await codeOf(t.writer.as.webhooks.create({ repoId: t.repo.id, url: receiverUrl, events: ["push"] }))).toBe("FORBIDDEN");
    const updated = await t.owner.as.webhooks.update({ repoId: t.repo.id, id: hookId, secret: "", active: false });
    expect(updated).toMatchObject({ hasSecret: false, active: false });
    await t.owner.as.webhooks.delete({ repoId: t.repo.id, id: hookId });
    expect(await t.owner.as.webhooks.list({ repoId: t.repo.id })).toEqual([]);
  });
});
