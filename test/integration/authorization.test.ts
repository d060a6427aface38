/**
 * Security rules (docs/security.md): token scopes cap the repository permission services act with,
 * repos.list without repo:read answers as for an anonymous caller, read-only issues stay in
 * triage, session JWTs are revocable, and a malformed cookie of another name is ignored.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { resolveActor } from "@/server/auth/actor";
import { getAuthOptions } from "@/server/auth/next-auth";
import { getDb } from "@/server/db";
import { decode } from "next-auth/jwt";
import { getAuthSecret } from "@/server/config";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeToken, makeUser, serviceToken, startServer } from "../helpers";
import { outcome } from "../procedures";

const headers = (h: Record<string, string>) => ({ headers: new Headers(h) });

let owner: Profile;
let reader: Profile;
let repoId: string;
let privateRepoId: string;

beforeAll(async () => {
  owner = await makeUser("authz-owner");
  reader = await makeUser("authz-reader");
  const caller = await callerFor(actorOf(owner));
  repoId = (await caller.repos.create({ name: "open" })).id;
  privateRepoId = (await caller.repos.create({ name: "closed", isPrivate: true })).id;
  await caller.repos.addCollaborator({ repoId: privateRepoId, username: reader.username, role: "read" });
});

describe("a token's scopes cap the repository permission (item 1)", () => {
  it("a repo:read token of the admin cannot edit or delete other people's comments", async () => {
    const readerCaller = await callerFor(actorOf(reader));
    const issue = await (await callerFor(actorOf(owner))).issues.create({ repoId, title: "thread" });
    const comment = (await readerCaller.issues.addComment({ repoId, number: issue.number, body: "mine" })) as { id: string };
    const ownerReadToken = await callerFor(actorOf(owner, ["repo:read"]));
    await expect(ownerReadToken.issues.updateComment({ commentId: comment.id, body: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(ownerReadToken.issues.deleteComment({ commentId: comment.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // the same user with a repo:write token (or the session) may
    expect(
      await (await callerFor(actorOf(owner, ["repo:write"]))).issues.updateComment({ commentId: comment.id, body: "moderated" }),
    ).toMatchObject({ body: "moderated" });
    // the author may edit their own comment with any token that can comment
    expect(
      await (await callerFor(actorOf(reader, ["repo:read"]))).issues.updateComment({ commentId: comment.id, body: "mine, edited" }),
    ).toMatchObject({ body: "mine, edited" });
  });

  it("a repo:read token of the admin files into triage and cannot set status or assignee", async () => {
    const ownerReadToken = await callerFor(actorOf(owner, ["repo:read"]));
    await expect(ownerReadToken.issues.create({ repoId, title: "skip triage", status: "done" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(ownerReadToken.issues.create({ repoId, title: "assign", assigneeId: owner.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await ownerReadToken.issues.create({ repoId, title: "plain" })).toMatchObject({ status: "triage" });
    expect(await (await callerFor(actorOf(owner, ["repo:write"]))).issues.create({ repoId, title: "planned" })).toMatchObject({
      status: "backlog",
    });
  });

  it("repos.get reports the effective permission", async () => {
    const get = async (scopes?: ("repo:read" | "repo:write" | "repo:admin")[]) =>
      (await (await callerFor(actorOf(owner, scopes))).repos.get({ owner: owner.username, name: "open" })).permission;
    expect(await get(["repo:read"])).toBe("read");
    expect(await get(["repo:write"])).toBe("write");
    expect(await get(["repo:admin"])).toBe("admin");
    expect(await get()).toBe("admin");
  });
});

describe("repos.list without repo:read answers as for an anonymous caller (item 2)", () => {
  it("a user:read token lists no private repositories", async () => {
    const names = async (scopes?: ("user:read" | "repo:read" | "repo:write")[]) =>
      (await (await callerFor(actorOf(owner, scopes))).repos.list({ owner: owner.username }))
        .map((r) => `${r.name}:${r.permission}`)
        .sort();
    const anonymous = (await (await callerFor(null)).repos.list({ owner: owner.username })).map((r) => `${r.name}:${r.permission}`).sort();
    expect(await names(["user:read"])).toEqual(anonymous);
    expect(anonymous).toEqual(["open:read"]);
    expect(await names(["repo:read"])).toEqual(["closed:read", "open:read"]);
    expect(await names(["repo:write"])).toEqual(["closed:write", "open:write"]);
    expect(await names()).toEqual(["closed:admin", "open:admin"]);
  });
});

describe("triage means not yet accepted (item 3)", () => {
  it("refuses every planning field from read-only callers, naming it, and creates nothing", async () => {
    const caller = await callerFor(actorOf(reader));
    const ownerCaller = await callerFor(actorOf(owner));
    const parent = await ownerCaller.issues.create({ repoId: privateRepoId, title: "epic" });
    await ownerCaller.projects.create({ repoId: privateRepoId, name: "Roadmap" });
    const before = (await ownerCaller.issues.list({ repoId: privateRepoId, limit: 100 })).length;
    const attempts: Record<string, unknown> = {
      status: "todo",
      assigneeId: reader.id,
      parentNumber: parent.number,
      project: "Roadmap",
      cycle: 1,
      estimate: 5,
    };
    for (const [field, value] of Object.entries(attempts)) {
      await expect(caller.issues.create({ repoId: privateRepoId, title: `with ${field}`, [field]: value } as never)).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: expect.stringContaining(field),
      });
    }
    expect((await ownerCaller.issues.list({ repoId: privateRepoId, limit: 100 })).length).toBe(before);
    expect(await ownerCaller.issues.getSubIssueProgress({ repoId: privateRepoId, number: parent.number })).toMatchObject({ total: 0 });
    // createSubIssue agrees: read-only callers cannot create sub-issues at all
    expect(await outcome(caller, "issues.createSubIssue", { repoId: privateRepoId, parentNumber: parent.number, title: "child" })).toBe(
      "FORBIDDEN",
    );
    // what they may set: title, body, priority, labels, due date
    expect(
      await caller.issues.create({ repoId: privateRepoId, title: "a report", body: "steps", priority: "high", dueDate: "2027-01-01" }),
    ).toMatchObject({ status: "triage", priority: "high" });
  });
});

describe("session tokens are revocable (item 4)", () => {
  it("sign out everywhere revokes service tokens and cookies; PATs stay", async () => {
    const user = await makeUser("sessions");
    const first = await serviceToken(user);
    const second = await serviceToken(user);
    const pat = await makeToken(user, ["user:read"]);
    const actor = await resolveActor(headers({ authorization: `Bearer ${first}` }));
    expect(actor).toMatchObject({ via: "session", user: { id: user.id } });
    const viaSession = await callerFor(actor);
    expect((await viaSession.users.sessions()).map((s) => s.current).sort()).toEqual([false, true]);
    // a PAT cannot manage sessions, even with user:write
    await expect((await callerFor(actorOf(user, ["user:write"]))).users.signOutEverywhere()).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/personal access tokens/),
    });
    expect(await viaSession.users.signOutEverywhere()).toEqual({ revoked: 2 });
    for (const jwt of [first, second]) {
      await expect(resolveActor(headers({ authorization: `Bearer ${jwt}` }))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      expect(await resolveActor(headers({ cookie: `next-auth.session-token=${jwt}` }))).toBeNull();
    }
    expect(await resolveActor(headers({ authorization: `Bearer ${pat}` }))).toMatchObject({ via: "pat" });
  });

  it("revoking one session, and next-auth's sign-out event, end just that session", async () => {
    const user = await makeUser("signout");
    const keep = await serviceToken(user);
    const drop = await serviceToken(user);
    const caller = await callerFor(await resolveActor(headers({ authorization: `Bearer ${keep}` })));
    const dropSid = (await decode({ token: drop, secret: getAuthSecret() }))!.sid as string;
    expect(await caller.users.revokeSession({ sessionId: dropSid })).toEqual({ id: dropSid, revoked: true });
    await expect(caller.users.revokeSession({ sessionId: dropSid })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(resolveActor(headers({ authorization: `Bearer ${drop}` }))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    // another user's session id is not found
    const other = await serviceToken(await makeUser("other"));
    const otherSid = (await decode({ token: other, secret: getAuthSecret() }))!.sid as string;
    await expect(caller.users.revokeSession({ sessionId: otherSid })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // the browser's "Sign out" runs next-auth's signOut event with the JWT's payload
    const payload = await decode({ token: keep, secret: getAuthSecret() });
    await getAuthOptions().events!.signOut!({ token: payload!, session: undefined as never });
    await expect(resolveActor(headers({ authorization: `Bearer ${keep}` }))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await resolveActor(headers({ authorization: `Bearer ${other}` }))).toMatchObject({
      user: { username: expect.stringMatching(/^other/) },
    });
  });

  it("a sign-in through next-auth's jwt callback creates the session row", async () => {
    const user = await makeUser("jwtcb");
    const token = await getAuthOptions().callbacks!.jwt!({
      token: {},
      user: { id: user.id, userAgent: "Test Browser" } as never,
      account: null,
    } as never);
    expect(typeof token.sid).toBe("string");
    const row = await (await getDb()).userSession.findUnique({ where: { id: token.sid as string } });
    expect(row).toMatchObject({ userId: user.id, userAgent: "Test Browser" });
  });
});

describe("malformed cookies (item 10)", () => {
  it("a malformed cookie of another name is ignored; the session cookie still works", async () => {
    const user = await makeUser("cookie");
    const jwt = await serviceToken(user);
    expect(await resolveActor(headers({ cookie: "foo=%" }))).toBeNull();
    expect(await resolveActor(headers({ cookie: `foo=%; next-auth.session-token=${jwt}; bar=%E0%A4%A` }))).toMatchObject({
      user: { id: user.id },
    });
    expect(await resolveActor(headers({ cookie: "next-auth.session-token=%" }))).toBeNull();
    const server = await startServer();
    try {
      const res = await fetch(`${server.url}/api/trpc/repos.list`, { headers: { cookie: "foo=%" } });
      expect(res.status).toBe(200);
      const tokens = await fetch(`${server.url}/api/tokens`, { headers: { cookie: "foo=%" } });
      expect(tokens.status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe("cross-site requests with the session cookie (item 15)", () => {
  it("refuses cookie-authenticated mutations without this site's Origin; tokens and queries are unaffected", async () => {
    const user = await makeUser("csrf");
    const jwt = await serviceToken(user);
    const pat = await makeToken(user, ["repo:write"]);
    const server = await startServer();
    const cookie = `next-auth.session-token=${jwt}`;
    const self = server.url;
    const create = (headers: Record<string, string>, name: string, path = "/api/trpc/repos.create") =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ name }),
      });
    try {
      // tRPC mutations
      expect((await create({ cookie }, "a")).status).toBe(403);
      expect((await create({ cookie, origin: "http://evil.example" }, "b")).status).toBe(403);
      expect((await create({ cookie, origin: self.replace(/:\d+$/, ":1") }, "c")).status).toBe(403); // same host, another port: same-site, not same-origin
      expect((await create({ cookie, "content-type": "text/plain" }, "d")).status).toBe(415); // tRPC itself reads only JSON
      expect((await create({ cookie, origin: self }, "e")).status).toBe(200);
      expect((await create({ cookie, "sec-fetch-site": "same-origin" }, "f")).status).toBe(200);
      expect((await create({ authorization: `Bearer ${pat}` }, "g")).status).toBe(200);
      expect((await create({ authorization: `Bearer ${jwt}` }, "h")).status).toBe(200); // service token: not sent by browsers on their own
      expect((await fetch(`${server.url}/api/trpc/repos.list`, { headers: { cookie } })).status).toBe(200);
      expect((await (await callerFor(actorOf(user))).repos.list({ owner: user.username })).map((r) => r.name).sort()).toEqual([
        "e",
        "f",
        "g",
        "h",
      ]);
      // /api/tokens
      const token = (headers: Record<string, string>) =>
        fetch(`${server.url}/api/tokens`, { method: "POST", headers, body: JSON.stringify({ name: "t" }) });
      expect((await token({ cookie, "content-type": "text/plain" })).status).toBe(403);
      expect((await token({ cookie, origin: self, "content-type": "text/plain" })).status).toBe(415);
      expect((await token({ cookie, origin: self, "content-type": "application/json" })).status).toBe(201);
      expect((await token({ authorization: `Bearer ${jwt}`, "content-type": "application/json" })).status).toBe(201);
      const del = await fetch(`${server.url}/api/tokens/nothing`, { method: "DELETE", headers: { cookie, origin: "http://evil.example" } });
      expect(del.status).toBe(403);
    } finally {
      await server.close();
    }
  });
});
