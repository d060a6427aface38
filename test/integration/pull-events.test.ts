/**
 * Live updates of a pull request page (docs/pulls.md "Live updates"): GET /api/pulls/<id>/events
 * over real HTTP — authorization like the page, notices from the services after their commit, clean
 * close, no leaked listeners; and the Redis bus shared by two processes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeBus, listenerCount, publish, pullChannel, subscribe, subscribed } from "@/server/events/bus";
import { MAX_STREAMS_PER_USER, openStreamCount } from "@/server/http/pull-events";
import { closeSharedSlots } from "@/server/http/shared-slots";
import { makeToken, makeUser, serviceToken } from "../helpers";
import { revokeAllSessions } from "@/server/services/users/sessions";
import { revokeToken } from "@/server/services/tokens/manage-tokens";
import { getDb } from "@/server/db";
import { inTransaction } from "@/server/db/transaction";
import { recordPullEvent } from "@/server/services/pulls/events";
import { member, remoteOf, seededWorkTree, startGitServer, type Member, type Server, type WorkTree } from "./pulls-fixtures";
import { startRedisProxy } from "./redis-proxy";

let server: Server;
let owner: Member, writer: Member, stranger: Member;
let repo: { id: string; name: string };
let wt: WorkTree;
let prId: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An open event stream: `next(type)` waits (up to 5 s, or `limitMs`) for the next event of that type. `token`
 * is sent as Bearer, or as the session cookie when given as {cookie}.
 */
