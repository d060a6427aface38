/**
 * Notifications of pull request activity (docs/notifications.md): opened, review requested,
 * review, conversation and line comments, push to the head, failing CI on the head, close and
 * merge; and the fan-out's bulk bound (the same number of statements for 1 and 50 recipients).
 * Real git pushes over HTTP and the real routers; the fan-out job runs in this process's worker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { fanOutNotification } from "@/server/services/notifications/fan-out";
import { makeUser } from "../helpers";
import { cloneOf, remoteOf, team, type Team, type WorkTree } from "./pulls-fixtures";
import { countingDb, type CountingDb } from "./query-count";
import { drain, startWorker, stopWorker, threadsOf } from "./notifications-fixtures";

let t: Team;
let writerWt: WorkTree;
let counting: CountingDb;

beforeAll(async () => {
  await startWorker();
  t = await team("nt");
  writerWt = await cloneOf(remoteOf(t.server, t.writer.token, t.owner.user.username, t.repo.name));
  counting = await countingDb();
});
afterAll(async () => {
  await stopWorker();
  await counting.close();
  await t.server.close();
});

/** A pull request by the writer from new branch `name` into main. */
async function openPull(name: string, body = "") {
  await writerWt.run("fetch", "--quiet", "origin");
  await writerWt.run("checkout", "--quiet", "-B", name, "origin/main");
  const head = await writerWt.commit(`${name}.txt`, `${name}\n`);
  await writerWt.push(name);
  return t.writer.as.pulls.create({
    repoId: t.repo.id,
    title: name,
    body,
    sourceBranch: name,
    targetBranch: "main",
    headSha: head,
    baseSha: await writerWt.sha("origin/main"),
  });
}

describe("pull request reasons", () => {
  it("opened (mention), review_requested, review, comments, push, ci_failed, state_change", async () => {
    const pr = await openPull("feat-a", `please look @${t.reader.user.username}`);
    await drain();
    expect((await threadsOf(t.reader.user.id)).get(pr.id)?.reason).toBe("mention");
    expect((await threadsOf(t.writer.user.id)).has(pr.id)).toBe(false); // the actor

    await t.writer.as.pulls.requestReview({ prId: pr.id, reviewerId: t.reader2.user.id });
    await drain();
    expect((await threadsOf(t.reader2.user.id)).get(pr.id)).toMatchObject({ reason: "review_requested", unread: true });

    const review = await t.reader2.as.pulls.addReview({ prId: pr.id, state: "commented", body: "some notes", commitSha: pr.headSha });
    await drain();
    expect((await threadsOf(t.writer.user.id)).get(pr.id)).toMatchObject({ reason: "author", lastAnchor: `review-${review.id}` });

    const line = await t.owner.as.pulls.addComment({ prId: pr.id, body: "nit", path: "feat-a.txt", line: 1, commitSha: pr.headSha });
    await drain();
    expect((await threadsOf(t.writer.user.id)).get(pr.id)?.lastAnchor).toBe(`comment-${line.id}`);
    expect((await threadsOf(t.reader2.user.id)).get(pr.id)?.reason).toBe("review_requested"); // still the most specific

    const db = await getDb();
    await db.notification.updateMany({ where: { subjectId: pr.id }, data: { unread: false } });
    await t.reader.as.pulls.addComment({ prId: pr.id, body: "conversation comment" });
    await drain();
    expect((await threadsOf(t.owner.user.id)).get(pr.id)).toMatchObject({ reason: "comment", unread: true });

    // a push to the head: participants hear of it
    await db.notification.updateMany({ where: { subjectId: pr.id }, data: { unread: false } });
    await writerWt.commit("feat-a.txt", "v2\n");
    await writerWt.push("feat-a");
    await drain();
    await expect.poll(async () => (await threadsOf(t.owner.user.id)).get(pr.id)?.unread, { timeout: 30_000, interval: 50 }).toBe(true);
    await drain();

    // a failing status on the head: the author, even though it is their own token
    const head = (await db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).headSha;
    await db.notification.deleteMany({ where: { subjectId: pr.id } });
    const res = await fetch(`${t.server.url}/api/v3/repos/${t.owner.user.username}/${t.repo.name}/statuses/${head}`, {
      method: "POST",
      headers: { authorization: `token ${t.writer.token}`, "content-type": "application/json" },
      body: JSON.stringify({ state: "failure", context: "ci" }),
    });
    expect(res.status).toBe(201);
    await drain();
    expect((await threadsOf(t.writer.user.id)).get(pr.id)?.reason).toBe("ci_failed");
    expect((await threadsOf(t.reader2.user.id)).has(pr.id)).toBe(false);

    await t.owner.as.pulls.close({ prId: pr.id });
    await drain();
    expect((await threadsOf(t.reader.user.id)).get(pr.id)?.reason).toBe("state_change");
    expect((await threadsOf(t.writer.user.id)).get(pr.id)?.reason).toBe("author"); // more specific than ci_failed
  });
});

describe("bulk bound", () => {
  it("the fan-out runs the same number of statements for 1 and for 50 recipients", async () => {
    const db = await getDb();
    const pr = await openPull("bulk");
    await drain();
    const watchers = await Promise.all(Array.from({ length: 50 }, () => makeUser("w")));
    await db.collaborator.createMany({ data: watchers.map((u) => ({ repoId: t.repo.id, userId: u.id, role: "read" })) });
    const event = (body: string) => ({
      repoId: t.repo.id,
      subjectType: "pull_request" as const,
      subjectId: pr.id,
      kind: "comment" as const,
      actorId: t.owner.user.id,
      at: new Date().toISOString(),
      body,
    });
    await db.repoWatch.create({ data: { userId: watchers[0].id, repoId: t.repo.id, level: "all" } });
    let one = 0;
    const q1 = await counting.count(async () => (one = await fanOutNotification(counting.db, event("x"))));
    await db.repoWatch.createMany({ data: watchers.slice(1).map((u) => ({ userId: u.id, repoId: t.repo.id, level: "all" })) });
    let fifty = 0;
    const q50 = await counting.count(async () => (fifty = await fanOutNotification(counting.db, event("y"))));
    expect(fifty - one).toBe(49);
    expect(q50).toBe(q1);
    expect(
      await db.notification.count({ where: { subjectId: pr.id, userId: { in: watchers.map((u) => u.id) }, reason: "subscribed" } }),
    ).toBe(50);
  });
});
