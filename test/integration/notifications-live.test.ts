/**
 * Live notification notices (docs/notifications.md "Live updates"): GET /api/notifications/events
 * answers 401 signed out and streams `ready`, then a `notification` notice when the fan-out job
 * gives the user a thread and `notification_marked` when they mark it; and team mentions
 * (`@org/team` → team_mention for the team's members).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { resetConfig } from "@/server/config";
import { notificationEvents } from "@/server/http/notification-events";
import { actorOf, callerFor, makeToken, makeUser } from "../helpers";
import { drain, startWorker, stopWorker, threadsOf } from "./notifications-fixtures";

beforeAll(startWorker);
afterAll(stopWorker);

/** An open stream of `token`'s notices; `next(type)` waits for the next event of that type. */
async function open(token: string) {
  const controller = new AbortController();
  const res = await notificationEvents(
    new Request("http://127.0.0.1/api/notifications/events", { headers: { authorization: `Bearer ${token}` }, signal: controller.signal }),
  );
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const reading = (async () => {
    if (!res.ok || !res.body) return;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!name || !data) continue;
          const parsed = JSON.parse(data) as Record<string, unknown>;
          events.push({ type: name === "update" ? String(parsed.type) : name, data: parsed });
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    res,
    async next(type: string) {
      await expect.poll(() => events.some((e) => e.type === type), { timeout: 15_000, interval: 20 }).toBe(true);
      return events.splice(
        events.findIndex((e) => e.type === type),
        1,
      )[0];
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}

describe("GET /api/notifications/events", () => {
  it("401 signed out; ready, then a notice per new notification and per mark", async () => {
    const anonymous = await notificationEvents(new Request("http://127.0.0.1/api/notifications/events"));
    expect(anonymous.status).toBe(401);

    const [owner, peer] = await Promise.all([makeUser("lo"), makeUser("lp")]);
    const stream = await open(await makeToken(owner, ["repo:read"]));
    expect(stream.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect((await stream.next("ready")).data).toEqual({ userId: owner.id });

    const me = await callerFor(actorOf(owner));
    const repo = await me.repos.create({ name: `live${Date.now().toString(36)}`, isPrivate: false });
    const issue = await me.issues.create({ repoId: repo.id, title: "live" });
    await (await callerFor(actorOf(peer))).issues.addComment({ repoId: repo.id, number: issue.number, body: "ping" });
    await drain();
    const notice = await stream.next("notification");
    expect(notice.data).toMatchObject({
      actorId: peer.id,
      data: { repoId: repo.id, subjectType: "issue", number: issue.number, kind: "comment" },
    });
    expect(await me.notifications.unreadCount()).toEqual({ count: 1 });

    const [item] = (await me.notifications.list({})).items;
    await me.notifications.markRead({ ids: [item.id] });
    await stream.next("notification_marked");
    await stream.close();
  });
});

describe("team mentions", () => {
  it("@org/team notifies the team's members (team_mention); a mention of the member themself wins", async () => {
    const [owner, alice, bob] = await Promise.all([makeUser("to"), makeUser("ta"), makeUser("tb")]);
    const me = await callerFor(actorOf(owner));
    const org = await me.orgs.create({ name: `org${Date.now().toString(36)}` });
    const db = await getDb();
    const team = await db.team.create({ data: { orgId: org.id, name: "Core", slug: "core" } });
    await db.teamMember.createMany({ data: [alice, bob].map((u) => ({ teamId: team.id, userId: u.id })) });
    const repo = await me.repos.create({ name: `tm${Date.now().toString(36)}`, isPrivate: false });
    const issue = await me.issues.create({ repoId: repo.id, title: "teams", body: `cc @${org.name}/core and @${bob.username}` });
    await drain();
    expect((await threadsOf(alice.id)).get(issue.id)?.reason).toBe("team_mention");
    expect((await threadsOf(bob.id)).get(issue.id)?.reason).toBe("mention");
  });
});

describe("email outbox", () => {
  it("with SMTP configured, one NotificationEmail per recipient of each event (reason, event, anchor, body)", async () => {
    const [owner, peer] = await Promise.all([makeUser("eo"), makeUser("ep")]);
    const me = await callerFor(actorOf(owner));
    const repo = await me.repos.create({ name: `mail${Date.now().toString(36)}`, isPrivate: false });
    const issue = await me.issues.create({ repoId: repo.id, title: "mail" });
    await drain();
    process.env.SMTP_URL = "smtp://127.0.0.1:2525";
    resetConfig();
    try {
      const c = await (
        await callerFor(actorOf(peer))
      ).issues.addComment({ repoId: repo.id, number: issue.number, body: `hello @${owner.username}` });
      await drain();
      const rows = await (await getDb()).notificationEmail.findMany({ where: { subjectId: issue.id } });
      expect(rows).toEqual([
        expect.objectContaining({
          userId: owner.id,
          repoId: repo.id,
          subjectType: "issue",
          reason: "mention",
          event: "comment",
          actorId: peer.id,
          anchor: `comment-${c.id}`,
          body: `hello @${owner.username}`,
          sentAt: null,
        }),
      ]);
    } finally {
      delete process.env.SMTP_URL;
      resetConfig();
    }
  });
});
