/**
 * Notifications of issue activity (docs/notifications.md): each reason, watch levels,
 * unsubscribing, private repositories, and the API (list, marks, unread count). Events go
 * through the real routers; the fan-out job runs in this process's worker (drained, no sleeps).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { actorOf, callerFor, makeUser } from "../helpers";
import { issueWorld, codeOf, type IssueWorld } from "./issues-fixtures";
import { drain, startWorker, stopWorker, threadsOf } from "./notifications-fixtures";

let w: IssueWorld;

beforeAll(async () => {
  await startWorker();
  w = await issueWorld();
});
afterAll(stopWorker);

/** A new issue by `as` (default the owner) with `body`; its id and number. */
async function newIssue(body = "", as = w.as.owner): Promise<{ id: string; number: number }> {
  const i = await as.issues.create({ repoId: w.repoId, title: `t${Math.random()}`, body });
  return { id: i.id, number: i.number };
}

describe("reasons", () => {
  it("mention: the mentioned reader, not the actor nor a stranger who cannot read the private repository", async () => {
    const issue = await newIssue(`cc @${w.reader.username} @${w.stranger.username} @${w.owner.username} \`@${w.writer.username}\``);
    await drain();
    expect((await threadsOf(w.reader.id)).get(issue.id)).toMatchObject({ reason: "mention", unread: true, done: false });
    expect((await threadsOf(w.stranger.id)).has(issue.id)).toBe(false);
    expect((await threadsOf(w.owner.id)).has(issue.id)).toBe(false); // the actor
    expect((await threadsOf(w.writer.id)).has(issue.id)).toBe(false); // in a code span
  });

  it("author and comment: a comment notifies the author and earlier commenters, anchored to the comment", async () => {
    const issue = await newIssue();
    await w.as.reader.issues.addComment({ repoId: w.repoId, number: issue.number, body: "first" });
    await drain();
    expect((await threadsOf(w.owner.id)).get(issue.id)?.reason).toBe("author");
    const c = await w.as.writer.issues.addComment({ repoId: w.repoId, number: issue.number, body: "second" });
    await drain();
    expect((await threadsOf(w.reader.id)).get(issue.id)).toMatchObject({ reason: "comment", lastAnchor: `comment-${c.id}` });
    expect((await threadsOf(w.owner.id)).get(issue.id)).toMatchObject({ reason: "author", lastAnchor: `comment-${c.id}` });
    expect((await threadsOf(w.writer.id)).has(issue.id)).toBe(false);
  });

  it("assigned: the new assignee; the reason stays the most specific on later activity", async () => {
    const issue = await newIssue();
    await w.as.owner.issues.update({ issueId: issue.id, assigneeId: w.writer.id });
    await drain();
    expect((await threadsOf(w.writer.id)).get(issue.id)?.reason).toBe("assigned");
    await w.as.reader.issues.addComment({ repoId: w.repoId, number: issue.number, body: "hi" });
    await drain();
    expect((await threadsOf(w.writer.id)).get(issue.id)?.reason).toBe("assigned");
  });

  it("state_change: closing notifies commenters with state_change and the author", async () => {
    const issue = await newIssue("", w.as.writer);
    await w.as.reader.issues.addComment({ repoId: w.repoId, number: issue.number, body: "me too" });
    await drain();
    await (await getDb()).notification.deleteMany({ where: { subjectId: issue.id } });
    await w.as.owner.issues.close({ repoId: w.repoId, number: issue.number });
    await drain();
    expect((await threadsOf(w.reader.id)).get(issue.id)?.reason).toBe("state_change");
    expect((await threadsOf(w.writer.id)).get(issue.id)?.reason).toBe("author");
  });
});

describe("watching and subscriptions", () => {
  it("watch all: every new issue notifies (subscribed); ignore: nothing, not even a mention", async () => {
    await w.as.reader.repos.watch({ repoId: w.repoId, level: "all" });
    await w.as.writer.repos.watch({ repoId: w.repoId, level: "ignore" });
    expect(
      (
        await w.as.reader.repos.get({
          owner: w.owner.username,
          name: (await w.as.owner.repos.list({})).find((r) => r.id === w.repoId)!.name,
        })
      ).watchLevel,
    ).toBe("all");
    const issue = await newIssue(`@${w.writer.username}`);
    await drain();
    expect((await threadsOf(w.reader.id)).get(issue.id)?.reason).toBe("subscribed");
    expect((await threadsOf(w.writer.id)).has(issue.id)).toBe(false);
    await w.as.reader.repos.watch({ repoId: w.repoId, level: "participating" });
    await w.as.writer.repos.watch({ repoId: w.repoId, level: "participating" });
    const quiet = await newIssue();
    await drain();
    expect((await threadsOf(w.reader.id)).has(quiet.id)).toBe(false);
  });

  it("unsubscribe: no more comments on the thread, but a mention still reaches; subscribe brings a thread in", async () => {
    const issue = await newIssue();
    const subject = { subjectType: "issue" as const, subjectId: issue.id };
    expect(await w.as.owner.notifications.subscription(subject)).toEqual({ subscribed: false, reason: "none" });
    expect(await w.as.owner.notifications.unsubscribe(subject)).toEqual({ subscribed: false, reason: "unsubscribed" });
    await w.as.reader.notifications.subscribe(subject);
    await w.as.writer.issues.addComment({ repoId: w.repoId, number: issue.number, body: "no one hears" });
    await drain();
    expect((await threadsOf(w.owner.id)).has(issue.id)).toBe(false);
    expect((await threadsOf(w.reader.id)).get(issue.id)?.reason).toBe("subscribed");
    await w.as.writer.issues.addComment({ repoId: w.repoId, number: issue.number, body: `@${w.owner.username} look` });
    await drain();
    expect((await threadsOf(w.owner.id)).get(issue.id)?.reason).toBe("mention");
    expect(await codeOf(w.as.stranger.notifications.subscribe(subject))).toBe("NOT_FOUND");
  });
});