async function open(token: string | { cookie: string } | null, id = prId) {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/api/pulls/${id}/events`, {
    headers: !token
      ? {}
      : typeof token === "string"
        ? { authorization: `Bearer ${token}` }
        : { cookie: `next-auth.session-token=${token.cookie}` },
    signal: controller.signal,
  });
  const events: { type: string; data: Record<string, unknown> }[] = [];
  let buffer = "";
  const reading = (async () => {
    if (!res.ok || !res.body) return;
    const decoder = new TextDecoder();
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
          // notices all come as "update" events naming their type
          events.push({ type: name === "update" ? String(parsed.type) : name, data: parsed });
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    res,
    events,
    /** Resolves when the server ends the stream (or close() aborted it). */
    ended: reading,
    async next(type: string, limitMs = 5000) {
      for (let i = 0; i < limitMs / 20; i++) {
        const k = events.findIndex((e) => e.type === type);
        if (k >= 0) return events.splice(k, 1)[0];
        await sleep(20);
      }
      throw new Error(`no "${type}" event; got ${JSON.stringify(events)}`);
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !check(); i++) await sleep(20);
  expect(check()).toBe(true);
}

beforeAll(async () => {
  server = await startGitServer();
  [owner, writer, stranger] = await Promise.all([member("own"), member("wri"), member("str")]);
  repo = await owner.as.repos.create({ name: `ev${Math.random().toString(36).slice(2, 8)}`, isPrivate: true });
  await owner.as.repos.addCollaborator({ repoId: repo.id, username: writer.user.username, role: "write" });
  wt = await seededWorkTree(remoteOf(server, owner.token, owner.user.username, repo.name));
  await wt.run("checkout", "--quiet", "-b", "topic");
  const head = await wt.commit("a.txt", "a\n");
  await wt.push("topic");
  const pr = await writer.as.pulls.create({
    repoId: repo.id,
    title: "Topic",
    sourceBranch: "topic",
    targetBranch: "main",
    headSha: head,
    baseSha: await wt.sha("main"),
  });
  prId = pr.id;
});

afterAll(async () => {
  await server.close();
  await closeBus();
});

describe("GET /api/pulls/<id>/events", () => {
  it("sends ready, then what other people do (an edit, a push, a close) to every open page, after the commit", async () => {
    const [a, b] = await Promise.all([open(owner.token), open(writer.token)]);
    expect(a.res.status).toBe(200);
    expect(a.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await a.next("ready");
    await b.next("ready");

    await writer.as.pulls.update({ prId, title: "Topic, renamed" });
    const edited = await a.next("edited");
    expect(edited.data).toMatchObject({ type: "edited", actorId: writer.user.id });
    await b.next("edited");

    const sha = await wt.commit("b.txt", "b\n");
    await wt.push("topic");
    expect((await b.next("pushed")).data).toMatchObject({ type: "pushed" });
    expect((await owner.as.pulls.get({ repoId: repo.id, number: 1 })).headSha).toBe(sha);

    await owner.as.pulls.close({ prId });
    await a.next("closed");
    await owner.as.pulls.reopen({ prId });
    await a.next("reopened");

    // review collaboration: a comment and a review reach the other page
    await writer.as.pulls.addComment({ prId, body: "Looks right" });
    expect((await a.next("comment")).data).toMatchObject({ actorId: writer.user.id });
    await owner.as.pulls.addReview({ prId, state: "approved", commitSha: sha });
    await b.next("reviewed");
    await Promise.all([a.close(), b.close()]);
  });

  it("tells open pages when a thread is edited, resolved, unresolved or loses a comment; a pending comment's edit stays quiet", async () => {
    const page = await open(owner.token);
    await page.next("ready");
    const root = await writer.as.pulls.addComment({ prId, body: "Why a?", path: "a.txt", line: 1 });
    await page.next("comment");
    const reply = await owner.as.pulls.addComment({ prId, body: "Because", replyToId: root.id });
    await page.next("comment");

    // a pending comment is only its author's: editing it tells nobody
    const pending = await writer.as.pulls.addComment({ prId, body: "draft", path: "a.txt", line: 1, pending: true });
    await writer.as.pulls.updateComment({ commentId: pending.id, body: "draft, edited" });
    await writer.as.pulls.deleteComment({ commentId: pending.id });

    await writer.as.pulls.updateComment({ commentId: root.id, body: "Why a, really?" });
    expect((await page.next("comment_edited")).data).toMatchObject({ type: "comment_edited", actorId: writer.user.id });
    expect(page.events.some((e) => e.type === "comment_edited" || e.type === "comment_deleted")).toBe(false);
    await owner.as.pulls.resolveComment({ commentId: root.id });
    expect((await page.next("resolved")).data).toMatchObject({ actorId: owner.user.id });
    await writer.as.pulls.unresolveComment({ commentId: root.id });
    await page.next("unresolved");
    // write permission deletes someone else's reply; the author deletes their root
    await writer.as.pulls.deleteComment({ commentId: reply.id });
    expect((await page.next("comment_deleted")).data).toMatchObject({ actorId: writer.user.id });
    await writer.as.pulls.deleteComment({ commentId: root.id });
    await page.next("comment_deleted");
    await page.close();
  });

  it("answers like the page: 404 for a stranger, anonymous, a token without repo:read, and an unknown id", async () => {
    for (const token of [stranger.token, null]) {
      const s = await open(token);
      expect(s.res.status).toBe(404);
      expect(await s.res.json()).toEqual({ error: { code: "NOT_FOUND", message: "pull request not found" } });
    }
    const noRepo = await open(await makeToken(owner.user, ["user:read"]));
    expect(noRepo.res.status).toBe(403);
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const s = await open(owner.token, id);
      expect(s.res.status).toBe(404);
    }
    expect(openStreamCount()).toBe(0);
  });

  it("re-checks access on each notice: a removed collaborator's, a revoked token's or a signed-out session's stream ends without it", async () => {
    const db = await getDb();
    const [removed, revoked, signedOut] = await Promise.all([makeUser("rem"), makeUser("rev"), makeUser("out")]);
    for (const u of [removed, revoked, signedOut])
      await owner.as.repos.addCollaborator({ repoId: repo.id, username: u.username, role: "read" });
    const revokedToken = await makeToken(revoked, ["repo:read"]);
    const gone = await Promise.all([
      open(await makeToken(removed, ["repo:read"])),
      open(revokedToken),
      open({ cookie: await serviceToken(signedOut) }),
    ]);
    const ownerPage = await open(owner.token);
    for (const page of [ownerPage, ...gone]) await page.next("ready");
    const before = openStreamCount();

    await owner.as.repos.removeCollaborator({ repoId: repo.id, username: removed.username });
    await revokeToken(db, revoked.id, revokedToken.slice(0, 12));
    await revokeAllSessions(db, signedOut.id);
    await writer.as.pulls.addComment({ prId, body: "not for former readers" });
    await ownerPage.next("comment");
    // the three streams end (the server closes them), and none got the notice
    await Promise.race([Promise.all(gone.map((p) => p.ended)), sleep(5_000).then(() => expect.fail("streams stayed open"))]);
    for (const page of gone) expect(page.events).toEqual([]);
    await until(() => openStreamCount() === before - 3);

    // the remaining reader still gets later notices
    await writer.as.pulls.addComment({ prId, body: "still for the owner" });
    await ownerPage.next("comment");
    await ownerPage.close();
  });

  it("closes cleanly: 100 connect/disconnect cycles leave no listener and no open stream", async () => {
    const channel = pullChannel(prId);
    for (let i = 0; i < 100; i++) {
      const s = await open(owner.token);
      await s.next("ready");
      await s.close();
    }
    await until(() => openStreamCount() === 0 && listenerCount(channel) === 0);
  });

  it(`refuses more than ${MAX_STREAMS_PER_USER} open streams per user with 429`, async () => {
    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await open(writer.token));
    const extra = await open(writer.token);
    expect(extra.res.status).toBe(429);
    expect(extra.res.headers.get("retry-after")).toBe("30");
    await Promise.all(streams.map((s) => s.close()));
    await until(() => openStreamCount() === 0);
  });
});

describe("event streams over several processes (REDIS_URL)", () => {
  it(`the ${MAX_STREAMS_PER_USER}-stream cap per user holds over processes: one more in another process is 429 until one closes`, async () => {
    const saved = { url: process.env.REDIS_URL, prefix: process.env.REDIS_KEY_PREFIX };
    process.env.REDIS_URL = "redis://127.0.0.1:6379";
    process.env.REDIS_KEY_PREFIX = `svctest${Math.random().toString(36).slice(2, 8)}`;
    const streams: Awaited<ReturnType<typeof open>>[] = [];
    vi.resetModules();
    // "another process": its own copy of the endpoint, its counts and its Redis connections
    const other = await import("@/server/http/pull-events");
    const otherBus = await import("@/server/events/bus");
    const otherSlots = await import("@/server/http/shared-slots");
    const request = (signal?: AbortSignal) =>
      new Request(`${server.url}/api/pulls/${prId}/events`, { headers: { authorization: `Bearer ${writer.token}` }, signal });
    try {
      for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await open(writer.token));
      expect(streams.every((s) => s.res.status === 200)).toBe(true);
      const refused = await other.pullEvents(request(), prId);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("30");
      await streams.pop()!.close();
      const leave = new AbortController();
      // the closed stream's slot is removed from Redis as it ends
      let admitted = await other.pullEvents(request(leave.signal), prId);
      for (let i = 0; i < 250 && admitted.status !== 200; i++) {
        await sleep(20);
        admitted = await other.pullEvents(request(leave.signal), prId);
      }
      expect(admitted.status).toBe(200);
      leave.abort();
      await admitted.body?.cancel();
    } finally {
      await Promise.all(streams.map((s) => s.close()));
      await until(() => openStreamCount() === 0);
      await otherBus.closeBus();
      await otherSlots.closeSharedSlots();
      await closeSharedSlots();
      await closeBus();
      if (saved.url === undefined) delete process.env.REDIS_URL;
      else process.env.REDIS_URL = saved.url;
      if (saved.prefix === undefined) delete process.env.REDIS_KEY_PREFIX;
      else process.env.REDIS_KEY_PREFIX = saved.prefix;
    }
  });
});

describe("the live-update bus", () => {
  it("tells listeners only after the commit, and nothing of a rolled-back transaction", async () => {
    const db = await getDb();
    const got: string[] = [];
    const stop = subscribe(pullChannel(prId), (e) => got.push(e.type));
    await expect(
      inTransaction(db, async (tx) => {
        await recordPullEvent(tx, prId, "edited", { field: "title" }, null);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await inTransaction(db, async (tx) => {
      await recordPullEvent(tx, prId, "closed", {}, null);
      await sleep(50);
      expect(got).toEqual([]); // not before the commit
    });
    await until(() => got.length > 0);
    expect(got).toEqual(["closed"]);
    stop();
  });

  it("with REDIS_URL, a notice published in one process reaches listeners in another (Redis pub/sub)", async () => {
    const prefix = `svctest${Math.random().toString(36).slice(2, 8)}`;
    const saved = { url: process.env.REDIS_URL, prefix: process.env.REDIS_KEY_PREFIX };
    process.env.REDIS_URL = "redis://127.0.0.1:6379";
    process.env.REDIS_KEY_PREFIX = prefix;
    try {
      const got: string[] = [];
      const stop = subscribe("pull:x", (e) => got.push(e.type));
      await subscribed("pull:x");
      // "another process": a raw Redis client publishing as svc does
      const { Redis } = await import("ioredis");
      const other = new Redis("redis://127.0.0.1:6379");
      await other.publish(`${prefix}:live:pull:x`, JSON.stringify({ type: "comment", at: new Date().toISOString() }));
      publish("pull:x", { type: "review" });
      await until(() => got.length === 2);
      expect(got.sort()).toEqual(["comment", "review"]);
      stop();
      expect(listenerCount("pull:x")).toBe(0);
      await other.quit();
    } finally {
      await closeBus();
      if (saved.url === undefined) delete process.env.REDIS_URL;
      else process.env.REDIS_URL = saved.url;
      if (saved.prefix === undefined) delete process.env.REDIS_KEY_PREFIX;
      else process.env.REDIS_KEY_PREFIX = saved.prefix;
    }
  });

  it("with REDIS_URL and Redis cut, the stream says `degraded` and sends `resync` when Redis is back (issue #21 item 2)", async () => {
    const proxy = await startRedisProxy();
    const saved = { url: process.env.REDIS_URL, prefix: process.env.REDIS_KEY_PREFIX };
    process.env.REDIS_URL = proxy.url;
    process.env.REDIS_KEY_PREFIX = `svctest${Math.random().toString(36).slice(2, 8)}`;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {}); // the outage and recovery lines
    try {
      await closeBus();
      const page = await open(owner.token);
      await page.next("ready");
      await subscribed(pullChannel(prId));
      await proxy.cut();
      const degraded = await page.next("degraded");
      expect(degraded.data).toMatchObject({ shared: false, message: expect.stringMatching(/other server processes/) });
      // this process's own notices still arrive
      await writer.as.pulls.addComment({ prId, body: "during the outage" });
      await page.next("comment");
      // a page opened during the outage is told at once
      const late = await open(owner.token);
      await late.next("ready");
      await late.next("degraded");
      await proxy.restore();
      for (const p of [page, late]) expect((await p.next("resync", 30_000)).data).toMatchObject({ type: "resync" });
      await Promise.all([page.close(), late.close()]);
      expect(warn.mock.calls.map((c) => String(c[0]).replace(/ [(].*/, ""))).toEqual([
        expect.stringMatching(/is unreachable$/),
        expect.stringMatching(/is reachable again after/),
      ]);
    } finally {
      warn.mockRestore();
      await closeBus();
      await proxy.close();
      if (saved.url === undefined) delete process.env.REDIS_URL;
      else process.env.REDIS_URL = saved.url;
      if (saved.prefix === undefined) delete process.env.REDIS_KEY_PREFIX;
      else process.env.REDIS_KEY_PREFIX = saved.prefix;
    }
  });
});
