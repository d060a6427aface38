import { describe, expect, it } from "vitest";
import { resolveActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import { authenticate } from "@/server/services/users/sign-in";
import { signUp } from "@/server/services/users/sign-up";
import { callerFor, actorOf, makeToken, makeUser, serviceToken } from "../helpers";
import { outcome } from "../procedures";

const headers = (h: Record<string, string>) => ({ headers: new Headers(h) });

describe("resolveActor", () => {
  it("reads a PAT, a service token, Basic with a PAT password and the session cookie", async () => {
    const user = await makeUser();
    const pat = await makeToken(user, ["repo:read"]);
    const viaPat = await resolveActor(headers({ authorization: `Bearer ${pat}` }));
    expect(viaPat).toMatchObject({ via: "pat", scopes: ["repo:read"], user: { id: user.id } });

    const jwt = await serviceToken(user);
    expect(await resolveActor(headers({ authorization: `Bearer ${jwt}` }))).toMatchObject({ via: "session", user: { id: user.id } });
    expect((await resolveActor(headers({ authorization: `Bearer ${jwt}` })))!.scopes).toHaveLength(5);

    const basic = Buffer.from(`anything:${pat}`).toString("base64");
    expect(await resolveActor(headers({ authorization: `Basic ${basic}` }))).toMatchObject({ via: "pat", user: { id: user.id } });

    expect(await resolveActor(headers({ cookie: `other=1; next-auth.session-token=${jwt}` }))).toMatchObject({
      via: "session",
      user: { id: user.id },
    });
    expect(await resolveActor(headers({}))).toBeNull();
  });

  it("never degrades bad credentials to anonymous", async () => {
    await expect(resolveActor(headers({ authorization: "Bearer svc_AAAAAAAA_" + "a".repeat(40) }))).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    await expect(resolveActor(headers({ authorization: "Bearer garbage" }))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(resolveActor(headers({ authorization: `Basic ${Buffer.from("u:password").toString("base64")}` }))).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    await expect(resolveActor(headers({ authorization: "Digest x" }))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    // a stale cookie is just signed out
    expect(await resolveActor(headers({ cookie: "next-auth.session-token=stale" }))).toBeNull();
  });
});

describe("accounts", () => {
  it("signs up with argon2 hashes, rejects taken names and short passwords, authenticates", async () => {
    const db = await getDb();
    const alice = await signUp(db, { username: "Alice", password: "password123", email: "a@example.com" });
    const row = await db.user.findUnique({ where: { id: alice.id } });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(alice.id).toMatch(/^[0-9a-f-]{36}$/);
    await expect(signUp(db, { username: "alice", password: "password123" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: 'username "alice" is already taken',
    });
    await expect(signUp(db, { username: "bob", password: "short" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/at least 8/),
    });
    await expect(signUp(db, { username: "-bad-", password: "password123" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(signUp(db, { username: "settings", password: "password123" })).rejects.toMatchObject({
      message: expect.stringMatching(/reserved/),
    });
    expect(await authenticate(db, "ALICE", "password123")).toMatchObject({ id: alice.id });
    expect(await authenticate(db, "alice", "wrong-password")).toBeNull();
    expect(await authenticate(db, "nobody", "password123")).toBeNull();
  });

  it("users.me needs user:read and returns {id, username, name, email}", async () => {
    const user = await makeUser();
    const me = await (await callerFor(actorOf(user))).users.me();
    expect(me).toEqual({ id: user.id, username: user.username, name: null, email: null });
    expect(await outcome(await callerFor(actorOf(user, ["repo:admin"])), "users.me", undefined)).toBe("FORBIDDEN");
    expect(await outcome(await callerFor(actorOf(user, ["user:write"])), "users.me", undefined)).toBe("OK");
    expect(await outcome(await callerFor(null), "users.me", undefined)).toBe("UNAUTHORIZED");
  });
});

describe("repositories", () => {
  it("creates, lists by visibility, and manages collaborators", async () => {
    const alice = await makeUser("alice");
    const bob = await makeUser("bob");
    const a = await callerFor(actorOf(alice));
    const secret = await a.repos.create({ name: "Secret.Repo", isPrivate: true, description: "x" });
    expect(secret).toMatchObject({
      owner: alice.username,
      name: "Secret.Repo",
      isPrivate: true,
      defaultBranch: "main",
      permission: "admin",
    });
    expect(secret.cloneUrl).toMatch(new RegExp(`/${alice.username}/Secret.Repo.git$`));
    await expect(a.repos.create({ name: "secret.repo" })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(a.repos.create({ name: "bad name" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(a.repos.create({ name: "x.git" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(a.repos.create({ name: "y", defaultBranch: "bad..branch" })).rejects.toMatchObject({ code: "BAD_REQUEST" });

    const b = await callerFor(actorOf(bob));
    expect((await b.repos.list({ owner: alice.username })).map((r) => r.name)).toEqual([]);
    expect((await a.repos.get({ owner: alice.username, name: "secret.repo" })).isEmpty).toBe(true);
    await a.repos.addCollaborator({ repoId: secret.id, username: bob.username, role: "read" });
    expect((await b.repos.list({ owner: alice.username })).map((r) => r.permission)).toEqual(["read"]);
    expect(await outcome(b, "repos.update", { repoId: secret.id, description: "y" })).toBe("FORBIDDEN");
    await a.repos.addCollaborator({ repoId: secret.id, username: bob.username, role: "admin" });
    expect((await b.repos.update({ repoId: secret.id, description: "by bob" })).description).toBe("by bob");
    expect((await a.repos.collaborators({ repoId: secret.id })).map((c) => [c.username, c.role])).toEqual([[bob.username, "admin"]]);
    // assignees: the owner and every collaborator, readable by collaborators
    expect((await b.repos.assignees({ repoId: secret.id })).map((u) => u.username).sort()).toEqual([alice.username, bob.username].sort());
    await expect(a.repos.addCollaborator({ repoId: secret.id, username: alice.username, role: "read" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(a.repos.addCollaborator({ repoId: secret.id, username: "ghost-user", role: "read" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await a.repos.removeCollaborator({ repoId: secret.id, username: bob.username });
    expect(await outcome(b, "repos.get", { owner: alice.username, name: "Secret.Repo" })).toBe("NOT_FOUND");
    await expect(a.repos.removeCollaborator({ repoId: secret.id, username: bob.username })).rejects.toMatchObject({ code: "NOT_FOUND" });

    expect(await outcome(await callerFor(null), "repos.list", {})).toBe("OK");
    await a.repos.delete({ repoId: secret.id });
    expect(await outcome(a, "repos.get", { owner: alice.username, name: "Secret.Repo" })).toBe("NOT_FOUND");
  });
});