describe("API", () => {
  it("list, unread count, mark read / unread / done, mark all read; a repository no longer readable disappears", async () => {
    const reader = await makeUser("nr");
    await w.as.owner.repos.addCollaborator({ repoId: w.repoId, username: reader.username, role: "read" });
    const me = await callerFor(actorOf(reader));
    const a = await newIssue(`@${reader.username} a`);
    const b = await newIssue(`@${reader.username} b`);
    await drain();
    expect(await me.notifications.unreadCount()).toEqual({ count: 2 });
    const list = await me.notifications.list({ filter: "unread" });
    expect(list.items.map((i) => i.subject.id)).toEqual([b.id, a.id]);
    expect(list.items[0]).toMatchObject({ reason: "mention", unread: true, subject: { type: "issue", number: b.number, state: "open" } });
    expect(list.items[0].url).toMatch(new RegExp(`/issues/${b.number}$`));
    await me.notifications.markRead({ ids: [list.items[0].id] });
    expect((await me.notifications.list({ filter: "unread" })).items.map((i) => i.subject.id)).toEqual([a.id]);
    expect((await me.notifications.list({ filter: "all" })).items).toHaveLength(2);
    await me.notifications.markUnread({ ids: [list.items[0].id] });
    await me.notifications.markDone({ ids: [list.items[1].id] });
    expect((await me.notifications.list({ filter: "all" })).items.map((i) => i.subject.id)).toEqual([b.id]);
    expect((await me.notifications.list({ filter: "participating" })).items.map((i) => i.subject.id)).toEqual([b.id]);
    // someone else's ids change nothing
    expect(await w.as.writer.notifications.markRead({ ids: [list.items[0].id] })).toEqual({ updated: 0 });
    expect(await me.notifications.markAllRead({})).toEqual({ updated: 1 });
    expect(await me.notifications.unreadCount()).toEqual({ count: 0 });
    // new activity brings a done thread back, unread
    await w.as.writer.issues.addComment({ repoId: w.repoId, number: a.number, body: `@${reader.username} again` });
    await drain();
    const again = await me.notifications.list({ filter: "unread" });
    expect(again.items.map((i) => i.subject.id)).toEqual([a.id]);
    expect(again.items[0].url).toMatch(/#comment-/);
    await w.as.owner.repos.removeCollaborator({ repoId: w.repoId, username: reader.username });
    expect((await me.notifications.list({ filter: "all" })).items).toEqual([]);
    expect(await me.notifications.unreadCount()).toEqual({ count: 0 });
  });
});

describe("repository deletion", () => {
  it("drops the repository's subscriptions and unsent notification emails with it", async () => {
    const repo = await w.as.owner.repos.create({ name: `gone-${Date.now()}` });
    const issue = await w.as.owner.issues.create({ repoId: repo.id, title: "t" });
    await w.as.owner.notifications.subscribe({ subjectType: "issue", subjectId: issue.id });
    const db = await getDb();
    const email = { userId: w.owner.id, subjectType: "issue", subjectId: issue.id, reason: "subscribed", event: "comment" };
    await db.notificationEmail.createMany({
      data: [
        { ...email, repoId: repo.id },
        { ...email, repoId: w.repoId },
      ],
    });
    await w.as.owner.repos.delete({ repoId: repo.id });
    expect(await db.notificationSubscription.count({ where: { repoId: repo.id } })).toBe(0);
    expect(await db.notificationEmail.count({ where: { repoId: repo.id } })).toBe(0);
    expect(await db.notificationEmail.count({ where: { repoId: w.repoId, subjectId: issue.id } })).toBe(1); // other repositories keep theirs
  });
});

describe("pages", () => {
  it("50 a page, newest activity first; nextCursor leads to the rest", async () => {
    const user = await makeUser("pg");
    await w.as.owner.repos.addCollaborator({ repoId: w.repoId, username: user.username, role: "read" });
    const t0 = Date.now();
    await (
      await getDb()
    ).notification.createMany({
      data: Array.from({ length: 55 }, (_, i) => ({
        userId: user.id,
        repoId: w.repoId,
        subjectType: "issue",
        subjectId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
        reason: "subscribed",
        lastActivityAt: new Date(t0 - i * 1000),
      })),
    });
    const me = await callerFor(actorOf(user));
    const first = await me.notifications.list({ filter: "all" });
    expect(first.items).toHaveLength(50);
    expect(first.items[0].subject).toMatchObject({ title: "(deleted)", number: null });
    expect(first.nextCursor).toBe(first.items[49].id);
    const rest = await me.notifications.list({ filter: "all", cursor: first.nextCursor! });
    expect(rest.items.map((i) => i.subject.id)).toEqual(
      Array.from({ length: 5 }, (_, i) => `00000000-0000-4000-8000-${String(50 + i).padStart(12, "0")}`),
    );
    expect(rest.nextCursor).toBeNull();
    expect(await me.notifications.unreadCount()).toEqual({ count: 55 });
  });
});
